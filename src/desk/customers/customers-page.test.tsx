// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Customer, CustomerPageRequest } from '../../api/desk-customers.ts';
import { CustomersPage } from './customers-page.tsx';

// The screen against a stand-in for the page query: what it asks the database for, and how it
// shows loading, errors, no matches and a page of customers.
type PageQuery = {
  data?: { rows: Customer[]; total: number };
  isPending: boolean;
  isError: boolean;
  isPlaceholderData: boolean;
  refetch: () => void;
};

const state = vi.hoisted(() => ({
  query: {} as PageQuery,
  requests: [] as CustomerPageRequest[],
  role: 'staff' as string,
  opened: null as Customer | null,
}));

vi.mock('../../api/desk-customers.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/desk-customers.ts')>()),
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
vi.mock('../../api/desk-staff.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/desk-staff.ts')>()),
  useMyRole: () => ({ data: state.role, isPending: false }),
}));

vi.mock('../../api/desk-customer-newest-lead.ts', () => ({
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
vi.mock('./customer-follow-ups.tsx', () => ({ CustomerFollowUps: () => null }));
vi.mock('./customer-notes.tsx', () => ({ CustomerNotes: () => null }));

// The export menu talks to the database itself (src/desk/shared/export-menu.test.tsx); here only
// what the screen hands it matters.
vi.mock('../shared/export-menu.tsx', () => ({
  ExportMenu: (props: { scope: string; filter: object }) => (
    <span data-testid="export">{JSON.stringify(props)}</span>
  ),
}));

const customer = (id: number, lastName: string): Customer => ({
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
});

const loaded = (rows: Customer[], total = rows.length): PageQuery => ({
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
});
afterEach(cleanup);

describe('CustomersPage', () => {
  it('asks for the view the address holds and shows its page', () => {
    renderAt('?q=k%C3%B6ln&seite=2&anzahl=5&sortierung=city.desc');
    expect(lastRequest()).toEqual({
      search: 'köln',
      page: 2,
      size: 5,
      sort: { column: 'city', ascending: false },
    });
    expect(screen.getByLabelText('Suche')).toHaveProperty('value', 'köln');
    expect(screen.getByText(/Seite 2 von 3/)).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Ort' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(screen.getByRole('button', { name: 'Details zu Erika Schulz' })).toBeTruthy();
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

  it('opens the sidebar for a row and keeps the customer in the address', async () => {
    const user = renderAt('?q=mei');
    await user.click(screen.getByRole('button', { name: 'Details zu Erika Meier' }));
    expect(address()).toBe('?q=mei&id=1');
    expect(screen.getByRole('dialog', { name: 'Kunden Details' })).toBeTruthy();
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
