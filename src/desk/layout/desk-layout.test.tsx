// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deskBase, deskPaths } from '../../domain/routes.ts';
import { DeskLayout } from './desk-layout.tsx';

// jsdom has no ResizeObserver; Headless UI's menu watches its button with one.
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    unobserve() {}
    disconnect() {}
  },
);

// The layout's update prompt registers the service worker; it has nothing to offer here.
vi.mock('../../app/pwa-notices.tsx', () => ({ UpdatePrompt: () => null }));

// The header as a signed-in user sees it; the session and its client are the data layer's.
vi.mock('./desk-providers.tsx', () => ({
  DeskProviders: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../api/session.ts', () => ({
  useSession: () => ({
    data: { session: { user: { email: 'mitarbeiterin@example.de' } }, lost: false },
    isPending: false,
  }),
  useSignOut: () => ({ mutate: vi.fn() }),
}));
// An enabled staff account by default: no admin entries, nothing awaiting approval. The unread
// support messages are counted only when the hook is enabled, which only an admin does.
const account = vi.hoisted(() => ({
  role: 'staff',
  unreadSupport: 0,
  countedFor: [] as boolean[],
  dueFollowUps: 0,
  overdueFollowUps: 0,
  dueAskedFor: [] as boolean[],
  listsAskedFor: [] as string[],
}));
vi.mock('../api/staff.ts', () => ({
  useMyRole: () => ({ data: account.role, isPending: false, isError: false }),
  useStaffAccounts: () => ({ data: undefined }),
}));
vi.mock('../api/support.ts', () => ({
  useUnreadSupportCount: (enabled: boolean) => {
    account.countedFor.push(enabled);
    return { data: enabled ? account.unreadSupport : undefined };
  },
}));

// The work list's counts and short lists are the data layer's; the bell shows a handful.
const dueItem = (id: number, name: string, overdue: boolean) => ({
  id,
  customer_id: id + 100,
  customer_name: name,
  response_id: overdue ? null : id + 200,
  due_at: '2026-11-25T08:00:00.000Z',
  body: `Rückruf ${name}`,
  automatic: true,
  assignee: null,
  assignee_name: null,
  overdue,
  done_at: null,
  done_by_name: null,
});
vi.mock('../api/follow-ups.ts', () => ({
  workListShown: 5,
  useFollowUpCounts: (enabled: boolean) => {
    account.dueAskedFor.push(enabled);
    return {
      data: enabled
        ? { today: account.dueFollowUps, overdue: account.overdueFollowUps, thisWeek: 0 }
        : undefined,
    };
  },
  useWorkListPage: (due: 'today' | 'overdue', enabled: boolean) => {
    if (enabled) account.listsAskedFor.push(due);
    const total = due === 'today' ? account.dueFollowUps : account.overdueFollowUps;
    const rows = Array.from({ length: Math.min(total, 5) }, (_, index) =>
      dueItem(
        index + (due === 'today' ? 1 : 11),
        `${due === 'today' ? 'Heute' : 'Alt'} ${index}`,
        due === 'overdue',
      ),
    );
    return { data: enabled ? { rows, total } : undefined };
  },
}));

