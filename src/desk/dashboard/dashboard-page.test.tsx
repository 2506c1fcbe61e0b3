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
  followUpCounts: {} as Query,
  today: {} as Query,
  overdue: {} as Query,
  done: [] as number[],
  reopened: [] as number[],
}));

vi.mock('../api/follow-ups.ts', () => ({
  useFollowUpCounts: () => state.followUpCounts,
  useWorkListPage: (due: 'today' | 'overdue') => (due === 'today' ? state.today : state.overdue),
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

const followUp = {
  id: 1,
  customer_id: 42,
  customer_name: 'Jürgen Weiß',
  response_id: null,
  due_at: '2026-07-14T08:00:00.000Z',
  body: 'Rückruf gewünscht: Morgens (8–12 Uhr)',
  automatic: true,
  assignee: null,
  assignee_name: null,
  overdue: true,
  done_at: null,
  done_by_name: null,
};

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
  state.followUpCounts = loaded({ overdue: 0, today: 0, thisWeek: 0, unassigned: 0 });
  state.today = loaded({ rows: [], total: 0 });
  state.overdue = loaded({ rows: [], total: 0 });
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
        source: 'questionnaire',
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

  it('names a KFZ or contact lead by its source, not by the form it is stored under', () => {
    state.newest = loaded([
      {
        id: 8,
        userId: 43,
        name: 'Karla Kfz',
        source: 'kfz',
        formTitle: null,
        receivedAt: '2026-11-23T10:00:00.000Z',
      },
      {
        id: 9,
        userId: 44,
        name: 'Konrad Kontakt',
        source: 'contact',
        formTitle: null,
        receivedAt: '2026-11-23T11:00:00.000Z',
      },
    ]);
    renderDashboard();
    const items = screen.getByRole('region', { name: 'Neueste Leads' }).querySelectorAll('li');
    expect(items[0]!.textContent).toContain('Karla Kfz – KFZ-Rückruf');
    expect(items[1]!.textContent).toContain('Konrad Kontakt – Kontaktformular');
    expect(items[0]!.textContent).not.toContain('Tabaluga');
  });

  it('says when nothing is due today or overdue', () => {
    renderDashboard();
    expect(screen.getByRole('region', { name: 'Heute fällig' }).textContent).toContain(
      'Heute ist nichts mehr fällig.',
    );
    expect(
      screen.getByRole('region', { name: 'Überfällig – die ältesten zuerst' }).textContent,
    ).toContain('Nichts überfällig.');
  });

  it('counts first, each count opening the follow-up list filtered by it', () => {
    state.followUpCounts = loaded({ overdue: 812, today: 3, thisWeek: 17, unassigned: 790 });
    renderDashboard();
    const counts = screen.getByRole('list', { name: 'Anzahl' });
    const links = [...counts.querySelectorAll('a')].map((link) => [
      link.textContent,
      link.getAttribute('href'),
    ]);
    expect(links).toEqual([
      ['812überfällig', '/surveydesk/wiedervorlagen?wann=ueberfaellig'],
      ['3heute fällig', '/surveydesk/wiedervorlagen?wann=heute'],
      ['17diese Woche fällig', '/surveydesk/wiedervorlagen?wann=woche'],
      ['790ohne Zuständige/n', '/surveydesk/wiedervorlagen?wer=ohne'],
    ]);
  });

  it('shows a few of today’s and of the oldest overdue follow-ups, and a link to all of them', () => {
    state.followUpCounts = loaded({ overdue: 812, today: 2, thisWeek: 2, unassigned: 790 });
    state.overdue = loaded({
      rows: Array.from({ length: 5 }, (_, index) => ({
        ...followUp,
        id: 100 + index,
        customer_name: `Kunde ${index}`,
      })),
      total: 812,
    });
    state.today = loaded({ rows: [{ ...followUp, id: 7, overdue: false }], total: 1 });
    renderDashboard();
    const overdue = screen.getByRole('region', { name: 'Überfällig – die ältesten zuerst' });
    expect(overdue.querySelectorAll('li')).toHaveLength(5);
    const all = screen.getByRole('link', { name: 'alle 812 anzeigen' });
    expect(all.getAttribute('href')).toBe('/surveydesk/wiedervorlagen?wann=ueberfaellig');
    // Everything of today is shown: no link to more.
    const today = screen.getByRole('region', { name: 'Heute fällig' });
    expect(today.querySelectorAll('li')).toHaveLength(1);
    expect(today.textContent).not.toContain('anzeigen');
  });

  it('shows a German error with a retry when the follow-ups cannot be counted', async () => {
    const refetch = vi.fn();
    state.followUpCounts = { isPending: false, isError: true, refetch };
    renderDashboard();
    const card = screen.getByRole('region', { name: /^Wiedervorlagen/ });
    expect(card.textContent).toContain('Die Wiedervorlagen konnten nicht gezählt werden.');
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('lists due follow-ups with customer, time, text and assignee, the overdue marked, done in one click', async () => {
    state.overdue = loaded({
      rows: [
        {
          ...followUp,
          id: 5,
          customer_id: 42,
          customer_name: 'Jürgen Weiß',
          response_id: 7,
          due_at: '2026-11-25T08:00:00.000Z',
          body: 'Rückruf gewünscht: Morgens (8–12 Uhr)',
          automatic: true,
          overdue: true,
        },
      ],
      total: 1,
    });
    state.today = loaded({
      rows: [
        {
          ...followUp,
          id: 6,
          customer_id: 43,
          customer_name: 'Erika Muster',
          response_id: null,
          due_at: '2026-11-25T15:00:00.000Z',
          body: 'Angebot besprechen',
          assignee: 'u2',
          assignee_name: 'Anna Admin',
          overdue: false,
        },
      ],
      total: 1,
    });
    renderDashboard();
    const overdue = screen
      .getByRole('region', { name: 'Überfällig – die ältesten zuerst' })
      .querySelectorAll('li');
    const today = screen.getByRole('region', { name: 'Heute fällig' }).querySelectorAll('li');
    expect(overdue[0]!.textContent).toContain('25.11.2026, 09:00 Uhr');
    expect(overdue[0]!.textContent).toContain('überfällig');
    expect(overdue[0]!.textContent).toContain('Zuständig: niemand (offen für alle)');
    expect(today[0]!.textContent).not.toContain('überfällig');
    expect(today[0]!.textContent).toContain('Zuständig: Anna Admin');
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
