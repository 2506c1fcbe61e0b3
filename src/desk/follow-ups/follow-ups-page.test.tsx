// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FollowUpPageRequest, ListedFollowUp } from '../api/follow-ups.ts';
import { deskPaths } from '../../domain/routes.ts';
import { FollowUpsPage } from './follow-ups-page.tsx';

// The follow-up list with the data layer's hooks standing in for the database: the filters in the
// address, paging, and the bulk actions with what they send.

type Query = { data?: unknown; isPending: boolean; isError: boolean; refetch: () => void };

const state = vi.hoisted(() => ({
  requests: [] as unknown[],
  page: {} as Query & { isSuccess?: boolean; isPlaceholderData?: boolean },
  completed: [] as number[][],
  assigned: [] as { ids: number[]; assignee: string | null }[],
  completeResult: 0,
  failAssign: false,
}));

vi.mock('../api/follow-ups.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/follow-ups.ts')>()),
  useFollowUpPage: (request: FollowUpPageRequest) => {
    state.requests.push(request);
    return state.page;
  },
  useCompleteFollowUps: () => ({
    mutate: (ids: number[], options?: { onSuccess?: (done: number) => void }) => {
      state.completed.push(ids);
      options?.onSuccess?.(state.completeResult || ids.length);
    },
    isPending: false,
    isError: false,
  }),
  useAssignFollowUps: () => ({
    mutate: (
      assignment: { ids: number[]; assignee: string | null },
      options?: { onSuccess?: (changed: number) => void },
    ) => {
      state.assigned.push(assignment);
      if (!state.failAssign) options?.onSuccess?.(assignment.ids.length);
    },
    isPending: false,
    isError: state.failAssign,
  }),
}));
vi.mock('../api/staff-directory.ts', () => ({
  useStaffDirectory: () => ({
    data: [
      { user_id: 'u-anna', name: 'Anna Admin', role: 'admin' },
      { user_id: 'u-bernd', name: 'bernd@example.de', role: 'staff' },
    ],
  }),
}));

const item = (id: number, overrides: Partial<ListedFollowUp> = {}): ListedFollowUp => ({
  id,
  customer_id: 40 + id,
  customer_name: `Kunde ${id}`,
  response_id: 70 + id,
  due_at: '2026-07-14T08:00:00.000Z',
  body: `Rückruf ${id}`,
  automatic: true,
  assignee: null,
  assignee_name: null,
  overdue: true,
  done_at: null,
  done_by_name: null,
  ...overrides,
});

const loaded = (rows: ListedFollowUp[], total = rows.length) => ({
  data: { rows, total },
  isPending: false,
  isError: false,
  isSuccess: true,
  isPlaceholderData: false,
  refetch: vi.fn(),
});

function renderList(search = '') {
  const router = createMemoryRouter([{ path: deskPaths.followUps, element: <FollowUpsPage /> }], {
    initialEntries: [`${deskPaths.followUps}${search}`],
  });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  state.requests = [];
  state.completed = [];
  state.assigned = [];
  state.completeResult = 0;
  state.failAssign = false;
  state.page = loaded([item(1), item(2, { assignee: 'u-anna', assignee_name: 'Anna Admin' })]);
});
afterEach(cleanup);

