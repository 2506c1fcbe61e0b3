// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorPage } from './route-error-page.tsx';

// Offline, a tap on a questionnaire in a page the freshly installed service worker does not
// control fails to load the screen's code; the page then reloads into the worker, once.

const reload = vi.fn();

function worker(state: { controlled: boolean; active: boolean }) {
  vi.stubGlobal('navigator', {
    ...navigator,
    serviceWorker: {
      controller: state.controlled ? {} : null,
      getRegistration: () => Promise.resolve(state.active ? { active: {} } : undefined),
    },
  });
}

function showError(error: unknown) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        errorElement: <RouteErrorPage />,
        loader: () => {
          throw error;
        },
        element: null,
      },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
}

const chunkError = () =>
  new TypeError('Failed to fetch dynamically imported module: http://x/assets/pkv-page.js');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  reload.mockClear();
});

describe('RouteErrorPage', () => {
  it('reloads into an installed worker when the code of a page failed outside it', async () => {
    vi.stubGlobal('location', { ...window.location, reload });
    worker({ controlled: false, active: true });
    showError(chunkError());
    await screen.findByRole('alert');
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it.each([
    ['the worker controls the page already', { controlled: true, active: true }, chunkError()],
    ['no worker is installed', { controlled: false, active: false }, chunkError()],
    ['the screen itself failed', { controlled: false, active: true }, new Error('Kaputt')],
  ])('shows the German error and stays when %s', async (_name, state, error) => {
    vi.stubGlobal('location', { ...window.location, reload });
    worker(state);
    showError(error);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Es ist ein Fehler aufgetreten',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reload).not.toHaveBeenCalled();
  });
});
