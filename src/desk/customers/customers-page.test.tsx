// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  noCustomerFilters,
  type CustomerPageRequest,
  type ListedCustomer,
} from '../api/customers.ts';
import { CustomersPage } from './customers-page.tsx';

// The screen against a stand-in for the page query: what it asks the database for, and how it
// shows loading, errors, no matches and a page of customers.
type PageQuery = {
  data?: { rows: ListedCustomer[]; total: number };
  isPending: boolean;
  isError: boolean;
  isPlaceholderData: boolean;
  refetch: () => void;
};

const state = vi.hoisted(() => ({
  query: {} as PageQuery,
  requests: [] as CustomerPageRequest[],
  role: 'staff' as string,
  opened: null as ListedCustomer | null,
  formsFailed: false,
}));

vi.mock('../api/customers.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/customers.ts')>()),
  useCustomerPage: (request: CustomerPageRequest) => {
    state.requests.push(request);
    return state.query;
  },
  useCustomer: () =>
    state.opened
      ? { data: state.opened, isPending: false, isError: false }
      : { isPending: true, isError: false },
  useUpdateCustomer: () => ({ mutateAsync: vi.fn() }),
}));
vi.mock('../api/staff.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/staff.ts')>()),
  useMyRole: () => ({ data: state.role, isPending: false }),
}));

vi.mock('../api/forms.ts', () => ({
  useFormTitles: () =>
    state.formsFailed
      ? { isError: true, isPending: false }
      : {
          isError: false,
          isPending: false,
          data: [
            { id: 1, title: 'Tabaluga' },
            { id: 2, title: 'PKV' },
          ],
        },
}));

vi.mock('../api/customer-newest-lead.ts', () => ({
  useCustomerNewestLead: () => ({ data: null, isPending: false, isError: false }),
}));
// The sidebar's data-protection actions have their own test; here one reports an erasure.
vi.mock('./customer-privacy-actions.tsx', () => ({
  CustomerPrivacyActions: (props: { onErased: () => void }) => (
    <button type="button" onClick={props.onErased}>
      Löschung melden
    </button>
  ),
}));
// The sidebar's follow-ups and notes have their own tests.
vi.mock('../shared/customer-follow-ups.tsx', () => ({ CustomerFollowUps: () => null }));
vi.mock('../shared/customer-notes.tsx', () => ({ CustomerNotes: () => null }));

// The export menu talks to the database itself (src/desk/shared/export-menu.test.tsx); here only
// what the screen hands it matters.
vi.mock('../shared/export-menu.tsx', () => ({
  ExportMenu: (props: { scope: string; filter: object; fileStem?: string }) => (
    <span data-testid="export">{JSON.stringify(props)}</span>
  ),
}));

const customer = (id: number, lastName: string): ListedCustomer => ({
  id,
  first_name: 'Erika',
  last_name: lastName,
  email: `erika.${id}@example.de`,
  phone: null,
  adress: null,
  postcode: null,
  city: 'Köln',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
  lead_status: null,
  last_lead_at: null,
  lead_source: null,
  lead_channel: null,
  questionnaire_title: null,
  next_follow_up_at: null,
});

const loaded = (rows: ListedCustomer[], total = rows.length): PageQuery => ({
  data: { rows, total },
  isPending: false,
  isError: false,
  isPlaceholderData: false,
  refetch: vi.fn(),
});

function Address() {
  return <span data-testid="adresse">{useLocation().search}</span>;
}

const address = () => screen.getByTestId('adresse').textContent;

