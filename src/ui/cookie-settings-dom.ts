import { h } from './dom.ts';
import { openCookieSettings } from './cookie-consent.ts';
import { cookieSettingsFailedText } from './cookie-settings-text.ts';

// The "Cookie-Einstellungen öffnen" button of the privacy and cookie pages, as a plain DOM
// island: the consent tool it opens has no React either, so these pages run without React.

/** Starts the `cookie-settings` island on the button the build wrote (cookie-settings-button.tsx). */
export function startCookieSettingsButton(element: HTMLElement): void {
  const button = element.querySelector('button');
  if (!button) return;
  let alert: HTMLElement | undefined;
  button.addEventListener('click', () => {
    alert?.remove();
    alert = undefined;
    openCookieSettings().catch(() => {
      alert = h(
        'p',
        { role: 'alert', className: 'mt-2 text-sm text-red-800' },
        cookieSettingsFailedText,
      );
      button.after(alert);
    });
  });
}
