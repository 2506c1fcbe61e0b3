import type { HubConnection } from '../api/hub-client.ts';
import { postBatch } from '../api/post-batch.ts';
import { submissionLimits, type SubmissionResult } from '../domain/submission.ts';
import { nextRetryDelay } from './backoff.ts';
import type { OfflineDb } from './outbox-db.ts';
import {
  lastDeliveryKey,
  type LastDelivery,
  type OutboxItem,
  type OutboxItemFields,
  type OutboxSubmission,
  type SealedLead,
  type SealedOutboxItem,
} from './offline-schema.ts';
import { withSyncLock, type SyncLockManager } from './sync-lock.ts';

/** The hub connection (the page's or the worker's fetch), the outbox and how to run. */
export interface SyncOptions extends HubConnection {
  db: OfflineDb;
  now: () => number;
  random: () => number;
  timeoutMs?: number;
  /** Send every waiting lead now, ignoring backoff (a "Jetzt senden" button, `online`). */
  force?: boolean;
  lock?: SyncLockManager;
  /** Leads per request, 1 to 50 (the default); the byte limit applies as well. */
  batchSize?: number;
  /**
   * Opens a lead sealed on a fair tablet; only a page unlocked with the PIN has one. Without it
   * (a locked page, the service worker) sealed leads are left waiting as they are, not failed.
   */
  unseal?: (item: SealedOutboxItem) => Promise<OutboxSubmission>;
  /**
   * The sending rule (src/offline/send-rule.ts): asked inside the lock right before every request.
   * False, or a failure to answer, holds the rest of the run on the device (`held` in the report).
   */
  mayPost: () => Promise<boolean>;
}

/** A lead ready to post: a sealed one opened in memory, never written back so. */
type OpenItem = OutboxItemFields & { submission: OutboxSubmission; sealed?: SealedLead };

export interface SyncReport {
  /** Leads the hub stored in this run. */
  sent: number;
  /** Leads the hub already had (an earlier send whose answer was lost). */
  duplicate: number;
  /** Leads the hub refused in this run; they stay on the device, marked rejected. */
  rejected: number;
  /** Leads in a request that failed as a whole; they wait for the next attempt. */
  failed: number;
  /** Another tab or the service worker was already sending. */
  skipped: boolean;
  /** The sending rule held (part of) this run: simulated, offline or unreadable. */
  held: boolean;
  /** Leads still waiting after this run, due or not. */
  remaining: number;
}

export const defaultSyncTimeoutMs = 15_000;

// The hub takes batch bodies up to 1 MiB; staying well below leaves room for proxies that count
// differently and for the request envelope.
export const maxBatchBytes = 900 * 1024;

// What the outbox adds to the api layer's account of a failure: nothing is lost, only delayed.
const retryLater = 'Sie wird automatisch erneut gesendet.';

type BatchOutcome =
  | { kind: 'results'; results: Map<string, SubmissionResult> }
  | { kind: 'rejected'; code: string; message: string }
  | { kind: 'failed'; message: string };

/**
 * Sends due leads to the hub, oldest first, in batches; one sender at a time (Web Locks).
 *
 * Per lead: created or duplicate -> deleted; rejected -> kept and marked, never blocking the rest.
 * A batch that fails as a whole (network, timeout, 429, 5xx, a 200 that is not the hub's answer)
 * stays waiting with backoff, and the run stops: the next batch would most likely fail the same.
 */
export async function syncOutbox(options: SyncOptions): Promise<SyncReport> {
  const { db } = options;
  const report: SyncReport = {
    sent: 0,
    duplicate: 0,
    rejected: 0,
    failed: 0,
    skipped: false,
    held: false,
    remaining: 0,
  };
  const locked = await withSyncLock(() => sendDue(options, report), options.lock);
  if (locked.skipped) report.skipped = true;
  report.remaining = await db.outbox.where('status').equals('waiting').count();
  return report;
}