function renderDesk(path: string = deskPaths.dashboard) {
  const router = createMemoryRouter(
    [
      {
        path: deskBase,
        element: <DeskLayout />,
        children: [{ path: '*', element: <h1>Bildschirm</h1> }],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const button = (name: string) => screen.getByRole('button', { name });

afterEach(() => {
  cleanup();
  Object.assign(account, {
    role: 'staff',
    unreadSupport: 0,
    countedFor: [],
    dueFollowUps: 0,
    overdueFollowUps: 0,
    dueAskedFor: [],
    listsAskedFor: [],
  });
});

describe('the Survey Desk header', () => {
  it('links every desk screen', () => {
    renderDesk();
    const nav = screen.getByRole('navigation', { name: 'Survey Desk' });
    const links = [...nav.querySelectorAll('#desk-navigation a')].map((link) => [
      link.textContent,
      link.getAttribute('href'),
    ]);
    expect(links).toEqual([
      ['Dashboard', '/surveydesk/dashboard'],
      ['Kunden', '/surveydesk/customer'],
      ['Wiedervorlagen', '/surveydesk/wiedervorlagen'],
      ['Fragebogen', '/surveydesk/question'],
      ['Analyse', '/surveydesk/analyse'],
      ['Support', '/surveydesk/support'],
    ]);
  });

  it('the user menu opens, leads to the settings and closes with Escape', async () => {
    const user = userEvent.setup();
    const router = renderDesk();
    expect(screen.queryByRole('menuitem', { name: 'Einstellungen' })).toBeNull();

    await user.click(button('Benutzermenü'));
    expect(screen.getByRole('menuitem', { name: 'Abmelden' }).getAttribute('href')).toBe(
      '/surveydesk/signin',
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button('Benutzermenü'));

    await user.click(button('Benutzermenü'));
    await user.click(screen.getByRole('menuitem', { name: 'Einstellungen' }));
    expect(router.state.location.pathname).toBe('/surveydesk/settings');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('the notifications close on a click elsewhere and when the user menu opens', async () => {
    const user = userEvent.setup();
    renderDesk();
    await user.click(button('Benachrichtigungen'));
    expect(screen.getByText('Keine Nachrichten')).toBeTruthy();

    await user.click(screen.getByRole('heading', { name: 'Bildschirm' }));
    expect(screen.queryByText('Keine Nachrichten')).toBeNull();

    await user.click(button('Benachrichtigungen'));
    await user.click(button('Benutzermenü'));
    expect(screen.queryByText('Keine Nachrichten')).toBeNull();
    expect(screen.getByRole('menu')).toBeTruthy();
  });

  it('the phone menu names what it does and closes with Escape', async () => {
    const user = userEvent.setup();
    renderDesk();
    const toggle = button('Menü öffnen');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-label')).toBe('Menü schließen');
    expect(document.getElementById('desk-navigation')!.className).toMatch(/^flex /);

    await user.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-label')).toBe('Menü öffnen');
    expect(document.getElementById('desk-navigation')!.className).toMatch(/^hidden /);
    expect(document.activeElement).toBe(toggle);
  });

  it('shows an admin the unread support messages on the bell and leads to them', async () => {
    Object.assign(account, { role: 'admin', unreadSupport: 2 });
    const user = userEvent.setup();
    const router = renderDesk();
    const bell = button('Benachrichtigungen: 2 ungelesene Support-Nachrichten');
    expect(bell.textContent).toBe('2');

    await user.click(bell);
    const panel = document.getElementById('desk-notifications')!;
    expect(panel.textContent).toContain('2 ungelesene Support-Nachrichten');
    await user.click(screen.getByRole('link', { name: 'Zu den Support-Nachrichten' }));
    expect(router.state.location.pathname).toBe('/surveydesk/support');
  });

  it('drops the number once every support message is read', () => {
    Object.assign(account, { role: 'admin', unreadSupport: 0 });
    renderDesk();
    expect(button('Benachrichtigungen').textContent).toBe('');
  });

  it('shows staff no support count and does not ask for one', async () => {
    account.unreadSupport = 5;
    renderDesk();
    expect(button('Benachrichtigungen').textContent).toBe('');
    expect(account.countedFor.length).toBeGreaterThan(0);
    expect(account.countedFor.every((enabled) => !enabled)).toBe(true);
    await userEvent.setup().click(button('Benachrichtigungen'));
    expect(screen.getByText('Keine Nachrichten')).toBeTruthy();
  });

  it('counts the due follow-ups on the bell for staff and leads to the filtered list', async () => {
    account.dueFollowUps = 3;
    const user = userEvent.setup();
    const router = renderDesk(deskPaths.customers);
    const bell = button('Benachrichtigungen: 3 fällige Wiedervorlagen');
    expect(bell.textContent).toBe('3');
    // The short lists are read when the bell opens, not on every screen.
    expect(account.listsAskedFor).toEqual([]);
    await user.click(bell);
    expect(document.getElementById('desk-notifications')!.textContent).toContain(
      '3 fällige Wiedervorlagen',
    );
    await user.click(screen.getByRole('link', { name: 'Alle heute fälligen anzeigen' }));
    expect(router.state.location.pathname).toBe(deskPaths.followUps);
    expect(router.state.location.search).toBe('?wann=heute');
  });

  it('opens a short list of what is due now, not hundreds, each opening its lead', async () => {
    Object.assign(account, { dueFollowUps: 2, overdueFollowUps: 812 });
    const user = userEvent.setup();
    const router = renderDesk(deskPaths.customers);
    const bell = button('Benachrichtigungen: 814 fällige Wiedervorlagen');
    expect(bell.textContent).toBe('99+');
    await user.click(bell);
    const panel = document.getElementById('desk-notifications')!;
    // Today's two, then the oldest overdue: five in all.
    const items = [...panel.querySelectorAll('li a')].map((link) => link.textContent);
    expect(items).toHaveLength(5);
    expect(items[0]).toContain('Heute 0');
    expect(items[1]).toContain('Heute 1');
    expect(items[2]).toContain('Alt 0');
    expect(panel.textContent).toContain('812 überfällig');
    expect(screen.getByRole('link', { name: /^Heute 0/ }).getAttribute('href')).toBe(
      '/surveydesk/customer/101/antworten#anfrage-201',
    );
    await user.click(screen.getByRole('link', { name: 'Alle überfälligen anzeigen' }));
    expect(router.state.location.pathname).toBe(deskPaths.followUps);
    expect(router.state.location.search).toBe('?wann=ueberfaellig');
    expect(document.getElementById('desk-notifications')).toBeNull();
  });

  it('adds an admin’s unread messages to the due follow-ups and names both', async () => {
    Object.assign(account, { role: 'admin', unreadSupport: 2, dueFollowUps: 1 });
    renderDesk();
    const bell = button(
      'Benachrichtigungen: 1 fällige Wiedervorlage, 2 ungelesene Support-Nachrichten',
    );
    expect(bell.textContent).toBe('3');
    await userEvent.setup().click(bell);
    const panel = document.getElementById('desk-notifications')!.textContent;
    expect(panel).toContain('1 fällige Wiedervorlage');
    expect(panel).toContain('2 ungelesene Support-Nachrichten');
  });

  it('asks nothing about follow-ups for a pending account', () => {
    Object.assign(account, { role: 'pending', dueFollowUps: 4 });
    renderDesk();
    expect(button('Benachrichtigungen').textContent).toBe('');
    expect(account.dueAskedFor.every((enabled) => !enabled)).toBe(true);
  });
});
