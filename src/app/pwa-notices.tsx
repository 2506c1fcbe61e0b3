import { useState, useSyncExternalStore } from 'react';
import {
  isQuestionnaireInProgress,
  subscribeQuestionnaireActivity,
} from '../offline/questionnaire-activity.ts';
import { useRegisterSW } from './register-sw.ts';

const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker and offers a waiting new version. Never reloads by itself, and
 * stays hidden while a questionnaire is in progress: the visitor finishes first.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      // A tablet left open at a fair for days still learns about new versions.
      if (registration) setInterval(() => void registration.update(), UPDATE_CHECK_MS);
    },
  });
  const busy = useSyncExternalStore(
    subscribeQuestionnaireActivity,
    isQuestionnaireInProgress,
    () => false,
  );
  if (!needRefresh || busy) return null;
  return (
    <div
      role="alertdialog"
      aria-labelledby="update-titel"
      aria-describedby="update-text"
      className="fixed right-4 bottom-4 z-50 max-w-sm rounded-xl border border-brand-200 bg-white p-4 shadow-lg"
    >
      <h2 id="update-titel" className="font-semibold text-brand-900">
        Neue Version verfügbar
      </h2>
      <p id="update-text" className="mt-1 text-sm text-slate-700">
        Laden Sie die Seite neu, um sie zu verwenden. Gespeicherte Anfragen bleiben erhalten.
      </p>
      <div className="mt-3 flex gap-3">
        <button
          type="button"
          onClick={() => void updateServiceWorker(true)}
          className="min-h-11 rounded-lg bg-brand-700 px-4 font-semibold text-white"
        >
          Jetzt neu laden
        </button>
        <button
          type="button"
          onClick={() => setNeedRefresh(false)}
          className="min-h-11 rounded-lg px-4 font-semibold text-brand-800 underline-offset-4 hover:underline"
        >
          Später
        </button>
      </div>
    </div>
  );
}

const HINT_SEEN_KEY = 'hinweis:installieren-gesehen';

function isIosSafariInBrowser(): boolean {
  const nav = navigator as Navigator & { standalone?: boolean };
  const ios =
    /iPad|iPhone|iPod/.test(nav.userAgent) ||
    // iPadOS presents itself as a Mac with touch.
    (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1);
  const standalone = nav.standalone === true || matchMedia('(display-mode: standalone)').matches;
  return ios && !standalone;
}

function hintSeen(): boolean {
  try {
    return localStorage.getItem(HINT_SEEN_KEY) === 'ja';
  } catch {
    return true;
  }
}

/**
 * Safari deletes a site's stored data after 7 days without a visit, waiting leads included;
 * an app on the home screen keeps it. Told once, on iPad and iPhone Safari only.
 */
export function InstallHint() {
  const [visible, setVisible] = useState(() => isIosSafariInBrowser() && !hintSeen());
  if (!visible) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(HINT_SEEN_KEY, 'ja');
    } catch {
      // Without storage the hint may come again; that is all.
    }
    setVisible(false);
  };
  return (
    <aside
      aria-label="Hinweis zur Installation"
      className="fixed inset-x-4 bottom-4 z-40 mx-auto max-w-lg rounded-xl border border-brand-200 bg-white p-4 text-sm shadow-lg"
    >
      <p>
        <strong>Tipp:</strong> Fügen Sie diese Seite über „Teilen“ → „Zum Home-Bildschirm“ hinzu. So
        bleiben Anfragen, die noch auf das Senden warten, sicher gespeichert: Safari löscht
        Website-Daten nach 7 Tagen ohne Nutzung.
      </p>
      <button
        type="button"
        onClick={dismiss}
        className="mt-2 min-h-11 font-semibold text-brand-800 underline"
      >
        Verstanden
      </button>
    </aside>
  );
}

/** The update prompt and the install hint together: the public pages' notices island. */
export function PwaNotices() {
  return (
    <>
      <UpdatePrompt />
      <InstallHint />
    </>
  );
}