/**
 * For the service worker's sync event, which means "the connection is back now": when another
 * sender holds the lock (a tab, or the worker's own run from an earlier event still waiting on a
 * request), wait and try again instead of ending the event as done, which would leave the leads
 * to a later trigger. Gives up after `attempts` runs; the outbox keeps everything.
 */
export async function syncOutboxWhenFree(
  options: SyncOptions,
  retry: { attempts: number; delayMs: number; sleep?: (ms: number) => Promise<void> } = {
    attempts: 30,
    delayMs: 1_000,
  },
): Promise<SyncReport> {
  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let report = await syncOutbox(options);
  for (let attempt = 1; report.skipped && attempt < retry.attempts; attempt += 1) {
    await sleep(retry.delayMs);
    report = await syncOutbox(options);
  }
  return report;
}

async function sendDue(options: SyncOptions, report: SyncReport): Promise<void> {
  const { db, now } = options;
  const due = await openItems(options, await dueItems(db, now(), options.force === true), report);
  const limit = batchLimit(options.batchSize);
  for (let start = 0; start < due.length;) {
    // The rule may have changed since the last request (a tester switched the simulation on).
    if (!(await mayPost(options))) {
      report.held = true;
      await recordOfflineWait(db);
      return;
    }
    const batch = takeBatch(due, start, limit);
    start += batch.length;
    // Built before the mark below: this request still says what was true until now.
    const submissions = batch.map(postedSubmission);
    await markWaited(db, batch);
    const outcome = await sendBatch(options, submissions);
    if (outcome.kind === 'failed') {
      report.failed += batch.length;
      await postpone(options, batch, due.slice(start), outcome.message);
      return;
    }
    await settle(options, batch, outcome, report);
  }
}

async function mayPost(options: SyncOptions): Promise<boolean> {
  try {
    return (await options.mayPost()) === true;
  } catch {
    return false;
  }
}

async function dueItems(db: OfflineDb, now: number, force: boolean): Promise<OutboxItem[]> {
  const items = await db.outbox
    .where('[status+next_attempt_at]')
    .between(['waiting', -Infinity], ['waiting', force ? Infinity : now], true, true)
    .toArray();
  return items.sort(
    (a, b) =>
      a.created_at - b.created_at ||
      (a.client_id < b.client_id ? -1 : a.client_id > b.client_id ? 1 : 0),
  );
}

const unreadable =
  'Die verschlüsselte Anfrage lässt sich auf diesem Gerät nicht mehr öffnen und kann nicht ' +
  'gesendet werden.';

/**
 * The due leads with their submissions: plain ones as stored, sealed ones opened with `unseal`
 * or, without it, left out (they keep waiting, and have waited). A sealed lead the device's own key cannot open
 * was altered: no later attempt would open it, so it is marked rejected for the agent to see.
 */
async function openItems(
  options: SyncOptions,
  items: OutboxItem[],
  report: SyncReport,
): Promise<OpenItem[]> {
  const open: OpenItem[] = [];
  const broken: string[] = [];
  const held: string[] = [];
  for (const item of items) {
    if (item.sealed === undefined) {
      open.push(item);
      continue;
    }
    if (!options.unseal) {
      if (item.waited_offline !== true) held.push(item.client_id);
      continue;
    }
    try {
      open.push({ ...item, submission: await options.unseal(item) });
    } catch {
      broken.push(item.client_id);
    }
  }
  // Held back by the lock, like a device offline: it did not reach the hub when it was due.
  if (held.length > 0) {
    await options.db.outbox.where('client_id').anyOf(held).modify({ waited_offline: true });
  }
  if (broken.length > 0) {
    await options.db.outbox.where('client_id').anyOf(broken).modify({
      status: 'rejected',
      last_error: unreadable,
      rejected_code: 'sealed_unreadable',
    });
    report.rejected += broken.length;
  }
  return open;
}

