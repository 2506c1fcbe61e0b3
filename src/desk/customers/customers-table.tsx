import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import type { MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import type { CustomerSort, CustomerSortColumn, ListedCustomer } from '../api/customers.ts';
import { berlinDate, berlinMinute } from '../../domain/calendar.ts';
import { mailtoHref, telHref } from '../../domain/contact-links.ts';
import { leadStatusLabels } from '../../domain/lead-status.ts';

// The table draws one page the database already sorted and cut (manual sorting and pagination):
// TanStack Table supplies the column model and the header and cell rendering, not the data work.
// A click anywhere in a row opens the customer; for the keyboard (and a new tab) the first name
// is the link to them.

const columnHelper = createColumnHelper<ListedCustomer>();

const fieldColumns: { id: 'last_name' | 'email' | 'city' | 'phone'; header: string }[] = [
  { id: 'last_name', header: 'Nachname' },
  { id: 'email', header: 'E-Mail' },
  { id: 'city', header: 'Ort' },
  { id: 'phone', header: 'Telefonnummer' },
];

const sourceNames = {
  questionnaire: 'Fragebogen',
  kfz: 'KFZ-Rückruf',
  contact: 'Kontaktformular',
} as const;

/** Where the newest lead came from: the form, and the fair tablet where it was captured there. */
export function leadSourceLabel(customer: Pick<ListedCustomer, 'lead_source' | 'lead_channel'>) {
  if (!customer.lead_source) return '';
  const source = sourceNames[customer.lead_source];
  return customer.lead_channel === 'fair_tablet' ? `${source} (Messe-Tablet)` : source;
}

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

/** The next open follow-up's due time; one already past says so. */
function FollowUpCell(props: { dueAt: string | null; now: number }) {
  if (!props.dueAt) return null;
  const overdue = new Date(props.dueAt).getTime() < props.now;
  return (
    <span className={overdue ? 'font-medium text-red-800' : undefined}>
      {berlinMinute(props.dueAt)}
      {overdue ? ' (überfällig)' : ''}
    </span>
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

/** A click on a link, button or field of the row is that control's, not the row's. */
const onControl = (event: MouseEvent) =>
  event.target instanceof Element && event.target.closest('a, button, input, select') !== null;

export function CustomersTable(props: {
  rows: ListedCustomer[];
  sort: CustomerSort | null;
  onSort: (column: CustomerSortColumn) => void;
  /** The address (search part) that opens a customer: the row's link. */
  linkTo: (customer: ListedCustomer) => string;
  onOpen: (customer: ListedCustomer) => void;
  /** The previous page is shown while the next one loads. */
  busy: boolean;
  /** The moment follow-ups count as overdue from (ms). */
  now: number;
}) {
  const sorting: SortingState = props.sort
    ? [{ id: props.sort.column, desc: !props.sort.ascending }]
    : [];
  const columns = [
    columnHelper.accessor('first_name', {
      header: 'Vorname',
      cell: ({ row }) => (
        <Link
          to={{ search: props.linkTo(row.original) }}
          className={linkClass}
          aria-label={`Details zu ${fullName(row.original)}`}
        >
          {row.original.first_name}
        </Link>
      ),
    }),
    ...fieldColumns.map(({ id, header }) =>
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
    // The newest lead (of the leads the filters select); a customer made in the desk may have none.
    columnHelper.accessor('last_lead_at', {
      header: 'Letzte Anfrage',
      cell: (cell) => {
        const at = cell.getValue();
        return at ? <span className="whitespace-nowrap">{berlinDate(at)}</span> : null;
      },
    }),
    columnHelper.accessor('lead_source', {
      header: 'Quelle',
      cell: ({ row }) => leadSourceLabel(row.original),
    }),
    columnHelper.accessor('questionnaire_title', {
      header: 'Fragebogen',
      cell: (cell) => cell.getValue() ?? '',
    }),
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
    columnHelper.accessor('next_follow_up_at', {
      header: 'Nächste Wiedervorlage',
      cell: (cell) => <FollowUpCell dueAt={cell.getValue()} now={props.now} />,
    }),
  ];
  // The compiler leaves this component unmemoised, which is what TanStack Table needs: the page is
  // at most 100 rows, re-rendered when its query or the order changes.
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
        <caption className="sr-only">
          Kunden; die Spaltenköpfe sortieren die Tabelle, der Vorname öffnet den Kunden
        </caption>
        <thead className="bg-slate-50 text-slate-700">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const direction = header.column.getIsSorted();
                const label = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className="px-3 py-1 font-semibold whitespace-nowrap"
                    aria-sort={
                      direction === 'asc'
                        ? 'ascending'
                        : direction === 'desc'
                          ? 'descending'
                          : 'none'
                    }
                  >
                    <button
                      type="button"
                      className="inline-flex min-h-11 items-center gap-1 rounded hover:text-brand-800"
                      onClick={() => props.onSort(header.column.id as CustomerSortColumn)}
                    >
                      {label}
                      <SortIcon direction={direction} />
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className={`divide-y divide-slate-200 ${props.busy ? 'opacity-60' : ''}`}>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              className="cursor-pointer hover:bg-brand-50"
              // The mouse's way in; the keyboard's is the first name's link.
              onClick={(event) => {
                if (!onControl(event)) props.onOpen(row.original);
              }}
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="px-3 py-2 text-slate-900">
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
