import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import type { CustomerSort, CustomerSortColumn, ListedCustomer } from '../api/customers.ts';
import { mailtoHref, telHref } from '../../domain/contact-links.ts';
import { leadStatusLabels } from '../../domain/lead-status.ts';
import { Button } from '../../ui/button.tsx';

// The table draws one page the database already sorted and cut (manual sorting and pagination):
// TanStack Table supplies the column model and the header and cell rendering, not the data work.

const columnHelper = createColumnHelper<ListedCustomer>();

const dataColumns: { id: CustomerSortColumn; header: string }[] = [
  { id: 'first_name', header: 'Vorname' },
  { id: 'last_name', header: 'Nachname' },
  { id: 'email', header: 'E-Mail' },
  { id: 'city', header: 'Ort' },
  { id: 'phone', header: 'Telefonnummer' },
];

const fullName = (customer: ListedCustomer) => `${customer.first_name} ${customer.last_name}`;

const linkClass = 'font-medium text-brand-800 underline underline-offset-2';

/** Phone and e-mail as they were stored, each a link to call or write (none without a value). */
function ContactCell(props: { value: string | null; href: string | null }) {
  if (!props.value) return null;
  if (!props.href) return <>{props.value}</>;
  return (
    <a href={props.href} className={linkClass}>
      {props.value}
    </a>
  );
}

function SortIcon({ direction }: { direction: false | 'asc' | 'desc' }) {
  const path =
    direction === 'asc'
      ? 'M6 14l6-6 6 6'
      : direction === 'desc'
        ? 'M6 10l6 6 6-6'
        : 'M8 9l4-4 4 4M8 15l4 4 4-4';
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0" fill="none">
      <path d={path} stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function CustomersTable(props: {
  rows: ListedCustomer[];
  sort: CustomerSort | null;
  onSort: (column: CustomerSortColumn) => void;
  onDetails: (customer: ListedCustomer) => void;
  /** The previous page is shown while the next one loads. */
  busy: boolean;
}) {
  const sorting: SortingState = props.sort
    ? [{ id: props.sort.column, desc: !props.sort.ascending }]
    : [];
  const columns = [
    columnHelper.display({
      id: 'detail',
      header: 'Details',
      cell: ({ row }) => (
        <Button
          variant="secondary"
          className="px-3"
          aria-label={`Details zu ${fullName(row.original)}`}
          onClick={() => props.onDetails(row.original)}
        >
          Details
        </Button>
      ),
    }),
    ...dataColumns.map(({ id, header }) =>
      columnHelper.accessor(id, {
        header,
        cell: (cell) =>
          id === 'email' ? (
            <ContactCell value={cell.getValue()} href={mailtoHref(cell.getValue())} />
          ) : id === 'phone' ? (
            <ContactCell value={cell.getValue()} href={telHref(cell.getValue())} />
          ) : (
            (cell.getValue() ?? '')
          ),
      }),
    ),
    // The newest lead's status (of the leads the filters select); a customer made in the desk
    // may have no lead at all.
    columnHelper.accessor('lead_status', {
      header: 'Status',
      cell: (cell) => {
        const status = cell.getValue();
        return status ? (
          leadStatusLabels[status]
        ) : (
          <span className="text-slate-600">keine Anfrage</span>
        );
      },
    }),
  ];
  // The compiler leaves this component unmemoised, which is what TanStack Table needs: the page is
  // at most 20 rows, re-rendered when its query or the order changes.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: props.rows,
    columns,
    getRowId: (customer) => String(customer.id),
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    state: { sorting },
  });

  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow">
      <table className="min-w-full text-left text-sm" aria-busy={props.busy}>
        <caption className="sr-only">Kunden; die Spaltenköpfe sortieren die Tabelle</caption>
        <thead className="bg-slate-50 text-slate-700">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sortable =
                  header.column.id !== 'detail' && header.column.id !== 'lead_status';
                const direction = header.column.getIsSorted();
                const label = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className="px-4 py-2 font-semibold whitespace-nowrap"
                    aria-sort={
                      sortable
                        ? direction === 'asc'
                          ? 'ascending'
                          : direction === 'desc'
                            ? 'descending'
                            : 'none'
                        : undefined
                    }
                  >
                    {sortable ? (
                      <button
                        type="button"
                        className="inline-flex min-h-11 items-center gap-1 rounded hover:text-brand-800"
                        onClick={() => props.onSort(header.column.id as CustomerSortColumn)}
                      >
                        {label}
                        <SortIcon direction={direction} />
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className={`divide-y divide-slate-200 ${props.busy ? 'opacity-60' : ''}`}>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="px-4 py-2 text-slate-900">
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