function renderAt(search: string) {
  render(
    <MemoryRouter initialEntries={[`/surveydesk/customer${search}`]}>
      <CustomersPage />
      <Address />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

const lastRequest = () => state.requests.at(-1);

beforeEach(() => {
  state.opened = null;
  state.query = loaded([customer(1, 'Meier'), customer(2, 'Schulz')], 12);
  state.requests = [];
  state.role = 'staff';
  state.formsFailed = false;
});
afterEach(cleanup);

describe('CustomersPage', () => {
  it('asks for the view the address holds and shows its page', () => {
    renderAt('?q=k%C3%B6ln&seite=2&anzahl=5&sortierung=city.desc');
    expect(lastRequest()).toEqual({
      search: 'köln',
      filters: noCustomerFilters,
      page: 2,
      size: 5,
      sort: { column: 'city', ascending: false },
    });
    expect(screen.getByLabelText('Suche')).toHaveProperty('value', 'köln');
    expect(screen.getByText(/Seite 2 von 3/)).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Ort' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(screen.getByRole('link', { name: 'Details zu Erika Schulz' })).toBeTruthy();
  });

  it('runs the typed search trimmed and lower-cased after a pause, from the first page', async () => {
    const user = renderAt('?seite=2');
    await user.type(screen.getByLabelText('Suche'), ' MEI');
    expect(address()).toBe('?seite=2');
    await waitFor(() => expect(address()).toBe('?q=mei'));
    expect(lastRequest()).toMatchObject({ search: 'mei', page: 1 });
  });

  it('hands the export the search term the list shows', async () => {
    const user = renderAt('?q=meier');
    expect(JSON.parse(screen.getByTestId('export').textContent ?? '')).toEqual({
      scope: 'customers',
      filter: { customerSearch: 'meier' },
      fileStem: 'kunden_suche-meier',
    });
    await user.clear(screen.getByLabelText('Suche'));
    await user.type(screen.getByLabelText('Suche'), 'Köln');
    await waitFor(() =>
      expect(JSON.parse(screen.getByTestId('export').textContent ?? '')).toMatchObject({
        filter: { customerSearch: 'köln' },
      }),
    );
  });

  it('cycles a header through ascending, descending and no order', async () => {
    const user = renderAt('?seite=2');
    const header = () => screen.getByRole('columnheader', { name: 'Nachname' });
    await user.click(within(header()).getByRole('button'));
    expect(address()).toBe('?sortierung=last_name.asc');
    await user.click(within(header()).getByRole('button'));
    expect(address()).toBe('?sortierung=last_name.desc');
    await user.click(within(header()).getByRole('button'));
    expect(address()).toBe('');
  });

  it('pages and changes the page size in the address', async () => {
    const user = renderAt('');
    await user.click(screen.getByRole('button', { name: 'Letzte Seite' }));
    expect(address()).toBe('?seite=2');
    await user.selectOptions(screen.getByLabelText('Einträge pro Seite'), '5');
    expect(address()).toBe('?anzahl=5');
    expect(screen.getByRole('button', { name: 'Erste Seite' })).toHaveProperty('disabled', true);
  });

  it('offers 50 and 100 rows per page beside the spec’s 5, 10 and 20', async () => {
    const user = renderAt('');
    const size = screen.getByLabelText<HTMLSelectElement>('Einträge pro Seite');
    expect([...size.options].map((option) => option.value)).toEqual(['5', '10', '20', '50', '100']);
    await user.selectOptions(size, '100');
    expect(address()).toBe('?anzahl=100');
    expect(lastRequest()).toMatchObject({ size: 100, page: 1 });
    await user.selectOptions(size, '50');
    expect(address()).toBe('?anzahl=50');
  });

  it('jumps to a numbered page, with the pages far away left out', async () => {
    state.query = loaded([customer(1, 'Meier')], 510);
    const user = renderAt('?seite=10');
    const numbers = within(screen.getByRole('list', { name: 'Seitenzahlen' }));
    expect(numbers.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '1',
      '…',
      '8',
      '9',
      '10',
      '11',
      '12',
      '…',
      '51',
    ]);
    expect(numbers.getByRole('button', { name: 'Seite 10' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await user.click(numbers.getByRole('button', { name: 'Seite 51' }));
    expect(address()).toBe('?seite=51');
    expect(lastRequest()).toMatchObject({ page: 51 });
  });

  it('opens the sidebar from the name’s link and keeps the customer in the address', async () => {
    const user = renderAt('?q=mei');
    const link = screen.getByRole('link', { name: 'Details zu Erika Meier' });
    expect(link.getAttribute('href')).toBe('/surveydesk/customer?q=mei&id=1');
    expect(link.textContent).toBe('Erika');
    await user.click(link);
    expect(address()).toBe('?q=mei&id=1');
    expect(screen.getByRole('dialog', { name: 'Kunden Details' })).toBeTruthy();
  });

  it('opens the customer from a click anywhere in the row, but not from its e-mail link', async () => {
    const user = renderAt('?q=mei');
    const schulz = within(screen.getAllByRole('row')[2]!);
    const mail = schulz.getByRole('link', { name: 'erika.2@example.de' });
    mail.addEventListener('click', (event) => event.preventDefault());
    await user.click(mail);
    expect(address()).toBe('?q=mei');
    await user.click(schulz.getByRole('cell', { name: 'Köln' }));
    expect(address()).toBe('?q=mei&id=2');
    expect(screen.getByRole('dialog', { name: 'Kunden Details' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Details/ })).toBeNull();
  });

  it('after an erasure closes the sidebar, leaves the search for the person and says so', async () => {
    state.opened = customer(3, 'Gelöscht');
    state.query = loaded([state.opened]);
    const user = renderAt('?q=gel%C3%B6scht&id=3');
    await user.click(await screen.findByRole('button', { name: 'Löschung melden' }));
    expect(
      (await screen.findByText(/Der Kunde wurde gelöscht/)).closest('[role="status"]'),
    ).not.toBeNull();
    expect(address()).not.toMatch(/q=|id=/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('moves back to the last page when the address names one past the end', async () => {
    renderAt('?seite=9');
    await waitFor(() => expect(address()).toBe('?seite=2'));
  });

  it('says when nothing matches', () => {
    state.query = loaded([]);
    renderAt('?q=niemand');
    expect(screen.getByRole('status').textContent).toBe('Keine Kunden gefunden');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a German error with a retry', async () => {
    const refetch = vi.fn();
    state.query = { isPending: false, isError: true, isPlaceholderData: false, refetch };
    const user = renderAt('');
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Kunden konnten nicht geladen werden.',
    );
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('explains a pending account instead of showing an empty table', () => {
    state.role = 'pending';
    renderAt('');
    expect(screen.getByRole('status').textContent).toContain('noch nicht freigeschaltet');
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('CustomersPage filters', () => {
  const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

  it('asks for the filters the address holds and shows them chosen', () => {
    renderAt(
      '?q=meier&fragebogen=2&quelle=messe&status=contacted&von=2026-11-01&bis=2026-11-30&wiedervorlage=1',
    );
    expect(lastRequest()).toMatchObject({
      search: 'meier',
      filters: {
        questionnaireId: 2,
        source: 'fair_tablet',
        status: 'contacted',
        receivedFrom: '2026-11-01',
        receivedTo: '2026-11-30',
        openFollowUp: true,
      },
    });
    expect(field('Fragebogen').value).toBe('2');
    expect(field('Quelle').value).toBe('fair_tablet');
    expect(field('Status').value).toBe('contacted');
    expect(field('Von').value).toBe('2026-11-01');
    expect(field('Bis').value).toBe('2026-11-30');
    expect(field('Offene Wiedervorlage').checked).toBe(true);
  });

  it('puts each choice into the address from the first page, beside the search', async () => {
    const user = renderAt('?q=meier&seite=2');
    await user.selectOptions(field('Status'), 'Kontaktiert');
    expect(address()).toBe('?q=meier&status=contacted');
    await user.selectOptions(field('Quelle'), 'KFZ-Rückruf');
    expect(address()).toBe('?q=meier&quelle=kfz&status=contacted');
    await user.selectOptions(field('Fragebogen'), 'PKV');
    await user.click(screen.getByRole('button', { name: 'Weitere Filter' }));
    await user.click(field('Offene Wiedervorlage'));
    expect(address()).toBe('?q=meier&fragebogen=2&quelle=kfz&status=contacted&wiedervorlage=1');
    expect(lastRequest()).toMatchObject({
      search: 'meier',
      page: 1,
      filters: { questionnaireId: 2, source: 'kfz', status: 'contacted', openFollowUp: true },
    });
  });

  it('keeps the period and the open follow-up behind ‘Weitere Filter’', async () => {
    const user = renderAt('');
    const more = screen.getByRole('button', { name: 'Weitere Filter' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByLabelText('Von')).toBeNull();
    expect(screen.queryByLabelText('Offene Wiedervorlage')).toBeNull();
    more.focus();
    await user.keyboard('{Enter}');
    expect(more.getAttribute('aria-expanded')).toBe('true');
    await user.click(field('Offene Wiedervorlage'));
    expect(address()).toBe('?wiedervorlage=1');
    expect(screen.getByRole('button', { name: /^Weitere Filter\s*\(1 aktiv\)$/ })).toBeTruthy();
  });

  it('applies a period of whole days and refuses an end before the start at its field', async () => {
    const user = renderAt('');
    await user.click(screen.getByRole('button', { name: 'Weitere Filter' }));
    await user.type(field('Von'), '2026-11-10');
    expect(address()).toBe('?von=2026-11-10');
    await user.type(field('Bis'), '2026-11-09');
    expect(address()).toBe('?von=2026-11-10');
    const bis = field('Bis');
    expect(bis.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(bis.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Das Enddatum darf nicht vor dem Startdatum liegen.',
    );
    await user.clear(bis);
    await user.type(bis, '2026-11-12');
    expect(address()).toBe('?von=2026-11-10&bis=2026-11-12');
    expect(bis.getAttribute('aria-invalid')).toBeNull();
  });

  it('resets the filters and keeps the search', async () => {
    const user = renderAt('?q=meier&status=closed&von=2026-11-01&wiedervorlage=1');
    await user.click(screen.getByRole('button', { name: 'Filter zurücksetzen' }));
    expect(address()).toBe('?q=meier');
    expect(field('Von').value).toBe('');
    expect(field('Status').value).toBe('alle');
    expect(screen.queryByRole('button', { name: 'Filter zurücksetzen' })).toBeNull();
  });

  it('shows the exact number found and the empty state of filters', () => {
    renderAt('?status=closed');
    expect(screen.getByText('12 Kunden')).toBeTruthy();
    cleanup();
    state.query = loaded([]);
    renderAt('?status=closed');
    expect(screen.getByRole('status').textContent).toBe('Keine Kunden passen zu diesen Filtern.');
    expect(screen.getByText('0 Kunden')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the current status and links phone and e-mail', () => {
    state.query = loaded([
      { ...customer(1, 'Meier'), lead_status: 'appointment', phone: '0171 234 56-78' },
      customer(2, 'Schulz'),
    ]);
    renderAt('');
    const rows = screen.getAllByRole('row');
    const meier = within(rows[1]!);
    expect(meier.getByRole('cell', { name: 'Termin vereinbart' })).toBeTruthy();
    expect(meier.getByRole('link', { name: '0171 234 56-78' }).getAttribute('href')).toBe(
      'tel:+491712345678',
    );
    expect(meier.getByRole('link', { name: 'erika.1@example.de' }).getAttribute('href')).toBe(
      'mailto:erika.1@example.de',
    );
    expect(within(rows[2]!).getByRole('cell', { name: 'keine Anfrage' })).toBeTruthy();
  });

  it('shows the newest lead’s arrival, source, questionnaire and the next follow-up', () => {
    state.query = loaded([
      {
        ...customer(1, 'Meier'),
        lead_status: 'new',
        last_lead_at: '2026-11-20T23:30:00Z',
        lead_source: 'questionnaire',
        lead_channel: 'fair_tablet',
        questionnaire_title: 'PKV',
        next_follow_up_at: '2026-12-01T08:00:00Z',
      },
      {
        ...customer(2, 'Schulz'),
        lead_status: 'contacted',
        last_lead_at: '2026-11-02T10:00:00Z',
        lead_source: 'kfz',
        lead_channel: 'web',
      },
    ]);
    renderAt('');
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual([
      'Vorname',
      'Nachname',
      'E-Mail',
      'Ort',
      'Telefonnummer',
      'Letzte Anfrage',
      'Quelle',
      'Fragebogen',
      'Status',
      'Nächste Wiedervorlage',
    ]);
    const cells = (index: number) =>
      within(screen.getAllByRole('row')[index]!)
        .getAllByRole('cell')
        .slice(5)
        .map((cell) => cell.textContent);
    // Berlin's day: 23:30 UTC on the 20th is the 21st there.
    expect(cells(1)).toEqual([
      '21.11.2026',
      'Fragebogen (Messe-Tablet)',
      'PKV',
      'Neu',
      '01.12.2026 09:00',
    ]);
    expect(cells(2)).toEqual(['02.11.2026', 'KFZ-Rückruf', '', 'Kontaktiert', '']);
  });

  it('sorts by every column in the address, the new ones too', async () => {
    const user = renderAt('');
    const columns = {
      'Letzte Anfrage': 'last_lead_at',
      Quelle: 'lead_source',
      Fragebogen: 'questionnaire_title',
      Status: 'lead_status',
      'Nächste Wiedervorlage': 'next_follow_up_at',
    };
    for (const [name, column] of Object.entries(columns)) {
      const header = screen.getByRole('columnheader', { name });
      expect(header.getAttribute('aria-sort')).toBe('none');
      await user.click(within(header).getByRole('button'));
      expect(address()).toBe(`?sortierung=${column}.asc`);
      expect(lastRequest()).toMatchObject({ sort: { column, ascending: true } });
    }
    const last = () => screen.getByRole('columnheader', { name: 'Nächste Wiedervorlage' });
    expect(last().getAttribute('aria-sort')).toBe('ascending');
    await user.click(within(last()).getByRole('button'));
    expect(address()).toBe('?sortierung=next_follow_up_at.desc');
    expect(last().getAttribute('aria-sort')).toBe('descending');
  });

  it('hands the export the list’s filters and a file name that says them', () => {
    renderAt('?q=meier&fragebogen=2&quelle=kfz&status=new&von=2026-11-01&wiedervorlage=1');
    expect(JSON.parse(screen.getByTestId('export').textContent ?? '')).toEqual({
      scope: 'customers',
      filter: {
        customerSearch: 'meier',
        questionnaireId: 2,
        source: 'kfz',
        status: 'new',
        receivedFrom: '2026-11-01',
        openFollowUp: true,
      },
      fileStem:
        'kunden_suche-meier_fragebogen-pkv_quelle-kfz_status-neu_von-2026-11-01_wiedervorlage-offen',
    });
  });

  it('says at the questionnaire choice when the questionnaires could not be read', () => {
    state.formsFailed = true;
    renderAt('');
    expect(field('Fragebogen').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Die Fragebögen konnten nicht geladen werden.')).toBeTruthy();
  });
});
