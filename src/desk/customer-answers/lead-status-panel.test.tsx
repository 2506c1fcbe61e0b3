import '../../testing/jsdom-beside-server.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../../../tests/helpers/gateway-server.ts';
import { supabaseClientWithKey } from '../../../tests/helpers/supabase.ts';
import type { Database } from '../../domain/database.types.ts';
import { contactLead } from '../../testing/lead-fixtures.ts';
import { useCustomerResponses } from '../api/customers.ts';
import { SupabaseContext } from '../api/supabase-context.ts';
import { LeadStatusControl } from './lead-status-panel.tsx';

// The status control with the real mutation (React Query, optimistic update, invalidation) and
// the real supabase-js against the test server: what set_lead_status stores, what the control
// shows while saving, after saving and when the database refuses.

// jsdom has no ResizeObserver; Headless UI's menu watches its button with one.
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    unobserve() {}
    disconnect() {}
  },
);

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
  await screen.findByText(/^Status:/);
  return userEvent.setup();
}

const statusLine = () => screen.getByText(/^Status:/).textContent;

describe('LeadStatusControl', () => {
  it('saves the chosen status with the note in one choice and shows it at once', async () => {
    const user = await setup();
    expect(statusLine()).toBe('Status: Neu');
    await user.type(
      screen.getByLabelText('Notiz zur Statusänderung (optional)'),
      'Termin am Freitag, 10 Uhr',
    );
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    let release!: () => void;
    network.held = new Promise((resolve) => (release = resolve));
    await user.click(screen.getByRole('menuitem', { name: 'Termin vereinbart' }));
    // Shown before the database answers; the button says it is saving meanwhile.
    expect(statusLine()).toBe('Status: Termin vereinbart');
    const saving = screen.getByRole('button', { name: 'Status wird gespeichert …' });
    expect((saving as HTMLButtonElement).disabled).toBe(true);
    release();
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Status auf „Termin vereinbart“ gesetzt.',
      ),
    );
    expect(
      (screen.getByLabelText('Notiz zur Statusänderung (optional)') as HTMLTextAreaElement).value,
    ).toBe('');
    expect(statusLine()).toBe('Status: Termin vereinbart');
    expect(await stored()).toEqual({
      status: 'appointment',
      changes: [{ status: 'appointment', note: 'Termin am Freitag, 10 Uhr' }],
    });
  });

  it('offers the current status only with a note, which it then keeps on the lead', async () => {
    const user = await setup();
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    const current = screen.getByRole('menuitem', { name: 'Neu (aktuell)' });
    expect(current.getAttribute('aria-disabled')).toBe('true');
    await user.click(current);
    await user.keyboard('{Escape}');
    await user.type(screen.getByLabelText('Notiz zur Statusänderung (optional)'), 'Mailbox');
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await user.click(screen.getByRole('menuitem', { name: 'Neu (aktuell) – nur Notiz speichern' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Notiz gespeichert.'));
    // Only the note: the disabled choice before it stored nothing.
    expect(await stored()).toEqual({
      status: 'new',
      changes: [{ status: 'new', note: 'Mailbox' }],
    });
  });

  it('is worked by keyboard alone', async () => {
    const user = await setup();
    screen.getByRole('button', { name: 'Status ändern' }).focus();
    await user.keyboard('{Enter}');
    // Opened, the first status that can be chosen is active (the current one, disabled without
    // a note, is skipped); the arrow moves on to the next.
    expect(screen.getByRole('menuitem', { name: 'Kontaktiert' }).hasAttribute('data-focus')).toBe(
      true,
    );
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(statusLine()).toBe('Status: Termin vereinbart'));
    await waitFor(async () => expect((await stored()).status).toBe('appointment'));
  });

  it('puts the status back and names the problem when saving fails', async () => {
    const user = await setup();
    network.down = true;
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await user.click(screen.getByRole('menuitem', { name: 'Abgeschlossen' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Der Status konnte nicht gespeichert werden. Bitte versuche es erneut.',
    );
    await waitFor(() => expect(statusLine()).toBe('Status: Neu'));
    expect((await stored()).status).toBe('new');
    const button = screen.getByRole('button', { name: 'Status ändern' });
    expect(button.getAttribute('aria-describedby')).toContain(
      screen.getByRole('alert').getAttribute('id'),
    );
  });

  it('ties a refused note to the note field', async () => {
    const user = await setup();
    const field = screen.getByLabelText('Notiz zur Statusänderung (optional)');
    await user.click(field);
    await user.paste('x'.repeat(1001));
    await user.click(screen.getByRole('button', { name: 'Status ändern' }));
    await user.click(screen.getByRole('menuitem', { name: 'Kontaktiert' }));
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
    await user.click(screen.getByRole('menuitem', { name: 'Kontaktiert' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Die Notiz darf höchstens 1000 Zeichen lang sein.',
    );
    expect(await stored()).toEqual({ status: 'new', changes: [] });
  });
});
