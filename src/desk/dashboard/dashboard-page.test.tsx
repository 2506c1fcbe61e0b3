// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DashboardPage } from './dashboard-page.tsx';

// The screen's three states, with the data layer's hooks standing in for the database.
type Query = { data?: unknown; isPending: boolean; isError: boolean; refetch: () => void };

const state = vi.hoisted(() => ({
  counts: {} as Query,
  perForm: {} as Query,
  newest: {} as Query,
  byStatus: {} as Query,
  role: 'staff',
  countedDays: [] as unknown[],
  due: {} as Query,
  done: [] as number[],
  reopened: [] as number[],
}));

vi.mock('../api/follow-ups.ts', () => ({
  useDueFollowUps: () => state.due,
  useCompleteFollowUp: () => ({
    mutate: (id: number) => state.done.push(id),
    isPending: false,
    isError: false,
  }),
  useReopenFollowUp: () => ({
    mutate: (id: number) => state.reopened.push(id),
    isPending: false,
  }),
}));

vi.mock('../api/dashboard.ts', () => ({
  useDashboardCounts: (days: unknown) => {
    state.countedDays.push(days);
    return state.counts;
  },
  useLeadsPerForm: () => state.perForm,
  useNewestLeads: () => state.newest,
}));
vi.mock('../api/lead-status.ts', () => ({
  useLeadStatusCounts: () => state.byStatus,
}));
vi.mock('../api/staff.ts', () => ({
  useMyRole: () => ({ data: state.role }),
  useStaffAccounts: () => ({
    data: [
      { user_id: 'u1', email: 'neu@example.de', role: 'pending' },
      { user_id: 'u2', email: 'admin@example.de', role: 'admin' },
    ],
    isPending: false,
    isError: false,
    refetch: vi.fn(),
  }),
}));

const loaded = (data: unknown): Query => ({
  data,
  isPending: false,
  isError: false,
  refetch: vi.fn(),
});

function renderDashboard() {
  render(
    <MemoryRouter>
      <DashboardPage />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  state.counts = loaded({ leadsToday: 0, leadsLastWeek: 0, customers: 0, callbacksWaiting: 0 });
  state.perForm = loaded([{ formId: 1, title: 'Tabaluga', leads: 0 }]);
  state.newest = loaded([]);
  state.byStatus = loaded({
    new: 0,
    contacted: 0,
    appointment: 0,
    offer_sent: 0,
    closed: 0,
    no_interest: 0,
  });
  state.role = 'staff';
  state.due = loaded([]);
  state.done = [];
  state.reopened = [];
});
afterEach(cleanup);

