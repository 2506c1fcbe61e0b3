import '../../testing/jsdom-beside-server.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAccount,
  startGatewayServer,
  type Account,
  type GatewayServer,
} from '../../../tests/helpers/gateway-server.ts';
import { accessTokenFor } from '../../../tests/helpers/supabase.ts';
import type { Database } from '../../domain/database.types.ts';
import type { InboxMessage } from '../api/support.ts';
import { SupabaseContext } from '../api/supabase-context.ts';
import { SupportInbox } from './support-inbox.tsx';

// The admins' inbox with the real hooks of src/desk/api/support.ts and the real supabase-js
// against the test server: the database's trigger stamps who read or settled a message, and
// row-level security decides what an update reaches.

let server: GatewayServer;
let admin: Account;
/** The admin's client, one per file as one per browser tab. */
let signedIn: SupabaseClient<Database>;

beforeAll(async () => {
  server = await startGatewayServer('pglite', undefined, {
    name: 'support-inbox',
    accounts: false,
  });
  admin = await createAccount(server.db, 'chefin@example.de', 'admin');
  signedIn = server.client(admin.accessToken) as SupabaseClient<Database>;
});
afterAll(() => server?.close());

beforeEach(() => server.db.query('truncate public.support_messages restart identity'));

type Message = Pick<InboxMessage, 'read_at' | 'done_at'>;

/** Messages as the support form stored them (without a sender account), numbered from 1. */
async function store(...messages: Partial<Message>[]) {
  for (const [index, state] of messages.entries()) {
    const id = index + 1;
    await server.db.query(
      `insert into public.support_messages (name, email, message, created_at, read_at, done_at)
       values ($1, $2, $3, $4, $5, $6)`,
      [
        `Absender ${id}`,
        `absender${id}@example.de`,
        `Frage Nummer ${id}`,
        `2026-11-2${id}T09:0${id}:00Z`,
        state.read_at ?? null,
        state.done_at ?? null,
      ],
    );
  }
}

/** What the database holds of message `id`: the stamps and who set them. */
async function stored(id: number) {
  const { rows } = await server.db.query<{
    read: boolean;
    read_by: string | null;
    done: boolean;
    done_by: string | null;
  }>(
    `select read_at is not null as read, read_by::text, done_at is not null as done,
            done_by::text
       from public.support_messages where id = $1`,
    [id],
  );
  return rows[0];
}

function renderInbox(client: SupabaseClient<Database> = signedIn, path = '/surveydesk/support') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/surveydesk/support', element: <SupportInbox /> }], {
    initialEntries: [path],
  });
  render(
    <SupabaseContext.Provider value={client}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </SupabaseContext.Provider>,
  );
  return router;
}

const list = (name = 'Offene Support-Nachrichten') => screen.findByRole('list', { name });
const senders = async (name?: string) =>
  within(await list(name))
    .getAllByRole('heading')
    .map((heading) => heading.textContent);
const item = (sender: string) => screen.getByRole('article', { name: new RegExp(sender) });

afterEach(cleanup);