/**
 * What is posted for a lead: the submission as it was queued, and whether it waited on the
 * device. A lead queued before the flag existed waited if an attempt to send it had failed.
 */
export function postedSubmission(item: OpenItem): OutboxSubmission {
  return { ...item.submission, waited_offline: item.waited_offline ?? item.attempts > 0 };
}

/**
 * Marks leads as having waited, before the request that carries them: should it bring no answer
 * (no connection, timeout, the page closed meanwhile), the lead was not handed over at its first
 * attempt, and its next request says so. A lead the hub stored meanwhile keeps its first record
 * there (the flag is no part of the duplicate check). Leads another tab deleted stay deleted.
 */
async function markWaited(db: OfflineDb, items: readonly OutboxItemFields[]): Promise<void> {
  const fresh = items.filter((item) => item.waited_offline !== true).map((item) => item.client_id);
  if (fresh.length === 0) return;
  await db.outbox.where('client_id').anyOf(fresh).modify({ waited_offline: true });
}

/**
 * The device holds its leads back ('Offline simulieren', or the browser says it is offline):
 * every lead waiting now has waited offline, however soon the connection returns.
 */
export async function recordOfflineWait(db: OfflineDb): Promise<void> {
  await db.outbox
    .where('status')
    .equals('waiting')
    .and((item) => item.waited_offline !== true)
    .modify({ waited_offline: true });
}

const encoder = new TextEncoder();
const envelopeBytes = encoder.encode('{"submissions":[]}').length;

/** `batchSize` clamped to 1..50; 50 when not given. */
function batchLimit(batchSize: number | undefined): number {
  const max = submissionLimits.maxBatchItems;
  if (batchSize === undefined || Number.isNaN(batchSize)) return max;
  return Math.min(max, Math.max(1, Math.floor(batchSize)));
}

/**
 * Up to `limit` leads and ~900 KB from `start`; at least one, so an oversized lead meets its 413.
 */
function takeBatch(items: OpenItem[], start: number, limit: number): OpenItem[] {
  const batch: OpenItem[] = [];
  let bytes = envelopeBytes;
  for (let i = start; i < items.length && batch.length < limit; i += 1) {
    const item = items[i];
    if (item === undefined) break;
    const itemBytes = encoder.encode(JSON.stringify(postedSubmission(item))).length + 1;
    if (batch.length > 0 && bytes + itemBytes > maxBatchBytes) break;
    batch.push(item);
    bytes += itemBytes;
  }
  return batch;
}

/**
 * The outbox's policy on the api layer's answer: a request refused as a whole (400, 413, 415)
 * marks its leads rejected, since sending it again would fail the same; every other failure,
 * including a whole-request 404 or 409 that only a proxy or a misrouted address gives, leaves
 * them waiting.
 */
async function sendBatch(
  options: SyncOptions,
  submissions: OutboxSubmission[],
): Promise<BatchOutcome> {
  const reply = await postBatch(options, submissions, options.timeoutMs ?? defaultSyncTimeoutMs);
  if (reply.ok) return { kind: 'results', results: reply.data };
  const { kind, code, message } = reply.failure;
  if (kind === 'refused') return { kind: 'rejected', code, message };
  return { kind: 'failed', message: `${message} ${retryLater}` };
}

/**
 * One transaction per batch for all its results. Updates never recreate a lead: without Web Locks another tab may
 * have sent and deleted it meanwhile.
 */
