// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deskBase, deskPaths } from '../../domain/routes.ts';
import { DeskLayout } from './desk-layout.tsx';

// Which header a screen gets (issue 36): the navigation, the bell and the user menu only for a
// signed-in account, never on the screens of the signed-out (sign-in, registration, password);
// an address below /surveydesk that names no screen is open to everyone (the desk's 404).

vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    unobserve() {}
    disconnect() {}
  },
);
vi.mock('../../app/pwa-notices.tsx', () => ({ UpdatePrompt: () => null }));
vi.mock('./desk-providers.tsx', () => ({
  DeskProviders: ({ children }: { children: ReactNode }) => children,
}));

const state = vi.hoisted(() => ({ signedIn: true }));
vi.mock('../api/session.ts', () => ({
  useSession: () => ({
    data: {
      session: state.signedIn ? { user: { email: 'mitarbeiterin@example.de' } } : null,
      lost: false,
    },
    isPending: false,
  }),
}));
vi.mock('../api/staff.ts', () => ({
  useMyRole: () => ({ data: 'staff', isPending: false, isError: false }),
  useStaffAccounts: () => ({ data: undefined }),
}));
vi.mock('../api/support.ts', () => ({ useUnreadSupportCount: () => ({ data: undefined }) }));
vi.mock('../api/follow-ups.ts', () => ({
  workListShown: 5,
  useFollowUpCounts: () => ({ data: undefined }),
  useWorkListPage: () => ({ data: undefined }),
}));

function renderDesk(path: string) {
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

/** What of the signed-in header is there: links, bell, user menu, phone menu. */
function signedInHeader() {
  return {
    navigation: document.querySelectorAll('#desk-navigation a').length > 0,
    bell: screen.queryByRole('button', { name: /^Benachrichtigungen/ }) !== null,
    userMenu: screen.queryByRole('button', { name: 'Benutzermenü' }) !== null,
    phoneMenu: screen.queryByRole('button', { name: 'Menü öffnen' }) !== null,
  };
}
const none = { navigation: false, bell: false, userMenu: false, phoneMenu: false };
const full = { navigation: true, bell: true, userMenu: true, phoneMenu: true };

afterEach(() => {
  cleanup();
  state.signedIn = true;
});

describe('the header of the signed-out screens', () => {
  it.each([deskPaths.signin, deskPaths.signup, deskPaths.passwordForgotten, deskPaths.passwordNew])(
    '%s shows only the name, signed out or not',
    (path) => {
      state.signedIn = false;
      renderDesk(path);
      expect(signedInHeader()).toEqual(none);
      expect(screen.getByRole('link', { name: 'Survey Desk' })).toBeTruthy();
      cleanup();
      // The sign-in signs out as it opens; a recovery session opens the new-password page.
      state.signedIn = true;
      renderDesk(path);
      expect(signedInHeader()).toEqual(none);
    },
  );

  it('a staff screen without a session shows no navigation on its way to the sign-in', () => {
    state.signedIn = false;
    const router = renderDesk(deskPaths.customers);
    expect(signedInHeader()).toEqual(none);
    expect(router.state.location.pathname).toBe(deskPaths.signin);
  });

  it('a signed-in account has the whole header', () => {
    renderDesk(deskPaths.customers);
    expect(signedInHeader()).toEqual(full);
  });
});

describe('an address that names no desk screen', () => {
  it('is shown to a signed-out visitor without the guard sending them away', () => {
    state.signedIn = false;
    const router = renderDesk(`${deskBase}/tippfehler`);
    expect(router.state.location.pathname).toBe(`${deskBase}/tippfehler`);
    expect(screen.getByRole('heading', { name: 'Bildschirm' })).toBeTruthy();
    expect(signedInHeader()).toEqual(none);
  });

  it('keeps the navigation for a signed-in account', () => {
    renderDesk(`${deskBase}/kunden/tippfehler`);
    expect(screen.getByRole('heading', { name: 'Bildschirm' })).toBeTruthy();
    expect(signedInHeader()).toEqual(full);
  });
});
