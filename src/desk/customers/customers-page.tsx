import { useEffect, useEffectEvent, useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { hasCustomerFilters, useCustomerPage } from '../api/customers.ts';
import { useFormTitles } from '../api/forms.ts';
import { useMyRole } from '../api/staff.ts';
import { deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { ExportMenu } from '../shared/export-menu.tsx';
import { CustomerSidebar } from './customer-sidebar.tsx';
import { CustomersFilters } from './customers-filters.tsx';
import { CustomersPaginator } from './customers-paginator.tsx';
import { CustomersTable } from './customers-table.tsx';
import {
  customersExportFilter,
  customersFileStem,
  cycleSort,
  normalizeSearch,
  pageCount,
  readCustomersView,
  writeCustomersView,
  type CustomersView,
} from './customers-view.ts';

/** How long typing may pause before the search runs. */
const searchDelay = 300;

const numberFormat = new Intl.NumberFormat('de-DE');
const customersCount = (total: number) =>
  `${numberFormat.format(total)} ${total === 1 ? 'Kunde' : 'Kunden'}`;

/** The view as the address holds it, and a way to change it (a new history entry by default). */
function useCustomersView() {
  const [params, setParams] = useSearchParams();
  const view = readCustomersView(params);
  // Rendered at once, not as a transition (the router's default): a checkbox or a choice is
  // controlled by the address, so until the new address renders it would show its old state, and
  // on a busy machine a second click could come before.
  const change = (next: Partial<CustomersView>, options?: { replace?: boolean }) =>
    setParams(writeCustomersView({ ...view, ...next }), { ...options, flushSync: true });
  return [view, change] as const;
}

function SearchBox(props: { search: string; onSearch: (search: string) => void }) {
  const id = useId();
  const [typed, setTyped] = useState(props.search);
  const { search } = props;
  // A re-render of the list (its query settling) must not restart the pause after typing.
  const runSearch = useEffectEvent(props.onSearch);

  // Back and forward change the address: the box follows unless it already means the same. The
  // search this box ran is no such change: what was typed since it ran stays in the box.
  const [shown, setShown] = useState(search);
  const [ran, setRan] = useState<string | null>(null);
  if (search !== shown) {
    setShown(search);
    if (search === ran) setRan(null);
    else if (normalizeSearch(typed) !== search) setTyped(search);
  }

  useEffect(() => {
    const term = normalizeSearch(typed);
    if (term === search) return;
    const timer = setTimeout(() => {
      setRan(term);
      runSearch(term);
    }, searchDelay);
    return () => clearTimeout(timer);
  }, [typed, search]);

  return (
    <div className="w-56" role="search">
      <label htmlFor={id} className="mb-1 block font-medium text-slate-800">
        Suche
      </label>
      <input
        id={id}
        type="search"
        value={typed}
        placeholder="Name, E-Mail, Ort, Telefon"
        onChange={(event) => setTyped(event.target.value)}
        aria-describedby={`${id}-hinweis`}
        className="block min-h-11 w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-600"
      />
      <p id={`${id}-hinweis`} className="sr-only">
        Sucht in Vorname, Nachname, E-Mail, Ort und Telefonnummer.
      </p>
    </div>
  );
}

function CustomersList() {
  const [view, change] = useCustomersView();
  const customers = useCustomerPage({
    search: view.search,
    filters: view.filters,
    page: view.page,
    size: view.size,
    sort: view.sort,
  });
  const total = customers.data?.total;
  const pages = pageCount(total ?? 0, view.size);

  // A page past the end (fewer customers than when the link was shared): show the last one.
  const beyondEnd = total !== undefined && !customers.isPlaceholderData && view.page > pages;
  const moveToLastPage = useEffectEvent(() => change({ page: pages }, { replace: true }));
  useEffect(() => {
    if (beyondEnd) moveToLastPage();
  }, [beyondEnd]);

  const onSearch = (search: string) => change({ search, page: 1 }, { replace: true });
  const [erased, setErased] = useState(false);
  const forms = useFormTitles();
  const filtered = hasCustomerFilters(view.filters);
  const questionnaireTitle = (id: number) => forms.data?.find((form) => form.id === id)?.title;

  return (
    <>
      {erased ? (
        <div className="mb-4">
          <Alert tone="info">
            Der Kunde wurde gelöscht. Aufbewahrt bleiben nur der Nachweis der Löschung und
            gegebenenfalls der Einwilligungsnachweis ohne Klardaten.
          </Alert>
        </div>
      ) : null}
      <CustomersFilters
        filters={view.filters}
        questionnaires={forms.data ?? []}
        questionnairesFailed={forms.isError}
        onChange={(filters) => change({ filters, page: 1 })}
        search={<SearchBox search={view.search} onSearch={onSearch} />}
      />
      <div className="mb-2 flex min-h-11 flex-wrap items-center justify-between gap-3">
        {/* The exact number the search and filters find, announced as it changes. */}
        <p aria-live="polite" className="font-semibold text-slate-800">
          {customers.data && !customers.isPlaceholderData
            ? customersCount(customers.data.total)
            : ''}
        </p>
        {/* The export covers every lead of the customers the list finds, not just this page. */}
        <ExportMenu
          scope="customers"
          filter={customersExportFilter(view)}
          fileStem={customersFileStem(view, questionnaireTitle)}
        />
      </div>
      {customers.isPending ? (
        <p role="status" className="p-8 text-center text-slate-600">
          Kunden werden geladen …
        </p>
      ) : customers.isError ? (
        <LoadError onRetry={customers.refetch}>Die Kunden konnten nicht geladen werden.</LoadError>
      ) : customers.data.rows.length === 0 && !beyondEnd ? (
        <p role="status" className="rounded-lg bg-white p-8 text-center text-slate-700 shadow">
          {filtered ? 'Keine Kunden passen zu diesen Filtern.' : 'Keine Kunden gefunden'}
        </p>
      ) : (
        <>
          <CustomersTable
            rows={customers.data.rows}
            sort={view.sort}
            busy={customers.isPlaceholderData}
            onSort={(column) => change({ sort: cycleSort(view.sort, column), page: 1 })}
            linkTo={(customer) => `?${writeCustomersView({ ...view, selected: customer.id })}`}
            onOpen={(customer) => change({ selected: customer.id })}
            now={customers.dataUpdatedAt}
          />
          <CustomersPaginator
            page={Math.min(view.page, pages)}
            pageCount={pages}
            total={customers.data.total}
            size={view.size}
            onPage={(page) => change({ page })}
            onSize={(size) => change({ size, page: 1 })}
          />
        </>
      )}
      <CustomerSidebar
        customerId={view.selected}
        onClose={() => {
          setErased(false);
          change({ selected: null });
        }}
        onErased={() => {
          setErased(true);
          // The search that found the erased person ends with them (useEraseCustomer).
          change({ selected: null, search: '', page: 1 });
        }}
      />
    </>
  );
}

export function CustomersPage() {
  const role = useMyRole();
  return (
    <DeskScreen
      heading="Kunden Daten"
      meta={{
        title: 'Kunden Daten – Survey Desk',
        description:
          'Kundendaten durchsuchen und pflegen: alle Interessenten aus Fragebögen und Kontaktformularen mit ihren Kontaktdaten und Details in einer Tabelle.',
        path: deskPaths.customers,
      }}
    >
      {role.data === 'pending' ? (
        // The desk's guard normally stops pending accounts first; the table must never pretend
        // that an account without rights is looking at an empty customer list.
        <Alert tone="info">
          Dein Konto ist noch nicht freigeschaltet, deshalb siehst du keine Kundendaten. Bitte wende
          dich an eine Administratorin oder einen Administrator.
        </Alert>
      ) : (
        <CustomersList />
      )}
    </DeskScreen>
  );
}