async function settle(
  options: SyncOptions,
  batch: OutboxItemFields[],
  outcome: Exclude<BatchOutcome, { kind: 'failed' }>,
  report: SyncReport,
): Promise<void> {
  const { db } = options;
  const done: string[] = [];
  const rejected: { clientId: string; code: string; message: string }[] = [];
  for (const item of batch) {
    const result = outcome.kind === 'results' ? outcome.results.get(item.client_id) : undefined;
    if (result === undefined || result.status === 'rejected') {
      const error = result?.error ?? (outcome.kind === 'rejected' ? outcome : undefined);
      if (error === undefined) continue;
      rejected.push({ clientId: item.client_id, code: error.code, message: error.message });
    } else {
      done.push(item.client_id);
      if (result.status === 'created') report.sent += 1;
      else report.duplicate += 1;
    }
  }
  // The whole batch's results in one transaction and two bulk operations, not one request per
  // lead: a tab closed halfway leaves either all of them recorded or none (sent again, answered
  // as duplicates). bulkUpdate, like update, skips leads another tab deleted meanwhile. The
  // delivery record counts in the same transaction, so it never disagrees with the outbox.
  await db.transaction('rw', db.outbox, db.settings, async () => {
    const delivered = (await db.outbox.bulkGet(done)).filter((item) => item !== undefined).length;
    await db.outbox.bulkDelete(done);
    await db.outbox.bulkUpdate(
      rejected.map(({ clientId, code, message }) => ({
        key: clientId,
        changes: { status: 'rejected' as const, last_error: message, rejected_code: code },
      })),
    );
    if (delivered > 0) await countDelivery(db, delivered, options.now());
  });
  report.rejected += rejected.length;
}

/**
 * Adds delivered leads to the record of what went since the outbox last ran empty (enqueue()
 * starts it again when a lead is queued into an empty outbox). Inside settle's transaction.
 */
async function countDelivery(db: OfflineDb, delivered: number, at: number): Promise<void> {
  const before = (await db.settings.get(lastDeliveryKey))?.value as
    Partial<LastDelivery> | undefined;
  const sent = Number.isInteger(before?.sent) ? (before?.sent as number) : 0;
  const value: LastDelivery = { sent: sent + delivered, at };
  await db.settings.put({ key: lastDeliveryKey, value });
}

/**
 * The failed batch backs off; leads of this run that were not tried yet move to the failed
 * batch's earliest retry, so a scheduler does not fire again at once against a hub that is down.
 * All of them have waited offline: this run could not hand them over.
 */
async function postpone(
  options: SyncOptions,
  failed: OutboxItemFields[],
  untried: OutboxItemFields[],
  message: string,
): Promise<void> {
  const { db, random } = options;
  const now = options.now();
  const failedIds = failed.map((item) => item.client_id);
  let earliestRetry = Infinity;
  await db.transaction('rw', db.outbox, async () => {
    await db.outbox
      .where('client_id')
      .anyOf(failedIds)
      .and((item) => item.status === 'waiting')
      .modify((item) => {
        item.attempts += 1;
        item.waited_offline = true;
        item.next_attempt_at = now + nextRetryDelay(item.attempts, random);
        item.last_error = message;
        earliestRetry = Math.min(earliestRetry, item.next_attempt_at);
      });
    if (untried.length === 0) return;
    await db.outbox
      .where('client_id')
      .anyOf(untried.map((item) => item.client_id))
      .and((item) => item.status === 'waiting')
      .modify((item) => {
        item.waited_offline = true;
        if (item.next_attempt_at < earliestRetry && earliestRetry !== Infinity) {
          item.next_attempt_at = earliestRetry;
        }
      });
  });
}

/**
 * Milliseconds until the earliest waiting lead is due (0 when one is due now), or null. Sealed
 * leads count only when `sealed` is true (the page can open them): a locked tablet would
 * otherwise wake up every second for leads it cannot send.
 */
export async function nextSyncDelay(
  db: OfflineDb,
  now: number,
  { sealed = true }: { sealed?: boolean } = {},
): Promise<number | null> {
  const first = await db.outbox
    .where('[status+next_attempt_at]')
    .between(['waiting', -Infinity], ['waiting', Infinity], true, true)
    .filter((item) => sealed || item.sealed === undefined)
    .first();
  return first === undefined ? null : Math.max(0, first.next_attempt_at - now);
}
