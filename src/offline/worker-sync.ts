// What the service worker does on a Background Sync event (sw/sw.ts), apart from the worker so
// that it can be tested: the same outbox code as the page, under the same lock, asking the same
// sending rule (send-rule.ts) before every request, read from IndexedDB with the worker's Dexie.

import type { HubConnection } from '../api/hub-client.ts';
import { getSetting, type OfflineDb } from './outbox-db.ts';
import { decideSend, readDeviceRule, type HoldReason } from './send-rule.ts';
import { recordOfflineWait, syncOutboxWhenFree, type SyncOptions } from './sync-engine.ts';
import type { SyncLockManager } from './sync-lock.ts';

export interface WorkerSyncOptions extends HubConnection {
  db: OfflineDb;
  now?: () => number;
  random?: () => number;
  /** The Web Locks manager (navigator.locks unless given). */
  lock?: SyncLockManager;
  /** How long to wait for another sender's lock (syncOutboxWhenFree's default: 30 × 1 s). */
  retry?: Parameters<typeof syncOutboxWhenFree>[1];
}

/** Thrown to make the browser fire the sync event again later. */
export class SendLaterError extends Error {
  override readonly name = 'SendLaterError';
}

/**
 * Sends the outbox for a sync event. The event means "the connection is back", so the browser's
 * online state is not asked; a request that fails anyway counts as failed. Held by the simulation,
 * it ends as done (switching the simulation off sends from the page that did it); failed
 * requests and an unreadable rule throw SendLaterError, which asks the browser to try again.
 * Sealed leads stay waiting: the worker never holds fair mode's key.
 */
export async function sendOutboxFromWorker(options: WorkerSyncOptions): Promise<void> {
  const { db } = options;
  let held: HoldReason | undefined;
  const mayPost = async () => {
    const rule = await readDeviceRule((key) => getSetting(db, key));
    const decision = decideSend(rule, { online: true });
    held = decision.send ? undefined : decision.reason;
    return decision.send;
  };
  const later = () => new SendLaterError('Die Anfragen werden später erneut gesendet.');
  // A short-cut only: the engine asks again before every request, after waiting for the lock too.
  if (!(await mayPost())) {
    await recordOfflineWait(db);
    if (held === 'unreadable') throw later();
    return;
  }
  const sync: SyncOptions = {
    fetch: options.fetch,
    hubUrl: options.hubUrl,
    db,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    force: true,
    mayPost,
    ...(options.lock ? { lock: options.lock } : {}),
  };
  const report = await syncOutboxWhenFree(sync, options.retry);
  if (report.failed > 0 || (report.held && held === 'unreadable')) throw later();
}
