import '../../testing/jsdom-beside-server.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createAccount,
  startGatewayServer,
  type Account,
  type GatewayServer,
} from '../../../tests/helpers/gateway-server.ts';
import { supabaseClientWithKey } from '../../../tests/helpers/supabase.ts';
import { hashPassword } from '../../../server/gateway/auth/passwords.ts';
import type { Database } from '../../domain/database.types.ts';
import { questionnaireLead } from '../../testing/lead-fixtures.ts';
import type { Customer } from '../api/customers.ts';
import { SupabaseContext } from '../api/supabase-context.ts';
import { CustomerPrivacyActions } from './customer-privacy-actions.tsx';

// The sidebar's data-protection actions with the real hooks and the real supabase-js against the
// test server: what customer_data_export, customer_erasure_preview and erase_customer answer for
// a customer made by a real lead, the export right and the role from the database. Only the
// browser's download is a stand-in.

const fake = vi.hoisted(() => ({ saved: [] as { blob: Blob; name: string }[] }));
vi.mock('../api/uploads.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/uploads.ts')>()),
  saveBlob: (blob: Blob, name: string) => fake.saved.push({ blob, name }),
}));

let server: GatewayServer;
let accounts: Record<'staff' | 'admin', Account>;
let clients: Record<'staff' | 'admin', SupabaseClient<Database>>;
/** The customer of this test's lead, as the sidebar has it. */
let customer: Customer;
/** Cut while set: the client's requests fail as on a lost connection. */
const network = { down: false };

beforeAll(async () => {
  server = await startGatewayServer('pglite', undefined, { name: 'privacy', accounts: false });
  accounts = {
    staff: await createAccount(server.db, 'team@example.de', 'staff'),
    admin: await createAccount(server.db, 'chefin@example.de', 'admin'),
  };
  // Signed in as the desk signs in (the session tells the screen who is at the desk).
  const signedIn = async (account: Account) => {
    const password = 'geheimes-passwort-1';
    await server.db.query('update auth.users set encrypted_password = $2 where id = $1', [
      account.id,
      await hashPassword(password),
    ]);
    const client = supabaseClientWithKey(server.url, server.anonKey, undefined, {
      fetch: (input, init) =>
        network.down ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init),
    });
    const { error } = await client.auth.signInWithPassword({ email: account.email, password });
    expect(error).toBeNull();
    return client;
  };
  clients = { staff: await signedIn(accounts.staff), admin: await signedIn(accounts.admin) };
});
afterAll(() => server?.close());

/** A lead of Jürgen Meier with its status changed with a note, and a note of the office. */
beforeEach(async () => {
  fake.saved = [];
  network.down = false;
  await server.db.query('update public.desk_settings set staff_can_export = true');
  const lead = questionnaireLead({ first_name: 'Jürgen', last_name: 'Meier' });
  const sent = await server.app.inject({ method: 'POST', url: '/api/responses', payload: lead });
  expect(sent.statusCode).toBe(201);
  const { rows } = await server.db.query<{ id: number; user_id: number }>(
    'select id, user_id from public.responses where client_id = $1',
    [lead.client_id],
  );
  const { id: responseId, user_id: customerId } = rows[0]!;
  const changed = await clients.staff.rpc('set_lead_status', {
    response_id: responseId,
    status: 'contacted',
    note: 'Ruft <i>morgen</i> zurück',
  });
  expect(changed.error).toBeNull();
  await server.db.query(
    `insert into public.customer_notes (customer_id, body, author) values ($1, 'Hat zwei Kinder', $2)`,
    [customerId, accounts.staff.id],
  );
  const stored = await server.db.query<Customer>(
    `select id, first_name, last_name, email, phone, adress, postcode, city,
            created_at::text, updated_at::text
       from public.users where id = $1`,
    [customerId],
  );
  customer = stored.rows[0]!;
});
afterEach(cleanup);

function setup(as: 'staff' | 'admin' = 'staff') {
  const onErased = vi.fn();
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <SupabaseContext.Provider value={clients[as]}>
      <QueryClientProvider client={client}>
        <CustomerPrivacyActions customer={customer} onErased={onErased} />
      </QueryClientProvider>
    </SupabaseContext.Provider>,
  );
  /** Resolves once every read the screen started has its answer (the role among them). */
  const settled = () => waitFor(() => expect(client.isFetching()).toBe(0));
  return { user: userEvent.setup(), onErased, settled };
}

const customerLeft = async () =>
  (await server.db.query('select 1 from public.users where id = $1', [customer.id])).rows.length;

