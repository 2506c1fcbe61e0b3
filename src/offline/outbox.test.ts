import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { questionnaireLead } from '../testing/lead-fixtures.ts';
import { openOfflineDb, type OfflineDb } from './outbox-db.ts';
import {
  countWaiting,
  enqueue,
  listRejected,
  OutboxWriteError,
  removeRejected,
  retryRejected,
} from './outbox.ts';

let db: OfflineDb;

beforeEach(() => {
  db = openOfflineDb(`test-${crypto.randomUUID()}`);
});

afterEach(async () => {
  vi.restoreAllMocks();
  db.close();
  await Dexie.delete(db.name);
});

const lead = questionnaireLead;

async function markRejected(clientId: string) {
  await db.outbox.update(clientId, {
    status: 'rejected',
    attempts: 2,
    last_error: 'Die Angaben sind unvollständig oder ungültig.',
    rejected_code: 'validation_failed',
  });
}

describe('enqueue', () => {
  it('stores one waiting record, due at once, with the submission as plain JSON', async () => {
    const submission = lead({ birthdate: undefined, captured_at: new Date(Date.UTC(2025, 4, 1)) });
    const { birthdate: _, ...plain } = submission;
    expect(await enqueue(db, submission, 1_000)).toBe('queued');

    const stored = await db.outbox.get(submission.client_id);
    expect(stored).toEqual({
      client_id: submission.client_id,
      // As JSON: the date becomes its ISO text, the undefined field is left out.
      submission: { ...plain, captured_at: '2025-05-01T00:00:00.000Z' },
      form_id: 1,
      source: 'questionnaire',
      status: 'waiting',
      attempts: 0,
      // Queued, not yet held back: it has not waited offline (yet).
      waited_offline: false,
      next_attempt_at: 1_000,
      created_at: 1_000,
      last_error: null,
      rejected_code: null,
    });
    expect(await countWaiting(db)).toBe(1);
  });

  it('treats the same client_id twice as one lead, keeping the first', async () => {
    const submission = lead();
    expect(await enqueue(db, submission, 1_000)).toBe('queued');
    expect(await enqueue(db, { ...submission, first_name: 'Max' }, 2_000)).toBe('already-queued');

    expect(await db.outbox.count()).toBe(1);
    expect((await db.outbox.get(submission.client_id))?.submission?.first_name).toBe(
      submission.first_name,
    );
  });

  it('reports a full device as OutboxWriteError with a German message and the cause', async () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    vi.spyOn(db.outbox, 'add').mockRejectedValue(quota);

    const error = await enqueue(db, lead()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutboxWriteError);
    const writeError = error as OutboxWriteError;
    expect(writeError.message).toMatch(
      /^Die Anfrage konnte auf diesem Gerät nicht gespeichert werden\. .*Speicher/,
    );
    expect(writeError.quotaExceeded).toBe(true);
    // Dexie wraps the browser's exception and keeps it as `inner`.
    expect(writeError.cause).toMatchObject({ name: 'QuotaExceededError', inner: quota });
    expect(await db.outbox.count()).toBe(0);
  });

  it('reports a closed database as OutboxWriteError', async () => {
    db.close();

    const error = await enqueue(db, lead()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutboxWriteError);
    expect((error as OutboxWriteError).quotaExceeded).toBe(false);
    expect((error as OutboxWriteError).message).toMatch(
      /^Die Anfrage konnte auf diesem Gerät nicht gespeichert werden\./,
    );
    expect((error as OutboxWriteError).cause).toMatchObject({ name: 'DatabaseClosedError' });
  });

  it('refuses a submission without client_id before touching the database', async () => {
    await expect(enqueue(db, { ...lead(), client_id: '' })).rejects.toBeInstanceOf(TypeError);
  });
});

describe('rejected leads', () => {
  it('are listed oldest first and not counted as waiting', async () => {
    const older = lead();
    const newer = lead();
    const waiting = lead();
    await enqueue(db, newer, 2_000);
    await enqueue(db, older, 1_000);
    await enqueue(db, waiting, 3_000);
    await markRejected(newer.client_id);
    await markRejected(older.client_id);

    const rejected = await listRejected(db);
    expect(rejected.map((item) => item.client_id)).toEqual([older.client_id, newer.client_id]);
    expect(rejected[0]).toMatchObject({
      status: 'rejected',
      last_error: 'Die Angaben sind unvollständig oder ungültig.',
      rejected_code: 'validation_failed',
    });
    expect(await countWaiting(db)).toBe(1);
  });

  it('can be put back in the queue, due at once with a fresh backoff', async () => {
    const submission = lead();
    await enqueue(db, submission, 1_000);
    await markRejected(submission.client_id);

    expect(await retryRejected(db, submission.client_id, 5_000)).toBe(true);

    expect(await db.outbox.get(submission.client_id)).toMatchObject({
      status: 'waiting',
      attempts: 0,
      next_attempt_at: 5_000,
      created_at: 1_000,
      last_error: null,
      rejected_code: null,
    });
    expect(await retryRejected(db, submission.client_id, 6_000)).toBe(false);
    expect(await retryRejected(db, crypto.randomUUID())).toBe(false);
  });

  it('can be removed, while a waiting lead cannot', async () => {
    const rejected = lead();
    const waiting = lead();
    await enqueue(db, rejected);
    await enqueue(db, waiting);
    await markRejected(rejected.client_id);

    expect(await removeRejected(db, waiting.client_id)).toBe(false);
    expect(await removeRejected(db, rejected.client_id)).toBe(true);
    expect(await removeRejected(db, rejected.client_id)).toBe(false);
    expect((await db.outbox.toArray()).map((item) => item.client_id)).toEqual([waiting.client_id]);
  });
});
