import { z } from 'zod';
import { submissionLimits, type SubmissionResult } from '../domain/submission.ts';
import { nextRetryDelay } from './backoff.ts';
import type { OfflineDb, OutboxItem } from './outbox-db.ts';
import { withSyncLock, type SyncLockManager } from './sync-lock.ts';

export interface SyncOptions {
  db: OfflineDb;
  fetch: typeof fetch;
  /** Origin (and base path) of the hub, without `/api`; '' for the serving origin. */
  hubUrl: string;
  now: () => number;
  random: () => number;
  timeoutMs?: number;
  /** Send every waiting lead now, ignoring backoff (a "Jetzt senden" button, `online`). */
  force?: boolean;
  lock?: SyncLockManager;
  /** Leads per request, 1 to 50 (the default); the byte limit applies as well. */
  batchSize?: number;
}

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
  /** Leads still waiting after this run, due or not. */
  remaining: number;
}

export const defaultSyncTimeoutMs = 15_000;

// The hub takes batch bodies up to 1 MiB; staying well below leaves room for proxies that count
// differently and for the request envelope.
export const maxBatchBytes = 900 * 1024;

const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});

const submissionResultSchema = z.discriminatedUnion('status', [
  z.object({
    index: z.number().int().nonnegative(),
    client_id: z.string(),
    status: z.enum(['created', 'duplicate']),
    id: z.number(),
  }),
  z.object({
    index: z.number().int().nonnegative(),
    client_id: z.string().nullable(),
    status: z.literal('rejected'),
    error: apiErrorSchema,
  }),
]) satisfies z.ZodType<SubmissionResult>;

const batchReplySchema = z.object({ results: z.array(submissionResultSchema) });
const errorReplySchema = z.object({ error: apiErrorSchema });

const retryLater = 'Sie wird automatisch erneut gesendet.';
const failureMessages = {
  network: `Keine Verbindung zum Server. ${retryLater}`,
  timeout: `Der Server hat nicht rechtzeitig geantwortet. ${retryLater}`,
  busy: `Der Server ist gerade ausgelastet. ${retryLater}`,
  server: `Der Server ist gerade nicht erreichbar. ${retryLater}`,
  foreign: `Die Antwort kam nicht vom Server (etwa von einer WLAN-Anmeldeseite). ${retryLater}`,
} as const;

const wholeBatchRejections: Record<number, { code: string; message: string }> = {
  400: { code: 'bad_request', message: 'Der Server hat die Anfrage als ungültig abgelehnt.' },
  413: { code: 'payload_too_large', message: 'Die Anfrage ist für den Server zu groß.' },
  415: { code: 'unsupported_media_type', message: 'Der Server hat das Format abgelehnt.' },
};

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
  const due = await dueItems(db, now(), options.force === true);
  const url = `${options.hubUrl.replace(/\/+$/, '')}/api/responses/batch`;
  const limit = batchLimit(options.batchSize);
  for (let start = 0; start < due.length;) {
    const batch = takeBatch(due, start, limit);
    start += batch.length;
    const outcome = await postBatch(options, url, batch);
    if (outcome.kind === 'failed') {
      report.failed += batch.length;
      await postpone(options, batch, due.slice(start), outcome.message);
      return;
    }
    await settle(db, batch, outcome, report);
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
function takeBatch(items: OutboxItem[], start: number, limit: number): OutboxItem[] {
  const batch: OutboxItem[] = [];
  let bytes = envelopeBytes;
  for (let i = start; i < items.length && batch.length < limit; i += 1) {
    const item = items[i];
    if (item === undefined) break;
    const itemBytes = encoder.encode(JSON.stringify(item.submission)).length + 1;
    if (batch.length > 0 && bytes + itemBytes > maxBatchBytes) break;
    batch.push(item);
    bytes += itemBytes;
  }
  return batch;
}

async function postBatch(
  options: SyncOptions,
  url: string,
  batch: OutboxItem[],
): Promise<BatchOutcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Raced as well as aborted: a fetch that ignores the signal must not hold the lock forever.
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timeout');
    }, options.timeoutMs ?? defaultSyncTimeoutMs);
  });
  // Called detached: a browser's fetch throws "Illegal invocation" when `this` is `options`.
  const send = options.fetch;
  const exchange = async () => {
    const response = await send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ submissions: batch.map((item) => item.submission) }),
      signal: controller.signal,
    });
    return { status: response.status, ok: response.ok, body: await response.text() };
  };
  try {
    const reply = await Promise.race([exchange(), timeout]);
    if (reply === 'timeout') return { kind: 'failed', message: failureMessages.timeout };
    return judgeReply(reply, batch);
  } catch {
    return {
      kind: 'failed',
      message: controller.signal.aborted ? failureMessages.timeout : failureMessages.network,
    };
  } finally {
    clearTimeout(timer);
  }
}

