// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deskBase, deskPaths } from '../domain/routes.ts';
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
vi.mock('./pwa-notices.tsx', () => ({ UpdatePrompt: () => null }));

// The header as a signed-in user sees it; the session and its client are the data layer's.
vi.mock('./desk-providers.tsx', () => ({
  DeskProviders: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../api/desk-session.ts', () => ({
  useSession: () => ({
    data: { session: { user: { email: 'mitarbeiterin@example.de' } }, lost: false },
    isPending: false,
  }),
  useSignOut: () => ({ mutate: vi.fn() }),
}));
// An enabled staff account: no admin entries, nothing awaiting approval.
vi.mock('../api/desk-staff.ts', () => ({
  useMyRole: () => ({ data: 'staff', isPending: false, isError: false }),
  useStaffAccounts: () => ({ data: undefined }),
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

afterEach(cleanup);

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
});
