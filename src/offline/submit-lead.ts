import { requestBackgroundSync } from './background-sync.ts';
import { readDeviceSetting } from './device-settings.ts';
import { offlineDb } from './offline-db.ts';
import { enqueue, OutboxWriteError } from './outbox.ts';
import type { OutboxSubmissionKeys } from './offline-schema.ts';
import { startSyncScheduler, syncNow } from './sync-scheduler.ts';

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
    // The fair tablet seals every lead before it is stored (only with a PIN set); loaded only
    // there, so visitors' phones fetch none of it.
    const seal = readDeviceSetting('kiosk')
      ? await import('./kiosk-lock.ts')
          .then(({ kioskSealer }) => kioskSealer(db))
          .catch((cause: unknown) => {
            throw new OutboxWriteError(cause);
          })
      : undefined;
    await enqueue(db, submission, Date.now(), seal);
  } catch (error) {
    if (error instanceof OutboxWriteError) return { status: 'failed', message: error.message };
    throw error;
  }
  // Safe on this device from here on, whether or not the hub answers before the tab closes.
  options.onStored?.();
  requestPersistence();
  void requestBackgroundSync();
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

// Browsers may evict an origin's storage under pressure unless it is persistent; ask once, at
// the first lead this page queues (asking earlier gets refused by the heuristics anyway).
function requestPersistence() {
  if (persistenceRequested) return;
  persistenceRequested = true;
  void globalThis.navigator?.storage?.persist?.().catch(() => false);
}