// jsdom's Blob has no text(); FileReader reads it.
function text(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

describe('CustomerPrivacyActions', () => {
  it('downloads the export as JSON that reads back complete', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'JSON-Datei herunterladen' }));
    expect(await screen.findByText('Die JSON-Datei wurde heruntergeladen.')).toBeTruthy();
    expect(fake.saved).toHaveLength(1);
    expect(fake.saved[0]!.name).toMatch(
      new RegExp(`^kundendaten-${customer.id}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
    );
    const exported = JSON.parse(await text(fake.saved[0]!.blob));
    expect(exported.customer).toMatchObject({
      id: customer.id,
      first_name: 'Jürgen',
      last_name: 'Meier',
      email: customer.email,
    });
    expect(exported.leads).toHaveLength(1);
    expect(exported.leads[0].answers).toHaveLength(3);
    expect(exported.leads[0].status_history).toMatchObject([
      { status: 'contacted', note: 'Ruft <i>morgen</i> zurück' },
    ]);
    expect(exported.notes).toMatchObject([{ note: 'Hat zwei Kinder' }]);
  });

  it('downloads a German, dated document with every answer, escaped', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Dokument herunterladen' }));
    expect(await screen.findByText('Das Dokument wurde heruntergeladen.')).toBeTruthy();
    const html = await text(fake.saved[0]!.blob);
    expect(fake.saved[0]!.name).toMatch(/\.html$/);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Gespeicherte Daten zu Jürgen Meier');
    expect(html).toMatch(/Stand: \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} Uhr \(Berlin\)/);
    expect(html).toContain('Wie viele Kinder möchten Sie absichern?');
    expect(html).toContain('<dt>Weitere Angebote erwünscht (freiwillig)</dt><dd>Ja</dd>');
    // The office's work about the person: status history (escaped) and notes.
    expect(html).toContain('<td>Kontaktiert</td><td>Ruft &lt;i&gt;morgen&lt;/i&gt; zurück</td>');
    expect(html).toContain('<h2>Notizen der Agentur</h2>');
    expect(html).toContain('<dd>Hat zwei Kinder</dd>');
  });

  it('says when the export failed and saves nothing', async () => {
    const { user } = setup();
    const button = await screen.findByRole('button', { name: 'JSON-Datei herunterladen' });
    network.down = true;
    await user.click(button);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Export konnte nicht erstellt werden/,
    );
    expect(fake.saved).toEqual([]);
  });

  it('offers no export without the export right, and says who may', async () => {
    await server.db.query('update public.desk_settings set staff_can_export = false');
    setup();
    expect(await screen.findByText(/Exportieren dürfen Admins und Mitarbeitende/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'JSON-Datei herunterladen' })).toBeNull();
  });

  it('offers staff no erasure and no access log', async () => {
    const { settled } = setup();
    await screen.findByRole('button', { name: 'JSON-Datei herunterladen' });
    await settled();
    expect(screen.queryByRole('button', { name: 'Kunde löschen' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Zugriffsprotokoll anzeigen' })).toBeNull();
  });

  it('lets an admin erase after a confirmation that names what goes and what is kept', async () => {
    const { user, onErased } = setup('admin');
    await user.click(await screen.findByRole('button', { name: 'Kunde löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kunde löschen?' });
    expect(await within(dialog).findByText(/1 Anfrage mit 3 Antworten/)).toBeTruthy();
    expect(dialog.textContent).toMatch(/1 Einwilligungsnachweis \(§ 7a UWG\)/);
    expect(dialog.textContent).toMatch(
      /1 Notiz, 0 Wiedervorlagen und 1 Statusänderung der Agentur/,
    );
    expect(dialog.textContent).toMatch(/Nachweis der Löschung/);
    expect(await customerLeft()).toBe(1);
    await user.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    await waitFor(() => expect(onErased).toHaveBeenCalledTimes(1));
    expect(await customerLeft()).toBe(0);
  });

  it('keeps the customer and says so when the erasure fails', async () => {
    const { user, onErased } = setup('admin');
    await user.click(await screen.findByRole('button', { name: 'Kunde löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kunde löschen?' });
    await within(dialog).findByText(/1 Anfrage/);
    network.down = true;
    await user.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(
      /konnte nicht gelöscht werden/,
    );
    expect(onErased).not.toHaveBeenCalled();
    expect(await customerLeft()).toBe(1);
  });

  it('shows an admin the customer’s access log in German', async () => {
    await server.db.query(
      `insert into public.access_log (user_id, staff_email, action, customer_id, detail)
       values ($1, $2, 'customer_changed', $3, '{"columns": ["city"]}')`,
      [accounts.staff.id, accounts.staff.email, customer.id],
    );
    const { user } = setup('admin');
    await user.click(await screen.findByRole('button', { name: 'Zugriffsprotokoll anzeigen' }));
    const table = await screen.findByRole('table', {
      name: 'Zugriffe auf die Daten dieses Kunden',
    });
    expect(table.textContent).toContain('team@example.de');
    expect(table.textContent).toContain('Kundendaten geändert');
    expect(table.textContent).toContain('Felder: city');
  });
});
