import { requestBackgroundSync } from './background-sync.ts';
import { readDeviceSetting } from './device-settings.ts';
import { offlineDb } from './offline-db.ts';
import { kioskSettingKeys, type OutboxSubmissionKeys } from './offline-schema.ts';
import type { Sealer } from './kiosk-lock.ts';
import { getSetting, type OfflineDb } from './outbox-db.ts';
import { enqueue, OutboxWriteError } from './outbox.ts';
import { pageSendDecision, startSyncScheduler, syncNow } from './sync-scheduler.ts';

export type SubmitLeadOutcome =
  { status: 'sent' } | { status: 'queued' } | { status: 'failed'; message: string };

/** How long the visitor waits for the hub before the thank-you says "saved on this device". */
const CONFIRM_WAIT_MS = 8_000;
let persistenceRequested = false;

/**
 * The one way a screen hands over a lead (questionnaire, KFZ, contact): written to the outbox
 * on this device first, in one transaction, then sent. Whatever the network does, the lead is
 * safe once this returns 'sent' or 'queued'.
 */
export async function submitLead(
  submission: OutboxSubmissionKeys,
  options: { onStored?: () => void } = {},
): Promise<SubmitLeadOutcome> {
  const db = offlineDb();
  try {
    const seal = await kioskSeal(db);
    await enqueue(db, submission, Date.now(), seal);
  } catch (error) {
    if (error instanceof OutboxWriteError) return { status: 'failed', message: error.message };
    throw error;
  }
  // Safe on this device from here on, whether or not the hub answers before the tab closes.
  options.onStored?.();
  requestPersistence();
  // Background Sync wakes the service worker once the connection is back, even with every tab
  // closed: asked for unless the rule holds for another reason than the connection (the
  // simulation, or a rule it cannot read). The worker asks the rule again before it sends.
  const decision = await pageSendDecision();
  if (decision.send || decision.reason === 'offline') void requestBackgroundSync();
  // The sender's triggers (online, visible, the retry timer) run from the first queued lead on:
  // the public pages start them only when a lead waits, and this one may wait from now.
  startSyncScheduler({ sendNow: false });

  const sent = syncNow(true);
  const waited = await Promise.race([
    sent.then(() => 'done' as const),
    new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), CONFIRM_WAIT_MS)),
  ]);
  if (waited === 'timeout' || readDeviceSetting('simulateOffline')) return { status: 'queued' };

  const item = await db.outbox.get(submission.client_id).catch(() => undefined);
  if (!item) return { status: 'sent' };
  if (item.status === 'rejected') {
    return {
      status: 'failed',
      message: item.last_error ?? 'Die Angaben wurden nicht angenommen. Bitte prüfen Sie sie.',
    };
  }
  return { status: 'queued' };
}

/**
 * How a lead is stored here: sealed on a fair tablet with a PIN (its keys decide, not the kiosk
 * switch alone), as it is everywhere else. The lock's code is loaded only where keys exist, never
 * on a visitor's phone. Fails closed: a tablet whose keys cannot be read stores nothing.
 */
async function kioskSeal(db: OfflineDb): Promise<Sealer | undefined> {
  try {
    if ((await getSetting(db, kioskSettingKeys.keys)) === undefined) return undefined;
    const { kioskSealer } = await import('./kiosk-lock.ts');
    return await kioskSealer(db);
  } catch (cause) {
    throw new OutboxWriteError(cause);
  }
}

// Browsers may evict an origin's storage under pressure unless it is persistent; ask once, at
// the first lead this page queues (asking earlier gets refused by the heuristics anyway).
function requestPersistence() {
  if (persistenceRequested) return;
  persistenceRequested = true;
  void globalThis.navigator?.storage?.persist?.().catch(() => false);
}
