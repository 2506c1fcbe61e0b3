// @vitest-environment jsdom
import { screen } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RegisterSWOptions } from 'vite-plugin-pwa/types';
import { setQuestionnaireInProgress } from '../offline/questionnaire-activity.ts';

// vite-plugin-pwa's registration: here it only hands over the options, so that the test says
// when a new version waits.
const worker = vi.hoisted(() => ({
  options: undefined as RegisterSWOptions | undefined,
  updateServiceWorker: vi.fn(async (_reload?: boolean) => undefined),
}));
vi.mock('./register-sw-vanilla.ts', () => ({
  registerSW(options: RegisterSWOptions) {
    worker.options = options;
    return worker.updateServiceWorker;
  },
}));

const { startPwaNotices } = await import('./pwa-notices-dom.ts');

const prompt = () => screen.queryByRole('alertdialog', { name: 'Neue Version verfügbar' });
const hint = () => screen.queryByRole('complementary', { name: 'Hinweis zur Installation' });

function start() {
  document.body.innerHTML = '<div data-island="pwa-notices" class="contents"></div>';
  startPwaNotices(document.querySelector('[data-island="pwa-notices"]')!);
}

const desktop = navigator.userAgent;
function userAgent(value: string) {
  Object.defineProperty(navigator, 'userAgent', { value, configurable: true });
}

beforeEach(() => {
  // jsdom has no matchMedia; the page is not a home screen app.
  window.matchMedia = vi.fn(() => ({ matches: false }) as MediaQueryList);
});

afterEach(() => {
  document.body.innerHTML = '';
  setQuestionnaireInProgress(false);
  localStorage.clear();
  userAgent(desktop);
  vi.clearAllMocks();
  vi.useRealTimers();
});

describe('the PWA notices in plain DOM', () => {
  it('registers the service worker at once and shows nothing while no new version waits', () => {
    start();
    expect(worker.options).toMatchObject({ immediate: true });
    expect(prompt()).toBeNull();
    expect(hint()).toBeNull();
  });

  it('offers a waiting version and reloads into it only when asked', async () => {
    const user = userEvent.setup();
    start();
    worker.options!.onNeedRefresh!();
    expect(prompt()).not.toBeNull();
    expect(worker.updateServiceWorker).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Jetzt neu laden' }));
    expect(worker.updateServiceWorker).toHaveBeenCalledWith(true);
  });

  it('"Später" puts the offer away', async () => {
    const user = userEvent.setup();
    start();
    worker.options!.onNeedRefresh!();
    await user.click(screen.getByRole('button', { name: 'Später' }));
    expect(prompt()).toBeNull();
    expect(worker.updateServiceWorker).not.toHaveBeenCalled();
  });

  it('waits while a questionnaire is in progress and comes once it is done', () => {
    setQuestionnaireInProgress(true);
    start();
    worker.options!.onNeedRefresh!();
    expect(prompt()).toBeNull();

    setQuestionnaireInProgress(false);
    expect(prompt()).not.toBeNull();

    setQuestionnaireInProgress(true);
    expect(prompt()).toBeNull();
  });

  it('asks the server for a new version every hour', () => {
    vi.useFakeTimers();
    start();
    const registration = { update: vi.fn(async () => undefined) };
    worker.options!.onRegisteredSW!('/sw.js', registration as unknown as ServiceWorkerRegistration);
    vi.advanceTimersByTime(59 * 60 * 1000);
    expect(registration.update).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60 * 1000);
    expect(registration.update).toHaveBeenCalledTimes(1);
  });

  it('tells iPhone Safari once to add the page to the home screen', async () => {
    const user = userEvent.setup();
    userAgent(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 ' +
        '(KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    );
    start();
    expect(hint()?.textContent).toContain('„Zum Home-Bildschirm“');
    await user.click(screen.getByRole('button', { name: 'Verstanden' }));
    expect(hint()).toBeNull();

    start();
    expect(hint()).toBeNull();
  });
});
