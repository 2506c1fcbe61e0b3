import {
  keepDeviceSettingsReconciled,
  readDeviceSetting,
  subscribeDeviceSettings,
} from '../offline/device-settings.ts';
import { warmDefinitionsLightly } from '../offline/definitions-warmup.ts';
import { onOfflineDbChange, peekOutbox } from '../offline/offline-idb.ts';

let started = false;

/**
 * What a visitor's device starts once the public site runs, without loading what the page does
 * not show: the questionnaires kept on the device (plain fetch and IndexedDB), and the outbox's
 * sender (Dexie, the hub client, zod) only once a lead waits: at load, when the connection or
 * the page comes back, or when a lead is queued here, in another tab or by the service worker.
 * Nothing here loads React or a page's code: each page's islands bring their own (a form's
 * fetched ahead when the page is idle, src/islands/loader.ts), and offline the service worker's
 * precache serves every screen's code. Safe to call again.
 */
export function startApp(): void {
  if (started || typeof window === 'undefined') return;
  started = true;

  let senderLoading = false;
  const stops: (() => void)[] = [];
  const startSender = () => {
    if (senderLoading) return;
    senderLoading = true;
    stops.forEach((stop) => stop());
    // The full start: the sync scheduler sends at once, then keeps its own triggers.
    void import('../offline/start-device.ts').then(
      ({ startDevice }) => startDevice(),
      () => {
        senderLoading = false;
      },
    );
  };
  const checkOutbox = () => {
    if (senderLoading) return;
    peekOutbox().then(
      ({ waiting }) => {
        if (waiting > 0) startSender();
      },
      () => undefined,
    );
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') checkOutbox();
  };
  window.addEventListener('online', checkOutbox);
  document.addEventListener('visibilitychange', onVisible);
  stops.push(
    () => window.removeEventListener('online', checkOutbox),
    () => document.removeEventListener('visibilitychange', onVisible),
    onOfflineDbChange(checkOutbox),
    subscribeDeviceSettings(checkOutbox),
  );

  // The device settings' mirror follows IndexedDB before anything is sent or shown from it (the
  // senders read IndexedDB themselves; this keeps the screens and the thank-you text right).
  void keepDeviceSettingsReconciled()
    .then(() => {
      // A fair tablet seals every lead with the lock's code: fetched while the page opens, so
      // that a connection lost before the visitor sends (or a document the service worker does
      // not control yet) cannot keep a lead from being stored. A visitor's phone never loads it.
      if (readDeviceSetting('kiosk'))
        void import('../offline/kiosk-lock.ts').catch(() => undefined);
    })
    .then(() => peekOutbox())
    .then(
      ({ waiting }) => {
        // startDevice warms the questionnaires itself; otherwise the light warm-up does.
        if (waiting > 0) startSender();
        else void warmDefinitionsLightly(workerInstalled).catch(() => undefined);
      },
      () => void warmDefinitionsLightly(workerInstalled).catch(() => undefined),
    );
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(resolve, ms))]);
}

/**
 * Resolves once the service worker is installed, i.e. its precache (every public screen's code)
 * is complete, or when there is none. The questionnaires' data is stored then: a questionnaire
 * counts as kept on the device when its screen opens offline too (route-error-page.tsx reloads
 * into the worker when this page itself is outside it).
 */
async function workerInstalled(): Promise<void> {
  const worker = globalThis.navigator?.serviceWorker;
  if (worker) await within(worker.ready, 15_000);
}