describe('FollowUpsPage', () => {
  it('asks for the filters and page of its address, 20 a page', () => {
    state.page = loaded([item(1)], 60);
    renderList('?wer=ohne&wann=ueberfaellig&seite=2');
    expect(state.requests.at(-1)).toEqual({
      assigned: 'unassigned',
      due: 'overdue',
      page: 2,
      size: 20,
    });
    expect((screen.getByLabelText('Zuständig') as HTMLSelectElement).value).toBe('unassigned');
    expect((screen.getByLabelText('Fällig') as HTMLSelectElement).value).toBe('overdue');
  });

  it('writes a changed filter into the address and starts again on page 1', async () => {
    const router = renderList('?seite=3');
    await userEvent.selectOptions(screen.getByLabelText('Fällig'), 'Heute fällig');
    expect(router.state.location.search).toBe('?wann=heute');
    await userEvent.selectOptions(screen.getByLabelText('Zuständig'), 'Nur meine');
    expect(router.state.location.search).toBe('?wer=meine&wann=heute');
    expect(state.requests.at(-1)).toEqual({ assigned: 'mine', due: 'today', page: 1, size: 20 });
  });

  it('shows each row with time, customer linking to the lead, text and assignee', () => {
    renderList();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('14.07.2026, 10:00 Uhr');
    expect(rows[0]!.textContent).toContain('überfällig');
    expect(rows[0]!.textContent).toContain('Rückruf 1');
    expect(rows[0]!.textContent).toContain('niemand (offen für alle)');
    expect(rows[1]!.textContent).toContain('Anna Admin');
    expect(screen.getByRole('link', { name: 'Kunde 1' }).getAttribute('href')).toBe(
      '/surveydesk/customer/41/antworten#anfrage-71',
    );
  });

  it('pages forward and back, with the page and the total named', async () => {
    state.page = loaded(
      Array.from({ length: 20 }, (_, index) => item(index + 1)),
      812,
    );
    const router = renderList();
    expect(
      screen.getByRole('navigation', { name: 'Seiten der Wiedervorlagen' }).textContent,
    ).toContain('Seite 1 von 41 · 812 Wiedervorlagen');
    expect(screen.getByRole('button', { name: 'Vorherige Seite' })).toHaveProperty(
      'disabled',
      true,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Nächste Seite' }));
    expect(router.state.location.search).toBe('?seite=2');
  });

  it('moves back to the last page when the address names one past the end', () => {
    state.page = loaded([], 25);
    const router = renderList('?wann=heute&seite=7');
    expect(router.state.location.search).toBe('?wann=heute&seite=2');
  });

  it('marks the ticked follow-ups done at once and says how many', async () => {
    renderList();
    const done = screen.getByRole('button', { name: 'Erledigt' });
    expect(done).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Auswählen: Rückruf 2 (Kunde 2)' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Auswählen: Rückruf 1 (Kunde 1)' }));
    expect(screen.getByText('2 ausgewählt')).toBeTruthy();
    await userEvent.click(done);
    expect(state.completed).toEqual([[2, 1]]);
    expect(screen.getByRole('status').textContent).toBe('2 Wiedervorlagen erledigt.');
    expect(screen.getByText('Keine ausgewählt')).toBeTruthy();
  });

  it('selects the whole page with one box', async () => {
    renderList();
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Alle auf dieser Seite auswählen' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Erledigt' }));
    expect(state.completed).toEqual([[1, 2]]);
  });

  it('gives the ticked follow-ups to a colleague by name, or to nobody', async () => {
    renderList();
    const select = screen.getByLabelText('Zuweisen an');
    const options = within(select)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual([
      'Bitte wählen',
      'Niemand (offen für alle)',
      'Anna Admin',
      'bernd@example.de',
    ]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Auswählen: Rückruf 1 (Kunde 1)' }));
    // Without a choice the field says what is missing.
    await userEvent.click(screen.getByRole('button', { name: 'Zuweisen' }));
    expect(state.assigned).toEqual([]);
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Bitte wähle, wem die Wiedervorlagen zugewiesen werden.')).toBeTruthy();

    await userEvent.selectOptions(select, 'Anna Admin');
    await userEvent.click(screen.getByRole('button', { name: 'Zuweisen' }));
    expect(state.assigned).toEqual([{ ids: [1], assignee: 'u-anna' }]);
    expect(screen.getByRole('status').textContent).toBe(
      '1 Wiedervorlage an Anna Admin zugewiesen.',
    );

    await userEvent.click(screen.getByRole('checkbox', { name: 'Auswählen: Rückruf 2 (Kunde 2)' }));
    await userEvent.selectOptions(select, 'Niemand (offen für alle)');
    await userEvent.click(screen.getByRole('button', { name: 'Zuweisen' }));
    expect(state.assigned.at(-1)).toEqual({ ids: [2], assignee: null });
  });

  it('lists done follow-ups with who did them and offers no bulk actions', () => {
    state.page = loaded([
      item(3, {
        overdue: false,
        done_at: '2026-11-25T09:15:00.000Z',
        done_by_name: 'Anna Admin',
      }),
    ]);
    renderList('?wann=erledigt');
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Erledigt' })).toBeNull();
    expect(screen.getAllByRole('row')[1]!.textContent).toContain(
      '25.11.2026, 10:15 Uhr von Anna Admin',
    );
  });

  it('has a loading, an empty and an error state', async () => {
    state.page = { isPending: true, isError: false, refetch: vi.fn() };
    renderList();
    expect(screen.getByRole('region', { name: 'Liste' }).getAttribute('aria-busy')).toBe('true');
    cleanup();

    state.page = loaded([]);
    renderList();
    expect(screen.getByText('Keine Wiedervorlagen für diese Auswahl.')).toBeTruthy();
    cleanup();

    const refetch = vi.fn();
    state.page = { isPending: false, isError: true, refetch };
    renderList();
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Wiedervorlagen konnten nicht geladen werden.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(refetch).toHaveBeenCalledOnce();
  });
});
