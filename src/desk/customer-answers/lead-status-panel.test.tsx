import '../../testing/jsdom-beside-server.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../../../tests/helpers/gateway-server.ts';
import { supabaseClientWithKey } from '../../../tests/helpers/supabase.ts';
import type { Database } from '../../domain/database.types.ts';
import { leadStatuses } from '../../domain/lead-status.ts';
import { contactLead } from '../../testing/lead-fixtures.ts';
import { useCustomerResponses } from '../api/customers.ts';
import { SupabaseContext } from '../api/supabase-context.ts';
import { LeadStatusControl } from './lead-status-panel.tsx';

// The status control (a radio group, a note and one button) with the real mutation (React Query, optimistic update, invalidation) and
// the real supabase-js against the test server: what set_lead_status stores, what the control
// shows while saving, after saving and when the database refuses.

// jsdom has no CSS.escape, which user-event's arrow keys in a radio group use to find the group.
vi.stubGlobal('CSS', {
  escape: (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, (char) => `\\${char}`),
});

let server: GatewayServer;
let leadId = 0;
let customerId = 0;
/** A member of staff's client, whose network can hold its requests or be cut. */
let signedIn: SupabaseClient<Database>;
const network = {
  down: false,
  /** While set, requests wait until it resolves (a slow line). */
  held: null as Promise<void> | null,
};

beforeAll(async () => {
  server = await startGatewayServer('pglite', undefined, { name: 'lead-status', accounts: false });
  const staff = await createAccount(server.db, 'team@example.de', 'staff');
  signedIn = supabaseClientWithKey(server.url, server.anonKey, staff.accessToken, {
    fetch: async (input, init) => {
      if (network.down) throw new TypeError('fetch failed');
      await network.held;
      return fetch(input, init);
    },
  });
  const lead = contactLead();
  const sent = await server.app.inject({ method: 'POST', url: '/api/responses', payload: lead });
  expect(sent.statusCode).toBe(201);
  const { rows } = await server.db.query<{ id: number; user_id: number }>(
    'select id, user_id from public.responses where client_id = $1',
    [lead.client_id],
  );
  leadId = rows[0]!.id;
  customerId = rows[0]!.user_id;
});
afterAll(() => server?.close());

beforeEach(async () => {
  network.down = false;
  network.held = null;
  await server.db.query('delete from public.lead_status_changes where response_id = $1', [leadId]);
  await server.db.query(`update public.responses set status = 'new' where id = $1`, [leadId]);
});
afterEach(cleanup);

/** The lead as the database holds it: its status and the notes of its changes. */
async function stored() {
  const status = await server.db.query<{ status: string }>(
    'select status from public.responses where id = $1',
    [leadId],
  );
  const changes = await server.db.query<{ status: string; note: string | null }>(
    'select status, note from public.lead_status_changes where response_id = $1 order by id',
    [leadId],
  );
  return { status: status.rows[0]!.status, changes: changes.rows };
}

/** The customer's leads as the answers page reads them, with the control for the one lead. */
function Harness() {
  const leads = useCustomerResponses(customerId);
  const lead = leads.data?.find((response) => response.id === leadId);
  if (!lead) return null;
  return <LeadStatusControl customerId={customerId} response={lead} />;
}

async function setup() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <SupabaseContext.Provider value={signedIn}>
      <QueryClientProvider client={client}>
        <Harness />
      </QueryClientProvider>
    </SupabaseContext.Provider>,
  );
  await screen.findByText(/^Aktueller Status:/);
  return userEvent.setup();
}

const statusLine = () => screen.getByText(/^Aktueller Status:/).textContent;
const noteField = () => screen.getByLabelText('Notiz zur Statusänderung (optional)');
const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });

