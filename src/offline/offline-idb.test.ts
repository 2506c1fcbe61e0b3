import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enqueue, retryRejected } from './outbox.ts';
import { openOfflineDb, type OfflineDb } from './outbox-db.ts';
import { onOfflineDbChange, peekOutbox, storeDefinition } from './offline-idb.ts';
import type { OutboxSubmission } from './offline-schema.ts';
import { createKioskKeys, sealSubmission } from './lead-seal.ts';

const opened: OfflineDb[] = [];
const dbName = () => `idb-${crypto.randomUUID()}`;

function open(name: string): OfflineDb {
  const db = openOfflineDb(name);
  opened.push(db);
  return db;
}

function lead(clientId: string) {
  return { client_id: clientId, form_id: 1, source: 'contact' as const, email: 'a@example.de' };
}

function databaseExists(name: string): Promise<boolean> {
  return indexedDB.databases().then((all) => all.some((db) => db.name === name));
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((db) => db.delete()));
});

describe('peekOutbox', () => {
  it("reads an empty outbox on a first visit and creates the database Dexie's way", async () => {
    const name = dbName();
    expect(await databaseExists(name)).toBe(false);
    const warn = vi.spyOn(console, 'warn');
    expect(await peekOutbox(name)).toEqual({ waiting: 0, sealed: 0, rejected: [] });
    expect(await databaseExists(name)).toBe(true);
    const db = open(name);
    await enqueue(db, lead('first'), 1);
    expect(warn).not.toHaveBeenCalled();
    expect(await peekOutbox(name)).toEqual({ waiting: 1, sealed: 0, rejected: [] });
  });

  it('counts what Dexie queued and lists the rejected leads, oldest first', async () => {
    const name = dbName();
    const db = open(name);
    await enqueue(db, lead('a'), 1);
    await enqueue(db, lead('b'), 2);
    await enqueue(db, lead('c'), 3);
    await db.outbox.update('c', { status: 'rejected', last_error: 'Abgelehnt' });
    await db.outbox.update('a', { status: 'rejected', last_error: 'Abgelehnt' });

    const peek = await peekOutbox(name);
    expect(peek.waiting).toBe(1);
    expect(peek.rejected.map((item) => item.client_id)).toEqual(['a', 'c']);
  });

  it('counts the waiting leads sealed in kiosk mode apart', async () => {
    const name = dbName();
    const db = open(name);
    const { keys } = await createKioskKeys('123456', { iterations: 1_000 });
    const seal = (submission: OutboxSubmission) => sealSubmission(keys.publicKey, submission);
    await enqueue(db, lead('plain'), 1);
    await enqueue(db, lead('s1'), 2, seal);
    await enqueue(db, lead('s2'), 3, seal);

    expect(await peekOutbox(name)).toEqual({ waiting: 3, sealed: 2, rejected: [] });
  });
});

describe('storeDefinition', () => {
  it('creates the database on a first visit with the schema Dexie then opens unchanged', async () => {
    const name = dbName();
    const warn = vi.spyOn(console, 'warn');
    await storeDefinition({ form_id: 1, questions: [{ id: 7 }], fetched_at: 10 }, name);

    const db = open(name);
    expect(await db.definitions.get(1)).toEqual({
      form_id: 1,
      questions: [{ id: 7 }],
      fetched_at: 10,
    });
    // Dexie compares the stored schema with its own and says so when they differ.
    expect(warn).not.toHaveBeenCalled();
    expect(db.verno).toBe(1);
    expect(db.backendDB().version).toBe(10);
    // Every index the outbox queries works on the natively created stores.
    await enqueue(db, lead('x'), 5);
    expect(await db.outbox.where('[status+next_attempt_at]').above(['waiting', 0]).count()).toBe(1);
    expect(await peekOutbox(name)).toEqual({ waiting: 1, sealed: 0, rejected: [] });
  });

  it('writes into a database Dexie created', async () => {
    const name = dbName();
    const db = open(name);
    await enqueue(db, lead('y'), 1);
    db.close();
    await storeDefinition({ form_id: 2, questions: [], fetched_at: 1 }, name);
    await db.open();
    expect(await db.definitions.get(2)).toMatchObject({ form_id: 2 });
    expect(await db.outbox.count()).toBe(1);
  });
});

describe('onOfflineDbChange', () => {
  it("hears Dexie's changes, so the header's count follows queued and retried leads", async () => {
    const name = dbName();
    const db = open(name);
    await db.open();
    const heard = vi.fn();
    const stop = onOfflineDbChange(heard);

    await enqueue(db, lead('z'), 1);
    await vi.waitFor(() => expect(heard).toHaveBeenCalled());
    heard.mockClear();
    await db.outbox.update('z', { status: 'rejected' });
    await retryRejected(db, 'z');
    await vi.waitFor(() => expect(heard).toHaveBeenCalled());

    stop();
    heard.mockClear();
    await enqueue(db, lead('w'), 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).not.toHaveBeenCalled();
  });
});
