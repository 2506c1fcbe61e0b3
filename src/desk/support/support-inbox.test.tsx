// @vitest-environment jsdom
import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxMessage } from '../api/support.ts';
import { SupabaseContext } from '../api/supabase-context.ts';
import { SupportInbox } from './support-inbox.tsx';

// The admins' inbox with the real hooks of src/desk/api/support.ts against a stand-in for
// supabase-js that keeps support_messages in memory and, like the database's trigger, stamps
// read_at when done_at is set.

type Row = InboxMessage & Record<string, unknown>;
type Answer = { data: unknown; count?: number | null; error: unknown };

function fakeSupabase(rows: Row[], options: { failReads?: boolean } = {}) {
  const updates: Record<string, unknown>[] = [];
  const from = (table: string) => {
    expect(table).toBe('support_messages');
    const filters: ((row: Row) => boolean)[] = [];
    const order: [string, boolean][] = [];
    let head = false;
    let values: Record<string, unknown> | null = null;
    const answer = (): Answer => {
      const matched = rows.filter((row) => filters.every((keep) => keep(row)));
      if (values) {
        updates.push(values);
        for (const row of matched) {
          Object.assign(row, values);
          if (row.done_at !== null && row.read_at === null) row.read_at = row.done_at;
        }
        return { data: matched.map((row) => ({ id: row.id })), error: null };
      }
      if (options.failReads) return { data: null, count: null, error: { code: 'PGRST000' } };
      const sorted = [...matched].sort((a, b) => {
        for (const [column, ascending] of order) {
          const left = String(a[column]);
          const right = String(b[column]);
          if (left !== right) return (left < right ? -1 : 1) * (ascending ? 1 : -1);
        }
        return 0;
      });
      return {
        data: head ? null : sorted.map((row) => ({ ...row })),
        count: matched.length,
        error: null,
      };
    };
    const builder = {
      select: (_columns: string, selectOptions?: { head?: boolean }) => {
        head = selectOptions?.head ?? false;
        return builder;
      },
      is: (column: string, value: null) => {
        filters.push((row) => row[column] === value);
        return builder;
      },
      not: (column: string, _operator: 'is', value: null) => {
        filters.push((row) => row[column] !== value);
        return builder;
      },
      eq: (column: string, value: unknown) => {
        filters.push((row) => row[column] === value);
        return builder;
      },
      order: (column: string, orderOptions: { ascending: boolean }) => {
        order.push([column, orderOptions.ascending]);
        return builder;
      },
      limit: () => builder,
      update: (changes: Record<string, unknown>) => {
        values = changes;
        return builder;
      },
      then: (resolve: (value: Answer) => unknown) => Promise.resolve(answer()).then(resolve),
    };
    return builder;
  };
  return { client: { from } as unknown as SupabaseClient, updates };
}

const message = (id: number, overrides: Partial<Row> = {}): Row => ({
  id,
  name: `Absender ${id}`,
  email: `absender${id}@example.de`,
  message: `Frage Nummer ${id}`,
  created_at: `2026-11-2${id}T09:0${id}:00Z`,
  read_at: null,
  done_at: null,
  ...overrides,
});

function renderInbox(client: SupabaseClient, path = '/surveydesk/support') {
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
    const { client } = fakeSupabase([
      message(1),
      message(2, { read_at: '2026-11-22T10:00:00Z' }),
      message(3),
      message(4, { read_at: '2026-11-24T10:00:00Z', done_at: '2026-11-24T10:00:00Z' }),
    ]);
    renderInbox(client);
    expect(await senders()).toEqual(['Absender 3', 'Absender 1', 'Absender 2']);
    expect(screen.getByText('2 ungelesen')).toBeTruthy();

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
    const { client, updates } = fakeSupabase([message(1), message(2)]);
    renderInbox(client);
    const user = userEvent.setup();
    await list();
    expect(screen.getByText('2 ungelesen')).toBeTruthy();

    within(item('Absender 1')).getByRole('button', { name: 'Als gelesen markieren' }).focus();
    await user.keyboard('{Enter}');

    const unmark = await within(item('Absender 1')).findByRole('button', {
      name: 'Als ungelesen markieren',
    });
    await waitFor(() => expect(document.activeElement).toBe(unmark));
    expect(updates).toEqual([{ read_at: expect.any(String) }]);
    expect(screen.getByText('1 ungelesen')).toBeTruthy();
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(
      'Als gelesen markiert: Nachricht von Absender 1.',
    );
    // Unread first: the read one moved below.
    expect(await senders()).toEqual(['Absender 2', 'Absender 1']);

    await user.keyboard('{Enter}');
    await within(item('Absender 1')).findByRole('button', { name: 'Als gelesen markieren' });
    expect(updates[1]).toEqual({ read_at: null });
    expect(screen.getByText('2 ungelesen')).toBeTruthy();
  });

  it('settles a message as done, can take it back, and shows settled ones under Erledigt', async () => {
    const { client, updates } = fakeSupabase([message(1), message(2)]);
    const router = renderInbox(client);
    const user = userEvent.setup();
    await list();

    await user.click(within(item('Absender 2')).getByRole('button', { name: 'Erledigt' }));
    await waitFor(async () => expect(await senders()).toEqual(['Absender 1']));
    const undo = screen.getByRole('button', { name: 'Rückgängig' });
    await waitFor(() => expect(document.activeElement).toBe(undo));
    expect(updates).toEqual([{ done_at: expect.any(String) }]);
    // Done implies read: the bell and the heading count one unread less.
    expect(screen.getByText('1 ungelesen')).toBeTruthy();

    // Back among the open ones, still read: undoing "done" does not undo reading it.
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await senders()).toEqual(['Absender 1', 'Absender 2']));
    expect(within(item('Absender 2')).getByText('Gelesen')).toBeTruthy();
    expect(updates[1]).toEqual({ done_at: null });
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
    expect(updates.at(-1)).toEqual({ done_at: null });
  });

  it('says when there are no messages, while they load, and when they cannot be read', async () => {
    renderInbox(fakeSupabase([]).client);
    expect(screen.getByText('Nachrichten werden geladen …').getAttribute('role')).toBe('status');
    expect(await screen.findByText('Keine Nachrichten')).toBeTruthy();
    cleanup();

    renderInbox(fakeSupabase([message(1)], { failReads: true }).client);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Die Support-Nachrichten konnten nicht geladen werden.');
    expect(within(alert).getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
  });

  it('says so when a change reaches no message', async () => {
    const rows = [message(1)];
    const { client } = fakeSupabase(rows);
    renderInbox(client);
    await list();
    // Gone meanwhile: the update matches nothing, as row-level security answers a refusal.
    rows.splice(0, 1);
    await userEvent
      .setup()
      .click(within(item('Absender 1')).getByRole('button', { name: 'Als gelesen markieren' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Die Nachricht konnte nicht geändert werden. Bitte lade die Seite neu und versuche es erneut.',
    );
  });
});