describe('LeadStatusControl', () => {
  it('offers every status as one group, the current one checked and marked', async () => {
    await setup();
    const group = screen.getByRole('group', { name: 'Neuer Status' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((item) => item.getAttribute('value')),
    ).toEqual([...leadStatuses]);
    expect(radio('Neu (aktuell)').checked).toBe(true);
    // No 'nur Notiz speichern' choice: one button saves.
    expect(screen.queryByText(/nur Notiz speichern/)).toBeNull();
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Status ändern',
    ]);
  });

  it('saves the chosen status with the note in one step and shows it at once', async () => {
    const user = await setup();
    expect(statusLine()).toBe('Aktueller Status: Neu');
    await user.click(radio('Termin vereinbart'));
    await user.type(noteField(), 'Termin am Freitag, 10 Uhr');
    let release!: () => void;
    network.held = new Promise((resolve) => (release = resolve));
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    // Shown before the database answers; the button says it is saving meanwhile.
    expect(statusLine()).toBe('Aktueller Status: Termin vereinbart');
    const saving = screen.getByRole('button', { name: 'Status wird gespeichert …' });
    expect((saving as HTMLButtonElement).disabled).toBe(true);
    release();
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Status auf „Termin vereinbart“ gesetzt.',
      ),
    );
    expect((noteField() as HTMLTextAreaElement).value).toBe('');
    expect(statusLine()).toBe('Aktueller Status: Termin vereinbart');
    expect(radio('Termin vereinbart (aktuell)').checked).toBe(true);
    expect(await stored()).toEqual({
      status: 'appointment',
      changes: [{ status: 'appointment', note: 'Termin am Freitag, 10 Uhr' }],
    });
  });

  it('keeps the current status with a note as a note, and asks for a choice without one', async () => {
    const user = await setup();
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    const group = screen.getByRole('group', { name: 'Neuer Status' });
    const message = 'Bitte einen anderen Status wählen oder eine Notiz schreiben.';
    expect(document.getElementById(group.getAttribute('aria-describedby')!)?.textContent).toBe(
      message,
    );
    expect(await stored()).toEqual({ status: 'new', changes: [] });

    await user.type(noteField(), 'Mailbox');
    expect(screen.queryByText(message)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Notiz gespeichert.'));
    expect(await stored()).toEqual({
      status: 'new',
      changes: [{ status: 'new', note: 'Mailbox' }],
    });
  });

  it('is worked by keyboard alone', async () => {
    const user = await setup();
    radio('Neu (aktuell)').focus();
    // The arrows move through the group and check as they go; Tab leaves the group for the
    // note, then the button.
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(radio('Termin vereinbart').checked).toBe(true);
    await user.tab();
    expect(document.activeElement).toBe(noteField());
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Status ändern' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(statusLine()).toBe('Aktueller Status: Termin vereinbart'));
    await waitFor(async () => expect((await stored()).status).toBe('appointment'));
  });

  it('puts the status back, keeps the choice and names the problem when saving fails', async () => {
    const user = await setup();
    network.down = true;
    await user.click(radio('Abgeschlossen'));
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Der Status konnte nicht gespeichert werden. Bitte versuche es erneut.',
    );
    await waitFor(() => expect(statusLine()).toBe('Aktueller Status: Neu'));
    expect(radio('Abgeschlossen').checked).toBe(true);
    expect((await stored()).status).toBe('new');
    const button = screen.getByRole('button', { name: 'Status ändern' });
    expect(button.getAttribute('aria-describedby')).toContain(
      screen.getByRole('alert').getAttribute('id'),
    );
  });

  it('ties a refused note to the note field', async () => {
    const user = await setup();
    const field = noteField();
    await user.click(radio('Kontaktiert'));
    await user.click(field);
    await user.paste('x'.repeat(1001));
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(field.getAttribute('aria-describedby')!);
    expect(message?.textContent).toBe('Die Notiz darf höchstens 1000 Zeichen lang sein.');

    expect(await stored()).toEqual({ status: 'new', changes: [] });

    // The database's own refusal lands at the same place: it trims spaces only, so a note of
    // 1000 characters and a line break passes here and is one character too long there.
    await user.clear(field);
    await user.click(field);
    await user.paste(`${'x'.repeat(1000)}\n`);
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Die Notiz darf höchstens 1000 Zeichen lang sein.',
    );
    expect(await stored()).toEqual({ status: 'new', changes: [] });
  });
});
