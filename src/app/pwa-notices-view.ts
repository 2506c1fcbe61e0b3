// What the PWA notices say and when, shared by the app shell's React notices (pwa-notices.tsx)
// and the prerendered pages' plain DOM ones (pwa-notices-dom.ts).

/** A tablet left open at a fair for days still learns about new versions. */
export const updateCheckMs = 60 * 60 * 1000;

export const updatePromptText = {
  title: 'Neue Version verfügbar',
  text: 'Laden Sie die Seite neu, um sie zu verwenden. Gespeicherte Anfragen bleiben erhalten.',
  reload: 'Jetzt neu laden',
  later: 'Später',
} as const;

export const updatePromptClassNames = {
  dialog:
    'fixed right-4 bottom-4 z-50 max-w-sm rounded-xl border border-brand-200 bg-white p-4 shadow-lg',
  title: 'font-semibold text-brand-900',
  text: 'mt-1 text-sm text-slate-700',
  buttons: 'mt-3 flex gap-3',
  reload: 'min-h-11 rounded-lg bg-brand-700 px-4 font-semibold text-white',
  later: 'min-h-11 rounded-lg px-4 font-semibold text-brand-800 underline-offset-4 hover:underline',
} as const;

export const installHintText = {
  label: 'Hinweis zur Installation',
  tip: 'Tipp:',
  text:
    ' Fügen Sie diese Seite über „Teilen“ → „Zum Home-Bildschirm“ hinzu. So bleiben Anfragen, ' +
    'die noch auf das Senden warten, sicher gespeichert: Safari löscht Website-Daten nach 7 Tagen ' +
    'ohne Nutzung.',
  dismiss: 'Verstanden',
} as const;

export const installHintClassNames = {
  aside:
    'fixed inset-x-4 bottom-4 z-40 mx-auto max-w-lg rounded-xl border border-brand-200 bg-white p-4 text-sm shadow-lg',
  dismiss: 'mt-2 min-h-11 font-semibold text-brand-800 underline',
} as const;

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
export function installHintWanted(): boolean {
  return isIosSafariInBrowser() && !hintSeen();
}

export function rememberInstallHintSeen(): void {
  try {
    localStorage.setItem(HINT_SEEN_KEY, 'ja');
  } catch {
    // Without storage the hint may come again; that is all.
  }
}
