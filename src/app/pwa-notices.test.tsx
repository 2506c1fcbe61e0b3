// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setQuestionnaireInProgress } from '../offline/questionnaire-activity.ts';
import { UpdatePrompt } from './pwa-notices.tsx';

// vite-plugin-pwa's hook registers the service worker; here it only reports whether a new
// version waits, as `needRefresh` state the component can also clear.
const worker = vi.hoisted(() => ({
  waiting: false,
  updateServiceWorker: vi.fn(async (_reload?: boolean) => undefined),
  options: undefined as
    { onRegisteredSW?: (url: string, registration: ServiceWorkerRegistration) => void } | undefined,
}));

vi.mock('./register-sw.ts', () => ({
  useRegisterSW(options: typeof worker.options) {
    worker.options = options;
    return {
      needRefresh: useState(worker.waiting),
      offlineReady: useState(false),
      updateServiceWorker: worker.updateServiceWorker,
    };
  },
}));

const prompt = () => screen.queryByRole('alertdialog', { name: 'Neue Version verfügbar' });

afterEach(() => {
  cleanup();
  setQuestionnaireInProgress(false);
  worker.waiting = false;
  vi.clearAllMocks();
  vi.useRealTimers();
});

describe('the update prompt', () => {
  it('stays hidden while no new version waits', () => {
    render(<UpdatePrompt />);
    expect(prompt()).toBeNull();
  });

  it('offers a waiting version and reloads into it only when asked', async () => {
    worker.waiting = true;
    const user = userEvent.setup();
    render(<UpdatePrompt />);
    expect(prompt()).not.toBeNull();
    expect(worker.updateServiceWorker).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Jetzt neu laden' }));
    expect(worker.updateServiceWorker).toHaveBeenCalledWith(true);
  });

  it('"Später" puts the offer away', async () => {
    worker.waiting = true;
    const user = userEvent.setup();
    render(<UpdatePrompt />);
    await user.click(screen.getByRole('button', { name: 'Später' }));
    expect(prompt()).toBeNull();
    expect(worker.updateServiceWorker).not.toHaveBeenCalled();
  });

  it('waits while a questionnaire is in progress and comes once it is done', () => {
    worker.waiting = true;
    setQuestionnaireInProgress(true);
    render(<UpdatePrompt />);
    expect(prompt()).toBeNull();

    act(() => setQuestionnaireInProgress(false));
    expect(prompt()).not.toBeNull();

    act(() => setQuestionnaireInProgress(true));
    expect(prompt()).toBeNull();
  });

  it('asks the server for a new version every hour', () => {
    vi.useFakeTimers();
    render(<UpdatePrompt />);
    const registration = { update: vi.fn(async () => undefined) };
    worker.options?.onRegisteredSW?.(
      '/sw.js',
      registration as unknown as ServiceWorkerRegistration,
    );

    vi.advanceTimersByTime(59 * 60 * 1000);
    expect(registration.update).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60 * 1000);
    expect(registration.update).toHaveBeenCalledTimes(1);
  });
});
