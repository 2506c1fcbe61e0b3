import '../../testing/jsdom-beside-server.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFinished,
} from 'vitest';
import {
  createAccount,
  startGatewayServer,
  type Account,
  type GatewayServer,
} from '../../../tests/helpers/gateway-server.ts';
import type { Database } from '../../domain/database.types.ts';
import { SupabaseContext } from '../api/supabase-context.ts';
import { AccessLogList } from './access-log-list.tsx';

// The access log as the staff page shows one account's entries, read by an admin through the
// real supabase-js from the test server's access_log; the schema, labels and times are the real
// ones.

let server: GatewayServer;
let admin: Account;
let staff: Account;
let other: Account;
/** The admin's client, one per file as one per browser tab. */
let signedIn: SupabaseClient<Database>;

beforeAll(async () => {
  server = await startGatewayServer('pglite', undefined, { name: 'access-log', accounts: false });
  admin = await createAccount(server.db, 'chefin@example.de', 'admin');
  staff = await createAccount(server.db, 'team@example.de', 'staff');
  other = await createAccount(server.db, 'andere@example.de', 'staff');
  signedIn = server.client(admin.accessToken) as SupabaseClient<Database>;
});
afterAll(() => server?.close());

beforeEach(() => server.db.query('truncate public.access_log'));
afterEach(cleanup);

interface Entry {
  at: string;
  action: string;
  customer_id: number | null;
  detail: object;
}

/** Entries in the log as the database functions write them, all by `account`. */
async function logged(account: Account, ...entries: Entry[]) {
  for (const entry of entries) {
    await server.db.query(
      `insert into public.access_log (at, user_id, staff_email, action, customer_id, detail)
       values ($1, $2, $3, $4, $5, $6)`,
      [
        entry.at,
        account.id,
        account.email,
        entry.action,
        entry.customer_id,
        JSON.stringify(entry.detail),
      ],
    );
  }
}

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <SupabaseContext.Provider value={signedIn}>
      <QueryClientProvider client={client}>
        <AccessLogList subject={{ userId: staff.id }} caption="Zugriffe durch team@example.de" />
      </QueryClientProvider>
    </SupabaseContext.Provider>,
  );
  return userEvent.setup();
}

describe('AccessLogList', () => {
  it('lists one account’s entries with customer, Berlin time and the action in German', async () => {
    // Another account's entry stays out of this account's list.
    await logged(other, {
      at: '2026-11-25T12:02:00Z',
      action: 'customer_viewed',
      customer_id: 8,
      detail: {},
    });
    await logged(
      staff,
      {
        at: '2026-11-25T12:01:00Z',
        action: 'lead_status_changed',
        customer_id: 7,
        detail: { response_id: 12, status: 'contacted' },
      },
      {
        at: '2026-11-25T12:00:00Z',
        action: 'customer_erased',
        customer_id: 7,
        detail: { leads: 2 },
      },
      {
        at: '2026-11-25T11:59:00Z',
        action: 'customer_searched',
        customer_id: null,
        detail: { term_redacted: true },
      },
      {
        at: '2026-11-25T11:58:00Z',
        action: 'customer_searched',
        customer_id: null,
        detail: { term: 'köln' },
      },
    );
    setup();
    const table = await screen.findByRole('table', { name: 'Zugriffe durch team@example.de' });
    const rows = table.querySelectorAll('tbody tr');
    expect([...rows].map((row) => row.textContent)).toEqual([
      '25.11.2026, 13:01Nr. 7Lead-Status geändertLead Nr. 12: Kontaktiert',
      '25.11.2026, 13:00Nr. 7Kunde gelöscht',
      '25.11.2026, 12:59–Kunden gesuchtSuchbegriff entfernt (Person gelöscht)',
      '25.11.2026, 12:58–Kunden gesuchtSuchbegriff „köln“',
    ]);
  });

  it('names a customer an account created and the merges of one address', async () => {
    await logged(
      staff,
      {
        at: '2026-11-28T10:02:00Z',
        action: 'customer_changed',
        customer_id: 101,
        detail: { merged_into: 100, reason: 'email_normalized' },
      },
      {
        at: '2026-11-28T10:01:00Z',
        action: 'customer_changed',
        customer_id: 100,
        detail: { merged_from: 101, leads: 1, reason: 'email_normalized' },
      },
      {
        at: '2026-11-28T10:00:00Z',
        action: 'customer_changed',
        customer_id: 102,
        detail: { created: true },
      },
    );
    setup();
    const table = await screen.findByRole('table', { name: 'Zugriffe durch team@example.de' });
    const rows = table.querySelectorAll('tbody tr');
    expect([...rows].map((row) => row.textContent)).toEqual([
      '28.11.2026, 11:02Nr. 101Kundendaten geändertGleiche E-Mail-Adresse: zusammengeführt in Nr. 100',
      '28.11.2026, 11:01Nr. 100Kundendaten geändertGleiche E-Mail-Adresse: Nr. 101 übernommen',
      '28.11.2026, 11:00Nr. 102Kundendaten geändertDatensatz angelegt',
    ]);
  });

  it('says when there is nothing to show', async () => {
    setup();
    expect(await screen.findByText('Keine Einträge im Zugriffsprotokoll.')).toBeTruthy();
  });

  it('offers to try again when the log could not be read', async () => {
    // The database refuses the read (as it would a role without the right to it).
    await server.db.query('revoke select on public.access_log from authenticated');
    onTestFinished(async () => {
      await server.db.query('grant select on public.access_log to authenticated');
    });
    const user = setup();
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Zugriffsprotokoll konnte nicht geladen werden/,
    );
    await server.db.query('grant select on public.access_log to authenticated');
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Keine Einträge im Zugriffsprotokoll.')).toBeTruthy();
  });
});
