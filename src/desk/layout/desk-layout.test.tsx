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
  dueAskedFor: [] as boolean[],
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

// 'Heute fällig' is the data layer's; the bell only counts its list.
vi.mock('../api/follow-ups.ts', () => ({
  useDueFollowUps: (enabled: boolean) => {
    account.dueAskedFor.push(enabled);
    return {
      data: enabled ? Array.from({ length: account.dueFollowUps }, (_, id) => ({ id })) : undefined,
    };
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
    dueAskedFor: [],
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

  it('counts the due follow-ups on the bell for staff and leads to them', async () => {
    account.dueFollowUps = 3;
    const user = userEvent.setup();
    const router = renderDesk(deskPaths.customers);
    const bell = button('Benachrichtigungen: 3 fällige Wiedervorlagen');
    expect(bell.textContent).toBe('3');
    await user.click(bell);
    expect(document.getElementById('desk-notifications')!.textContent).toContain(
      '3 fällige Wiedervorlagen',
    );
    await user.click(screen.getByRole('link', { name: 'Zu „Heute fällig“' }));
    expect(router.state.location.pathname).toBe(deskPaths.dashboard);
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
