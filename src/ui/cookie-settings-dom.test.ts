// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('./cookie-consent.ts', () => ({ openCookieSettings: vi.fn(async () => undefined) }));

const { openCookieSettings } = vi.mocked(await import('./cookie-consent.ts'));
const { startCookieSettingsButton } = await import('./cookie-settings-dom.ts');

const alert = () => document.querySelector('[role="alert"]');

function start() {
  // The button as the build writes it (cookie-settings-button.tsx).
  document.body.innerHTML =
    '<div data-island="cookie-settings" class="contents"><div>' +
    '<button type="button">Cookie-Einstellungen öffnen</button></div></div>';
  startCookieSettingsButton(document.querySelector('[data-island="cookie-settings"]')!);
  return document.querySelector('button')!;
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.clearAllMocks();
});

describe('the cookie settings button in plain DOM', () => {
  it('opens the consent tool’s settings', () => {
    start().click();
    expect(openCookieSettings).toHaveBeenCalledTimes(1);
    expect(alert()).toBeNull();
  });

  it('says when the settings could not be loaded, and tries again at the next click', async () => {
    openCookieSettings.mockRejectedValueOnce(new Error('offline'));
    const button = start();
    button.click();
    await vi.waitFor(() =>
      expect(alert()?.textContent).toBe(
        'Die Einstellungen konnten nicht geladen werden. Bitte prüfen Sie Ihre Verbindung und ' +
          'versuchen Sie es erneut.',
      ),
    );
    button.click();
    expect(openCookieSettings).toHaveBeenCalledTimes(2);
    expect(alert()).toBeNull();
  });
});
