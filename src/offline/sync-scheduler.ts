import { hubConnection } from '../api/hub-connection.ts';
import { readDeviceSetting, subscribeDeviceSettings } from './device-settings.ts';
import { unlockedKioskKey } from './kiosk-session.ts';
import { openSealed } from './lead-seal.ts';
import { offlineDb } from './offline-db.ts';
import type { OutboxSubmission, SealedOutboxItem } from './offline-schema.ts';
import { nextSyncDelay, recordOfflineWait, syncOutbox, type SyncReport } from './sync-engine.ts';
import { publishSyncReport } from './sync-reports.ts';

export { onSyncReport } from './sync-reports.ts';

let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<SyncReport | undefined> | undefined;
let started = false;

/** Why nothing was sent: the tester holds all sending, or the device says it is offline. */
function holdingBack(): boolean {
  return readDeviceSetting('simulateOffline') || globalThis.navigator?.onLine === false;
}

/** Opens sealed leads while this page holds the fair tablet's unlocked key; else none. */
function unsealer(): ((item: SealedOutboxItem) => Promise<OutboxSubmission>) | undefined {
  const key = unlockedKioskKey();
  if (!key) return undefined;
  return (item) => openSealed(key.privateKey, key.publicKey, item.sealed, item.client_id);
}

async function run(force: boolean): Promise<SyncReport | undefined> {
  const db = offlineDb();
  if (holdingBack()) {
    // A failed write only loses the flag, which the next held-back run records again.
    await recordOfflineWait(db).catch(() => undefined);
    return undefined;
  }
  try {
    const report = await syncOutbox({
      ...hubConnection(),
      db,
      now: Date.now,
      random: Math.random,
      force,
      unseal: unsealer(),
    });
    publishSyncReport(report);
    return report;
  } catch (error) {
    // IndexedDB itself failed (closed by the browser, storage cleared): try again later.
    publishSyncReport(undefined, error);
    return undefined;
  } finally {
    await scheduleNext();
  }
}

async function scheduleNext() {
  clearTimeout(timer);
  if (!started) return;
  const delay = await nextSyncDelay(offlineDb(), Date.now(), {
    sealed: unlockedKioskKey() !== undefined,
  }).catch(() => 30_000);
  // Another tab may hold the lock and finish the work; look again soon either way.
  if (delay !== null) timer = setTimeout(() => void syncNow(false), Math.max(delay, 1_000));
}

/**
 * Sends what waits in the outbox now. `force` also sends leads whose backoff has not run out:
 * for moments that suggest the connection is back (load, online, visible, a button).
 */
export async function syncNow(force: boolean): Promise<SyncReport | undefined> {
  if (inFlight) {
    await inFlight;
    if (!force) return undefined;
  }
  inFlight = run(force).finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

/**
 * Starts the page's sync triggers once: load (unless `sendNow` is false: the caller sends
 * itself), online, page visible again, and the timer.
 */
export function startSyncScheduler({ sendNow = true }: { sendNow?: boolean } = {}): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const force = () => void syncNow(true);
  window.addEventListener('online', force);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') force();
  });
  let simulating = readDeviceSetting('simulateOffline');
  subscribeDeviceSettings(() => {
    const now = readDeviceSetting('simulateOffline');
    if (simulating && !now) force();
    simulating = now;
  });
  if (sendNow) force();
}