describe('DashboardPage', () => {
  it("counts 'Heute' by the agent's day in Germany, as Analyse does (issue 21, item 10)", () => {
    // 00:30 on 26 November in Berlin is still the 25th in UTC (and in a browser set to UTC).
    vi.useFakeTimers({ now: new Date('2026-11-25T23:30:00Z'), toFake: ['Date'] });
    try {
      renderDashboard();
    } finally {
      vi.useRealTimers();
    }
    expect(state.countedDays.at(-1)).toEqual({ today: '2026-11-26', weekStart: '2026-11-20' });
  });

  it('marks cards busy while they load', () => {
    state.counts = { isPending: true, isError: false, refetch: vi.fn() };
    renderDashboard();
    expect(screen.getByRole('region', { name: 'Neue Leads' }).getAttribute('aria-busy')).toBe(
      'true',
    );
  });

  it('shows a German error with a retry that refetches', async () => {
    const refetch = vi.fn();
    state.newest = { isPending: false, isError: true, refetch };
    renderDashboard();
    expect(screen.getByRole('alert').textContent).toContain(
      'Die Daten konnten nicht geladen werden.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('explains an empty installation', () => {
    renderDashboard();
    expect(screen.getByText(/Noch keine Leads eingegangen/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Konten warten auf Freigabe' })).toBeNull();
  });

  it('links a new lead to its customer and shows admins the accounts awaiting approval', () => {
    state.role = 'admin';
    state.newest = loaded([
      {
        id: 7,
        userId: 42,
        name: 'Jürgen Weiß',
        formTitle: 'Tabaluga',
        receivedAt: '2026-11-23T09:30:00.000Z',
      },
    ]);
    renderDashboard();
    expect(screen.getByRole('link', { name: 'Jürgen Weiß' }).getAttribute('href')).toBe(
      '/surveydesk/customer?id=42',
    );
    const pending = screen.getByRole('region', { name: 'Konten warten auf Freigabe' });
    expect(pending.textContent).toContain('neu@example.de');
    expect(pending.textContent).not.toContain('admin@example.de');
  });

  it('counts the leads per status, zeros included, each linking to the filtered customer list', () => {
    state.byStatus = loaded({
      new: 1234,
      contacted: 5,
      appointment: 0,
      offer_sent: 2,
      closed: 1,
      no_interest: 0,
    });
    renderDashboard();
    const card = screen.getByRole('region', { name: 'Leads nach Status' });
    const rows = [...card.querySelectorAll('dl > div')].map((row) => [
      row.querySelector('a')?.getAttribute('href'),
      row.textContent,
    ]);
    expect(rows).toEqual([
      ['/surveydesk/customer?status=new', 'Neu1.234'],
      ['/surveydesk/customer?status=contacted', 'Kontaktiert5'],
      ['/surveydesk/customer?status=appointment', 'Termin vereinbart0'],
      ['/surveydesk/customer?status=offer_sent', 'Angebot gesendet2'],
      ['/surveydesk/customer?status=closed', 'Abgeschlossen1'],
      ['/surveydesk/customer?status=no_interest', 'Kein Interesse0'],
    ]);
  });

  it('shows a German error with a retry when the status counts cannot be read', () => {
    state.byStatus = { isPending: false, isError: true, refetch: vi.fn() };
    renderDashboard();
    const card = screen.getByRole('region', { name: 'Leads nach Status' });
    expect(card.textContent).toContain('Die Daten konnten nicht geladen werden.');
  });

  it("shows 'Nichts fällig.' when no follow-up is due", () => {
    renderDashboard();
    const card = screen.getByRole('region', { name: 'Heute fällig' });
    expect(card.textContent).toContain('Nichts fällig.');
  });

  it('lists due follow-ups with customer, time, text and assignee, the overdue marked, done in one click', async () => {
    state.due = loaded([
      {
        id: 5,
        customer_id: 42,
        customer_name: 'Jürgen Weiß',
        response_id: 7,
        due_at: '2026-11-25T08:00:00.000Z',
        body: 'Rückruf gewünscht: Morgens (8–12 Uhr)',
        automatic: true,
        assignee: null,
        assignee_name: null,
        overdue: true,
      },
      {
        id: 6,
        customer_id: 43,
        customer_name: 'Erika Muster',
        response_id: null,
        due_at: '2026-11-25T15:00:00.000Z',
        body: 'Angebot besprechen',
        automatic: false,
        assignee: 'u2',
        assignee_name: 'Anna Admin',
        overdue: false,
      },
    ]);
    renderDashboard();
    const card = screen.getByRole('region', { name: 'Heute fällig' });
    const items = card.querySelectorAll('li');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('25.11.2026, 09:00 Uhr');
    expect(items[0]!.textContent).toContain('überfällig');
    expect(items[0]!.textContent).toContain('Zuständig: niemand (offen für alle)');
    expect(items[1]!.textContent).not.toContain('überfällig');
    expect(items[1]!.textContent).toContain('Zuständig: Anna Admin');
    expect(screen.getByRole('link', { name: 'Jürgen Weiß' }).getAttribute('href')).toBe(
      '/surveydesk/customer?id=42',
    );
    expect(
      screen.getByRole('link', { name: 'Antworten von Erika Muster' }).getAttribute('href'),
    ).toBe('/surveydesk/customer/43/antworten');
    await userEvent.click(
      screen.getByRole('button', { name: 'Erledigt: Angebot besprechen (Erika Muster)' }),
    );
    expect(state.done).toEqual([6]);
    // A click on the wrong line is taken back.
    await userEvent.click(screen.getByRole('button', { name: 'Rückgängig' }));
    expect(state.reopened).toEqual([6]);
  });
});