describe('SupportInbox', () => {
  it('lists open messages unread first, each with sender, Berlin time and text', async () => {
    await store(
      {},
      { read_at: '2026-11-22T10:00:00Z' },
      {},
      { read_at: '2026-11-24T10:00:00Z', done_at: '2026-11-24T10:00:00Z' },
    );
    renderInbox();
    expect(await senders()).toEqual(['Absender 3', 'Absender 1', 'Absender 2']);
    expect(await screen.findByText('2 ungelesen')).toBeTruthy();

    const first = item('Absender 3');
    expect(within(first).getByText('Ungelesen')).toBeTruthy();
    // 09:03 UTC in November is 10:03 in Berlin.
    expect(within(first).getByText('23.11.2026, 10:03')).toBeTruthy();
    expect(within(first).getByText('Frage Nummer 3')).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'absender3@example.de' })).toHaveProperty(
      'href',
      'mailto:absender3@example.de',
    );
    expect(within(item('Absender 2')).getByText('Gelesen')).toBeTruthy();
  });

  it('marks a message read and unread by keyboard, keeping the focus on its button', async () => {
    await store({}, {});
    renderInbox();
    const user = userEvent.setup();
    await list();
    expect(await screen.findByText('2 ungelesen')).toBeTruthy();

    within(item('Absender 1')).getByRole('button', { name: 'Als gelesen markieren' }).focus();
    await user.keyboard('{Enter}');

    const unmark = await within(item('Absender 1')).findByRole('button', {
      name: 'Als ungelesen markieren',
    });
    await waitFor(() => expect(document.activeElement).toBe(unmark));
    expect(await stored(1)).toMatchObject({ read: true, read_by: admin.id });
    expect(await screen.findByText('1 ungelesen')).toBeTruthy();
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(
      'Als gelesen markiert: Nachricht von Absender 1.',
    );
    // Unread first: the read one moved below.
    expect(await senders()).toEqual(['Absender 2', 'Absender 1']);

    await user.keyboard('{Enter}');
    await within(item('Absender 1')).findByRole('button', { name: 'Als gelesen markieren' });
    expect(await stored(1)).toMatchObject({ read: false, read_by: null });
    expect(await screen.findByText('2 ungelesen')).toBeTruthy();
  });

  it('settles a message as done, can take it back, and shows settled ones under Erledigt', async () => {
    await store({}, {});
    const router = renderInbox();
    const user = userEvent.setup();
    await list();

    await user.click(within(item('Absender 2')).getByRole('button', { name: 'Erledigt' }));
    await waitFor(async () => expect(await senders()).toEqual(['Absender 1']));
    const undo = screen.getByRole('button', { name: 'Rückgängig' });
    await waitFor(() => expect(document.activeElement).toBe(undo));
    // Done implies read (the database's trigger): the bell and the heading count one unread less.
    expect(await stored(2)).toEqual({
      read: true,
      read_by: admin.id,
      done: true,
      done_by: admin.id,
    });
    expect(await screen.findByText('1 ungelesen')).toBeTruthy();

    // Back among the open ones, still read: undoing "done" does not undo reading it.
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await senders()).toEqual(['Absender 1', 'Absender 2']));
    expect(within(item('Absender 2')).getByText('Gelesen')).toBeTruthy();
    expect(await stored(2)).toMatchObject({ read: true, done: false, done_by: null });
    expect(screen.queryByRole('button', { name: 'Rückgängig' })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(item('Absender 2')).getByRole('button', { name: 'Erledigt' }),
      ),
    );

    await user.click(within(item('Absender 1')).getByRole('button', { name: 'Erledigt' }));
    await waitFor(async () => expect(await senders()).toEqual(['Absender 2']));
    const filters = screen.getByRole('group', { name: 'Nachrichten anzeigen' });
    await user.click(within(filters).getByRole('button', { name: 'Erledigt' }));
    expect(router.state.location.search).toBe('?nachrichten=erledigt');
    expect(await senders('Erledigte Support-Nachrichten')).toEqual(['Absender 1']);
    const settled = item('Absender 1');
    expect(within(settled).getByText(/erledigt am/)).toBeTruthy();
    expect(within(settled).queryByRole('button', { name: /gelesen markieren/ })).toBeNull();

    await user.click(within(settled).getByRole('button', { name: 'Wieder öffnen' }));
    expect(await screen.findByText('Keine erledigten Nachrichten')).toBeTruthy();
    expect(await stored(1)).toMatchObject({ done: false });
  });

  it('says when there are no messages, while they load, and when they cannot be read', async () => {
    renderInbox();
    expect(screen.getByText('Nachrichten werden geladen …').getAttribute('role')).toBe('status');
    expect(await screen.findByText('Keine Nachrichten')).toBeTruthy();
    cleanup();

    // A session the server no longer accepts (signed with another secret): every read is refused.
    await store({});
    renderInbox(
      server.client(
        await accessTokenFor('ein-anderes-geheimnis-mit-genug-zeichen', admin.id, admin.email),
      ) as SupabaseClient<Database>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Die Support-Nachrichten konnten nicht geladen werden.');
    expect(within(alert).getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
  });

  it('says so when a change reaches no message', async () => {
    await store({});
    renderInbox();
    await list();
    // Gone meanwhile: the update matches nothing, as row-level security answers a refusal.
    await server.db.query('delete from public.support_messages where id = 1');
    await userEvent
      .setup()
      .click(within(item('Absender 1')).getByRole('button', { name: 'Als gelesen markieren' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Die Nachricht konnte nicht geändert werden. Bitte lade die Seite neu und versuche es erneut.',
    );
  });
});