function judgeReply(
  reply: { status: number; ok: boolean; body: string },
  batch: OutboxItem[],
): BatchOutcome {
  const rejection = wholeBatchRejections[reply.status];
  if (rejection) {
    const parsed = errorReplySchema.safeParse(parseJson(reply.body));
    return parsed.success
      ? { kind: 'rejected', code: parsed.data.error.code, message: parsed.data.error.message }
      : { kind: 'rejected', ...rejection };
  }
  if (reply.status === 429) return { kind: 'failed', message: failureMessages.busy };
  // Anything else but a hub answer (5xx, a proxy's 403 or 404, a captive portal's HTML page) is
  // treated as "the hub was not reached": the leads wait, none is dropped or marked wrongly.
  if (!reply.ok) return { kind: 'failed', message: failureMessages.server };
  const parsed = batchReplySchema.safeParse(parseJson(reply.body));
  if (!parsed.success || parsed.data.results.length !== batch.length) {
    return { kind: 'failed', message: failureMessages.foreign };
  }
  const results = new Map<string, SubmissionResult>();
  for (const result of parsed.data.results) {
    const item = batch[result.index];
    if (item === undefined || result.client_id !== item.client_id || results.has(item.client_id)) {
      return { kind: 'failed', message: failureMessages.foreign };
    }
    results.set(item.client_id, result);
  }
  return { kind: 'results', results };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One transaction per batch. Updates never recreate a lead: without Web Locks another tab may
 * have sent and deleted it meanwhile.
 */
async function settle(
  db: OfflineDb,
  batch: OutboxItem[],
  outcome: Exclude<BatchOutcome, { kind: 'failed' }>,
  report: SyncReport,
): Promise<void> {
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
  await db.transaction('rw', db.outbox, async () => {
    await db.outbox.bulkDelete(done);
    for (const { clientId, code, message } of rejected) {
      await db.outbox.update(clientId, {
        status: 'rejected',
        last_error: message,
        rejected_code: code,
      });
    }
  });
  report.rejected += rejected.length;
}

/**
 * The failed batch backs off; leads of this run that were not tried yet move to the failed
 * batch's earliest retry, so a scheduler does not fire again at once against a hub that is down.
 */
async function postpone(
  options: SyncOptions,
  failed: OutboxItem[],
  untried: OutboxItem[],
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
        item.next_attempt_at = now + nextRetryDelay(item.attempts, random);
        item.last_error = message;
        earliestRetry = Math.min(earliestRetry, item.next_attempt_at);
      });
    if (untried.length === 0 || earliestRetry === Infinity) return;
    await db.outbox
      .where('client_id')
      .anyOf(untried.map((item) => item.client_id))
      .and((item) => item.status === 'waiting' && item.next_attempt_at < earliestRetry)
      .modify({ next_attempt_at: earliestRetry });
  });
}

/** Milliseconds until the earliest waiting lead is due (0 when one is due now), or null. */
export async function nextSyncDelay(db: OfflineDb, now: number): Promise<number | null> {
  const first = await db.outbox
    .where('[status+next_attempt_at]')
    .between(['waiting', -Infinity], ['waiting', Infinity], true, true)
    .first();
  return first === undefined ? null : Math.max(0, first.next_attempt_at - now);
}
