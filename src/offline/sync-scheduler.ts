import { hubConnection } from '../api/hub-connection.ts';
import { readDeviceSetting, subscribeDeviceSettings } from './device-settings.ts';
import { unlockedKioskKey } from './kiosk-session.ts';
import { openSealed } from './lead-seal.ts';
import { offlineDb } from './offline-db.ts';
import type { OutboxSubmission, SealedOutboxItem } from './offline-schema.ts';
import { getSetting } from './outbox-db.ts';
import { decideSend, readDeviceRule, type SendDecision } from './send-rule.ts';
import { nextSyncDelay, recordOfflineWait, syncOutbox, type SyncReport } from './sync-engine.ts';
import { publishSyncReport } from './sync-reports.ts';

export { onSyncReport } from './sync-reports.ts';

let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<SyncReport | undefined> | undefined;
let started = false;

/**
 * The sending rule as this page reads it: the stored rule (IndexedDB, where every tab and the
 * service worker read it too), and the simulation if either the store or this page's mirror has
 * it on (fail closed: the mirror may be ahead of a store that failed to write). The browser's
 * online state is the page's own.
 */
export async function pageSendDecision(): Promise<SendDecision> {
  const stored = await readDeviceRule((key) => getSetting(offlineDb(), key));
  const rule = stored && {
    ...stored,
    simulateOffline: stored.simulateOffline || readDeviceSetting('simulateOffline'),
  };
  return decideSend(rule, { online: globalThis.navigator?.onLine !== false });
}

const mayPost = async () => (await pageSendDecision()).send;

/** Opens sealed leads while this page holds the fair tablet's unlocked key; else none. */
function unsealer(): ((item: SealedOutboxItem) => Promise<OutboxSubmission>) | undefined {
  const key = unlockedKioskKey();
  if (!key) return undefined;
  return (item) => openSealed(key.privateKey, key.publicKey, item.sealed, item.client_id);
}

async function run(force: boolean): Promise<SyncReport | undefined> {
  const db = offlineDb();
  // A short-cut only: the engine asks the rule again before every request.
  if (!(await mayPost())) {
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
      mayPost,
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
  // The simulation switched off, here or in another tab: send at once. The mirror changes only
  // after the store has (device-settings.ts), so the run that follows reads the new rule.
  let simulating = readDeviceSetting('simulateOffline');
  subscribeDeviceSettings(() => {
    const now = readDeviceSetting('simulateOffline');
    if (simulating && !now) force();
    simulating = now;
  });
  if (sendNow) force();
}
