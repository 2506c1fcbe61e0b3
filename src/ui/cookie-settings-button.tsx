import { useState } from 'react';
import { openCookieSettings } from './cookie-consent.ts';

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
          Die Einstellungen konnten nicht geladen werden. Bitte prüfen Sie Ihre Verbindung und
          versuchen Sie es erneut.
        </p>
      ) : null}
    </div>
  );
}
