import type { OfflineDb } from './outbox-db.ts';
import {
  lastDeliveryKey,
  type OutboxItem,
  type OutboxSubmission,
  type OutboxSubmissionKeys,
  type SealedLead,
} from './offline-schema.ts';

const notSaved = 'Die Anfrage konnte auf diesem Gerät nicht gespeichert werden.';
const writeErrorMessages = {
  quota:
    `${notSaved} Der Speicher des Geräts ist voll. ` +
    'Bitte geben Sie Speicherplatz frei und senden Sie die Anfrage erneut.',
  other:
    `${notSaved} Bitte senden Sie die Anfrage erneut. ` +
    'Falls das nicht hilft, verlassen Sie den privaten Modus des Browsers.',
} as const;

/**
 * Writing to the device's storage failed (storage full, private mode, database closed). The UI
 * shows `message` and keeps the visitor's input, since nothing was queued.
 */
export class OutboxWriteError extends Error {
  override readonly name = 'OutboxWriteError';
  readonly quotaExceeded: boolean;

  constructor(cause: unknown) {
    const quotaExceeded = isQuotaExceeded(cause);
    super(quotaExceeded ? writeErrorMessages.quota : writeErrorMessages.other, { cause });
    this.quotaExceeded = quotaExceeded;
  }
}

function isQuotaExceeded(error: unknown): boolean {
  // Dexie wraps the DOMException; the original sits in `inner`, sometimes behind an AbortError.
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    if (typeof current !== 'object') return false;
    if ((current as { name?: unknown }).name === 'QuotaExceededError') return true;
    current = (current as { inner?: unknown }).inner;
  }
  return false;
}

async function writing<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw new OutboxWriteError(error);
  }
}

export type EnqueueResult = 'queued' | 'already-queued';

/**
 * Queues one lead in one transaction. A `client_id` already in the outbox is left alone, so a
 * double tap on "Absenden" or a retried save never makes two leads. With `seal` (a fair tablet
 * with a PIN) only the sealed lead is stored, none of its fields in clear. The first lead queued
 * into an empty outbox (nothing waiting) starts a new count of delivered leads (sync-engine.ts).
 */
export async function enqueue<T extends OutboxSubmissionKeys>(
  db: OfflineDb,
  submission: T,
  now: number = Date.now(),
  seal?: (submission: OutboxSubmission) => Promise<SealedLead>,
): Promise<EnqueueResult> {
  if (typeof submission.client_id !== 'string' || submission.client_id === '') {
    throw new TypeError('Eine Einsendung braucht eine client_id.');
  }
  // Stored as plain JSON so that what waits on the device is byte for byte what will be posted
  // (no undefined fields, no Date objects that structured clone would keep).
  const payload = JSON.parse(JSON.stringify(submission)) as OutboxSubmission;
  // Sealed before the transaction: IndexedDB commits a transaction that waits on other work.
  const content = seal ? { sealed: await writing(() => seal(payload)) } : { submission: payload };
  const item: OutboxItem = {
    client_id: payload.client_id,
    ...content,
    form_id: payload.form_id,
    source: payload.source,
    status: 'waiting',
    attempts: 0,
    waited_offline: false,
    next_attempt_at: now,
    created_at: now,
    last_error: null,
    rejected_code: null,
  };
  return writing(() =>
    db.transaction('rw', db.outbox, db.settings, async (): Promise<EnqueueResult> => {
      if ((await db.outbox.get(item.client_id)) !== undefined) return 'already-queued';
      if ((await countWaiting(db)) === 0) await db.settings.delete(lastDeliveryKey);
      await db.outbox.add(item);
      return 'queued';
    }),
  );
}

export function countWaiting(db: OfflineDb): Promise<number> {
  return db.outbox.where('status').equals('waiting').count();
}

/** Rejected leads, oldest first. */
export function listRejected(db: OfflineDb): Promise<OutboxItem[]> {
  return db.outbox
    .where('[status+created_at]')
    .between(['rejected', -Infinity], ['rejected', Infinity], true, true)
    .toArray();
}

/** Deletes a rejected lead for good (never a waiting one). Returns whether it was removed. */
export function removeRejected(db: OfflineDb, clientId: string): Promise<boolean> {
  return writing(() =>
    db.transaction('rw', db.outbox, async () => {
      const item = await db.outbox.get(clientId);
      if (item?.status !== 'rejected') return false;
      await db.outbox.delete(clientId);
      return true;
    }),
  );
}

/** Puts a rejected lead back in the queue, due at once. Returns whether there was one. */
export function retryRejected(
  db: OfflineDb,
  clientId: string,
  now: number = Date.now(),
): Promise<boolean> {
  return writing(async () => {
    const changed = await db.outbox
      .where('client_id')
      .equals(clientId)
      .and((item) => item.status === 'rejected')
      .modify({
        status: 'waiting',
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        rejected_code: null,
      });
    return changed > 0;
  });
}
