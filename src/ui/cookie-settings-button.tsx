import { useState } from 'react';
import { openCookieSettings } from './cookie-consent.ts';
import { cookieSettingsFailedText } from './cookie-settings-text.ts';

/**
 * The app shell's version; a prerendered page starts the same markup as a plain DOM island
 * (cookie-settings-dom.ts).
 */
export function CookieSettingsButton() {
  const [failed, setFailed] = useState(false);
  return (
    <div>
      <button
        type="button"
        onClick={() => {
          setFailed(false);
          openCookieSettings().catch(() => setFailed(true));
        }}
        className="min-h-11 rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        Cookie-Einstellungen öffnen
      </button>
      {failed ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {cookieSettingsFailedText}
        </p>
      ) : null}
    </div>
  );
}
