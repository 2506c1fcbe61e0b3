import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubmissionResult } from '../domain/submission.ts';
import { questionnaireLead } from '../testing/lead-fixtures.ts';
import { openOfflineDb, type OfflineDb } from './outbox-db.ts';
import { createKioskKeys, openSealed, sealSubmission } from './lead-seal.ts';
import { peekOutbox } from './offline-idb.ts';
import type { OutboxItem, OutboxSubmission, SealedOutboxItem } from './offline-schema.ts';
import { countWaiting, enqueue, listRejected } from './outbox.ts';
import {
  maxBatchBytes,
  nextSyncDelay,
  recordOfflineWait,
  syncOutbox,
  syncOutboxWhenFree,
  type SyncOptions,
} from './sync-engine.ts';
import type { SyncLockManager } from './sync-lock.ts';

const hubUrl = 'https://hub.example/';
const start = 1_700_000_000_000;

let db: OfflineDb;
let clock: number;

beforeEach(() => {
  db = openOfflineDb(`test-${crypto.randomUUID()}`);
  clock = start;
});

afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

const lead = questionnaireLead;

/** Queues `count` leads, one millisecond apart so their order is known. */
async function queue(count: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const submission = lead(extra);
    await enqueue(db, submission, clock - count + i);
    ids.push(submission.client_id);
  }
  return ids;
}

interface Call {
  url: string;
  init: RequestInit;
  clientIds: string[];
  /** Each posted lead's waited_offline, by client_id. */
  waited: Record<string, unknown>;
}

type Reply = Response | Promise<Response>;

/** A fetch standing in for the hub; `answer` decides each reply from the posted submissions. */
function fakeHub(answer: (submissions: { client_id: string }[], call: number) => Reply) {
  const calls: Call[] = [];
  const fetch = ((url: string, init: RequestInit) => {
    const { submissions } = JSON.parse(String(init.body)) as {
      submissions: { client_id: string; waited_offline?: unknown }[];
    };
    calls.push({
      url,
      init,
      clientIds: submissions.map((s) => s.client_id),
      waited: Object.fromEntries(submissions.map((s) => [s.client_id, s.waited_offline])),
    });
    return Promise.resolve().then(() => answer(submissions, calls.length));
  }) as typeof globalThis.fetch;
  return { fetch, calls, posted: () => calls.flatMap((call) => call.clientIds) };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The hub's answer: every lead created unless `statusOf` says otherwise. */
function results(
  submissions: { client_id: string }[],
  statusOf: (clientId: string) => 'created' | 'duplicate' | 'rejected' = () => 'created',
): Response {
  const list: SubmissionResult[] = submissions.map(({ client_id }, index) => {
    const status = statusOf(client_id);
    return status === 'rejected'
      ? {
          index,
          client_id,
          status,
          error: { code: 'validation_failed', message: 'Die Angaben sind unvollständig.' },
        }
      : { index, client_id, status, id: 100 + index };
  });
  return json({ results: list });
}

/** The sending rule as the engine asks it: sending allowed. */
const mayPost = () => Promise.resolve(true);

function sync(fetch: typeof globalThis.fetch, extra: Partial<SyncOptions> = {}) {
  return syncOutbox({ db, fetch, hubUrl, now: () => clock, random: () => 0.5, mayPost, ...extra });
}

async function item(clientId: string): Promise<OutboxItem | undefined> {
  return db.outbox.get(clientId);
}

describe('syncOutbox: the hub answers', () => {
  it('posts due leads as one batch and deletes the ones created', async () => {
    const first = lead();
    await enqueue(db, first, clock - 10);
    const ids = [first.client_id, ...(await queue(2))];
    const hub = fakeHub((submissions) => results(submissions));

    const report = await sync(hub.fetch);

    expect(report).toEqual({
      sent: 3,
      duplicate: 0,
      rejected: 0,
      failed: 0,
      skipped: false,
      held: false,
      remaining: 0,
    });
    expect(hub.calls).toHaveLength(1);
    const [call] = hub.calls;
    expect(call?.url).toBe('https://hub.example/api/responses/batch');
    expect(call?.init.method).toBe('POST');
    expect(new Headers(call?.init.headers).get('content-type')).toBe('application/json');
    expect(call?.init.signal).toBeInstanceOf(AbortSignal);
    expect(call?.clientIds).toEqual(ids);
    // As queued, and saying that it did not wait on the device.
    expect(JSON.parse(String(call?.init.body)).submissions[0]).toEqual({
      ...first,
      waited_offline: false,
    });
    expect(await db.outbox.count()).toBe(0);
  });

  it('calls fetch detached, as a browser fetch requires', async () => {
    await queue(1);
    const hub = fakeHub((submissions) => results(submissions));
    const strictFetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      return hub.fetch(...args);
    } as typeof globalThis.fetch;

    expect(await sync(strictFetch)).toMatchObject({ sent: 1, failed: 0 });
  });

  it('deletes leads the hub already had', async () => {
    await queue(2);
    const hub = fakeHub((submissions) => results(submissions, () => 'duplicate'));

    const report = await sync(hub.fetch);

    expect(report).toMatchObject({ sent: 0, duplicate: 2, remaining: 0 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('keeps a rejected lead with the hub message and still sends the others', async () => {
    const [first, bad, last] = await queue(3);
    const hub = fakeHub((submissions) =>
      results(submissions, (id) => (id === bad ? 'rejected' : 'created')),
    );

    const report = await sync(hub.fetch);

    expect(report).toMatchObject({ sent: 2, rejected: 1, failed: 0, remaining: 0 });
    expect(await item(first!)).toBeUndefined();
    expect(await item(last!)).toBeUndefined();
    expect(await item(bad!)).toMatchObject({
      status: 'rejected',
      last_error: 'Die Angaben sind unvollständig.',
      rejected_code: 'validation_failed',
    });

    clock += 60 * 60_000;
    const again = await sync(hub.fetch, { force: true });
    expect(hub.calls).toHaveLength(1);
    expect(again).toMatchObject({ sent: 0, rejected: 0, remaining: 0 });
    expect(await listRejected(db)).toHaveLength(1);
  });

  it('marks the whole batch rejected on a 400 or 413, so it never loops', async () => {
    const [a, b] = await queue(2);
    const hub = fakeHub(() =>
      json({ error: { code: 'validation_failed', message: 'Höchstens 50 Einsendungen.' } }, 400),
    );

    const report = await sync(hub.fetch);

    expect(report).toMatchObject({ sent: 0, rejected: 2, failed: 0, remaining: 0 });
    for (const id of [a, b]) {
      expect(await item(id!)).toMatchObject({
        status: 'rejected',
        last_error: 'Höchstens 50 Einsendungen.',
        rejected_code: 'validation_failed',
      });
    }
  });

  it('gives a German message of its own when a 413 comes without the hub JSON', async () => {
    const [id] = await queue(1);
    const hub = fakeHub(
      () => new Response('<h1>413 Request Entity Too Large</h1>', { status: 413 }),
    );

    await sync(hub.fetch);

    expect(await item(id!)).toMatchObject({
      status: 'rejected',
      last_error: 'Die Anfrage ist für den Server zu groß.',
      rejected_code: 'payload_too_large',
    });
  });
});

describe('syncOutbox: the hub is not reached', () => {
  async function expectRetried(fetch: typeof globalThis.fetch, extra: Partial<SyncOptions> = {}) {
    const ids = await queue(2);

    const report = await sync(fetch, extra);

    expect(report).toMatchObject({ sent: 0, rejected: 0, failed: 2, remaining: 2 });
    for (const id of ids) {
      const stored = await item(id);
      expect(stored).toMatchObject({ status: 'waiting', attempts: 1, rejected_code: null });
      // random 0.5 -> three quarters of the first 5 s step.
      expect(stored?.next_attempt_at).toBe(clock + 3_750);
      expect(stored?.last_error).toMatch(/erneut gesendet/);
    }
    return ids;
  }

  it('retries after a 5xx with backoff, and sends once due again', async () => {
    let down = true;
    const hub = fakeHub((submissions) =>
      down ? json({ error: { code: 'internal', message: 'Fehler' } }, 503) : results(submissions),
    );
    await expectRetried(hub.fetch);

    down = false;
    expect(await sync(hub.fetch)).toMatchObject({ sent: 0, failed: 0, remaining: 2 });
    expect(hub.calls).toHaveLength(1);

    clock += 3_750;
    expect(await sync(hub.fetch)).toMatchObject({ sent: 2, remaining: 0 });
    expect(hub.calls).toHaveLength(2);
  });

  it('counts up the attempts on every failure', async () => {
    const [id] = await queue(1);
    const hub = fakeHub(() => new Response('', { status: 502 }));
    for (let i = 0; i < 3; i += 1) {
      await sync(hub.fetch, { force: true });
    }
    expect(await item(id!)).toMatchObject({ attempts: 3, next_attempt_at: clock + 15_000 });
  });

  it('retries after a 429', async () => {
    await expectRetried(
      fakeHub(() => json({ error: { code: 'rate_limited', message: 'Zu viele' } }, 429)).fetch,
    );
  });

  it('retries after a network error', async () => {
    await expectRetried(() => Promise.reject(new TypeError('fetch failed')));
  });

  it('retries after a timeout, aborting the request', async () => {
    let signal: AbortSignal | undefined;
    const hanging = ((_url: string, init: RequestInit) => {
      signal = init.signal ?? undefined;
      return new Promise<Response>(() => {});
    }) as typeof globalThis.fetch;

    await expectRetried(hanging, { timeoutMs: 20 });

    expect(signal?.aborted).toBe(true);
  });

  it('retries when the body never finishes arriving', async () => {
    const stalled = new ReadableStream<Uint8Array>({ start() {} });
    await expectRetried(fakeHub(() => new Response(stalled, { status: 200 })).fetch, {
      timeoutMs: 20,
    });
  });

  it('treats a captive portal page with status 200 as failure', async () => {
    await expectRetried(
      fakeHub(
        () =>
          new Response('<html><body>Bitte im WLAN anmelden</body></html>', {
            status: 200,
            headers: { 'content-type': 'text/html' },
          }),
      ).fetch,
    );
  });

  it('treats JSON of the wrong shape with status 200 as failure', async () => {
    await expectRetried(fakeHub(() => json({ ok: true })).fetch);
  });

  it('treats results that do not match the posted leads as failure', async () => {
    await expectRetried(fakeHub((submissions) => results(submissions.slice(0, 1))).fetch);
    clock += 60_000;
    const hub = fakeHub((submissions) =>
      results(submissions.map((s, i) => (i === 0 ? { client_id: crypto.randomUUID() } : s))),
    );
    expect(await sync(hub.fetch)).toMatchObject({ sent: 0, failed: 2, remaining: 2 });
  });

  it('stops after a failed batch and holds back the rest of the run', async () => {
    await queue(120);
    const hub = fakeHub(() => new Response('', { status: 500 }));

    const report = await sync(hub.fetch);

    expect(hub.calls).toHaveLength(1);
    expect(report).toMatchObject({ sent: 0, failed: 50, remaining: 120 });
    expect(await nextSyncDelay(db, clock)).toBe(3_750);
  });
});

describe("syncOutbox: the outbox's policy on the api layer's judgement", () => {
  const retry = 'Sie wird automatisch erneut gesendet.';

  it.each([
    [
      'no connection',
      () => Promise.reject(new TypeError('fetch failed')),
      `Keine Verbindung zum Server. ${retry}`,
    ],
    [
      'a 429',
      () => new Response('', { status: 429 }),
      `Der Server ist gerade ausgelastet. ${retry}`,
    ],
    [
      'a 503',
      () => new Response('', { status: 503 }),
      `Der Server ist gerade nicht erreichbar. ${retry}`,
    ],
    [
      "a captive portal's page",
      () => new Response('<html>WLAN</html>', { status: 200 }),
      `Die Antwort kam nicht vom Server (etwa von einer WLAN-Anmeldeseite). ${retry}`,
    ],
    // A whole-request 404 or 409 never comes from the hub's batch route (it answers per lead):
    // a proxy or a wrong address, so the leads wait.
    [
      'a 404',
      () => new Response('', { status: 404 }),
      `Diese Adresse gibt es beim Server nicht. ${retry}`,
    ],
    [
      'a 409',
      () => new Response('', { status: 409 }),
      `Die Anfrage widerspricht dem, was der Server schon gespeichert hat. ${retry}`,
    ],
    [
      "a proxy's 403",
      () => new Response('', { status: 403 }),
      `Der Server hat unerwartet geantwortet. ${retry}`,
    ],
  ] as const)('keeps the leads waiting after %s, saying why', async (_name, reply, message) => {
    const [id] = await queue(1);
    const report = await sync((() => Promise.resolve().then(reply)) as typeof globalThis.fetch);
    expect(report).toMatchObject({ failed: 1, rejected: 0, remaining: 1 });
    expect(await item(id!)).toMatchObject({ status: 'waiting', attempts: 1, last_error: message });
  });

  it.each([
    [400, 'bad_request', 'Der Server hat die Anfrage als ungültig abgelehnt.'],
    [413, 'payload_too_large', 'Die Anfrage ist für den Server zu groß.'],
    [415, 'unsupported_media_type', 'Der Server hat das Format abgelehnt.'],
  ])('marks the whole batch rejected after a bare %i', async (status, code, message) => {
    const [id] = await queue(1);
    const report = await sync(() => Promise.resolve(new Response('', { status })));
    expect(report).toMatchObject({ failed: 0, rejected: 1, remaining: 0 });
    expect(await item(id!)).toMatchObject({
      status: 'rejected',
      last_error: message,
      rejected_code: code,
    });
  });
});

describe('syncOutbox: what is sent when', () => {
  it('splits 120 leads into batches of 50, 50 and 20, oldest first', async () => {
    const ids = await queue(120);
    const hub = fakeHub((submissions) => results(submissions));

    const report = await sync(hub.fetch);

    expect(hub.calls.map((call) => call.clientIds.length)).toEqual([50, 50, 20]);
    expect(hub.posted()).toEqual(ids);
    expect(report).toMatchObject({ sent: 120, remaining: 0 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('sends at most batchSize leads per request', async () => {
    const ids = await queue(5);
    const hub = fakeHub((submissions) => results(submissions));

    const report = await sync(hub.fetch, { batchSize: 2 });

    expect(hub.calls.map((call) => call.clientIds.length)).toEqual([2, 2, 1]);
    expect(hub.calls.every((call) => call.url === 'https://hub.example/api/responses/batch')).toBe(
      true,
    );
    expect(hub.posted()).toEqual(ids);
    expect(report).toMatchObject({ sent: 5, remaining: 0 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('keeps every request body below the hub limit', async () => {
    await queue(5, { message: 'ü'.repeat(200_000) });
    const hub = fakeHub((submissions) => results(submissions));

    await sync(hub.fetch);

    expect(hub.calls.map((call) => call.clientIds.length)).toEqual([2, 2, 1]);
    for (const call of hub.calls) {
      expect(new TextEncoder().encode(String(call.init.body)).length).toBeLessThanOrEqual(
        maxBatchBytes,
      );
    }
    expect(await db.outbox.count()).toBe(0);
  });

  it('does not send a lead before it is due, unless forced', async () => {
    const [id] = await queue(1);
    await db.outbox.update(id!, { attempts: 2, next_attempt_at: clock + 10_000 });
    const hub = fakeHub((submissions) => results(submissions));

    expect(await sync(hub.fetch)).toMatchObject({ sent: 0, remaining: 1 });
    expect(hub.calls).toHaveLength(0);

    expect(await sync(hub.fetch, { force: true })).toMatchObject({ sent: 1, remaining: 0 });
    expect(hub.posted()).toEqual([id]);
  });

  it('tells the scheduler when the next lead is due', async () => {
    expect(await nextSyncDelay(db, clock)).toBeNull();
    const [soon, later, rejected] = await queue(3);
    expect(await nextSyncDelay(db, clock)).toBe(0);

    await db.outbox.update(soon!, { next_attempt_at: clock + 4_000 });
    await db.outbox.update(later!, { next_attempt_at: clock + 9_000 });
    await db.outbox.update(rejected!, { status: 'rejected', next_attempt_at: clock + 1 });
    expect(await nextSyncDelay(db, clock)).toBe(4_000);
    expect(await countWaiting(db)).toBe(2);
  });
});

/** A stand-in for navigator.locks shared by "two tabs": one holder per name, ifAvailable only. */
function fakeWebLocks(): SyncLockManager & { requests: number } {
  const held = new Set<string>();
  const locks = {
    requests: 0,
    async request<T>(
      name: string,
      options: { ifAvailable: true },
      callback: (lock: unknown) => Promise<T>,
    ): Promise<T> {
      locks.requests += 1;
      if (!options.ifAvailable) throw new Error('only ifAvailable is faked');
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name, mode: 'exclusive' });
      } finally {
        held.delete(name);
      }
    },
  };
  return locks;
}

describe('syncOutbox: whether a lead waited offline', () => {
  /** Each posted lead's flag, request by request. */
  const flags = (hub: ReturnType<typeof fakeHub>) => hub.calls.map((call) => call.waited);

  it('says false for a lead handed over at its first attempt', async () => {
    const [id] = await queue(1);
    const hub = fakeHub((submissions) => results(submissions));
    await sync(hub.fetch);
    expect(flags(hub)).toEqual([{ [id!]: false }]);
  });

  it('says true once a request carrying the lead brought no answer', async () => {
    const [id] = await queue(1);
    let down = true;
    const hub = fakeHub((submissions) =>
      down ? Promise.reject(new TypeError('fetch failed')) : results(submissions),
    );
    expect(await sync(hub.fetch)).toMatchObject({ failed: 1 });
    down = false;
    expect(await sync(hub.fetch, { force: true })).toMatchObject({ sent: 1, remaining: 0 });
    expect(flags(hub)).toEqual([{ [id!]: false }, { [id!]: true }]);
  });

  it('marks the lead before its request, so a page closed meanwhile cannot lose the wait', async () => {
    const [id] = await queue(1);
    let storedDuringRequest: boolean | undefined;
    const hub = fakeHub(async (submissions) => {
      storedDuringRequest = (await item(id!))?.waited_offline;
      return results(submissions);
    });
    await sync(hub.fetch);
    expect(storedDuringRequest).toBe(true);
    expect(flags(hub)).toEqual([{ [id!]: false }]);
  });

  it('says true for the leads a failed run could not try', async () => {
    const ids = await queue(3);
    let down = true;
    const hub = fakeHub((submissions) =>
      down ? new Response('', { status: 503 }) : results(submissions),
    );
    await sync(hub.fetch, { batchSize: 1 });
    expect(hub.calls).toHaveLength(1);
    down = false;
    await sync(hub.fetch, { force: true });
    expect(Object.assign({}, ...flags(hub).slice(1))).toEqual(
      Object.fromEntries(ids.map((id) => [id, true])),
    );
  });

  it('keeps the same content for the hub: a resend after a lost answer differs in the flag only', async () => {
    const [id] = await queue(1);
    const hanging = fakeHub(() => new Promise<Response>(() => {}));
    await sync(hanging.fetch, { timeoutMs: 20 });
    const answering = fakeHub((submissions) => results(submissions, () => 'duplicate'));
    expect(await sync(answering.fetch, { force: true })).toMatchObject({ duplicate: 1 });
    const [first] = JSON.parse(String(hanging.calls[0]?.init.body)).submissions;
    const [again] = JSON.parse(String(answering.calls[0]?.init.body)).submissions;
    expect(first).toMatchObject({ client_id: id, waited_offline: false });
    expect(again).toEqual({ ...first, waited_offline: true });
  });

  it('records a held-back run for every waiting lead, not for rejected ones', async () => {
    const [waiting, rejected] = await queue(2);
    await db.outbox.update(rejected!, { status: 'rejected', rejected_code: 'validation_failed' });
    await recordOfflineWait(db);
    expect(await item(waiting!)).toMatchObject({ waited_offline: true });
    expect(await item(rejected!)).toMatchObject({ waited_offline: false });
    const hub = fakeHub((submissions) => results(submissions));
    await sync(hub.fetch);
    expect(flags(hub)).toEqual([{ [waiting!]: true }]);
  });

  it('judges a lead queued before the flag existed by its failed attempts', async () => {
    const [fresh, failedBefore] = await queue(2);
    for (const [id, attempts] of [
      [fresh!, 0],
      [failedBefore!, 2],
    ] as const) {
      const { waited_offline: _, ...old } = (await item(id))!;
      await db.outbox.put({ ...old, attempts });
    }
    const hub = fakeHub((submissions) => results(submissions));
    await sync(hub.fetch, { force: true });
    expect(flags(hub)).toEqual([{ [fresh!]: false, [failedBefore!]: true }]);
  });
});

describe('syncOutbox: the sending rule, asked before every request', () => {
  it('holds between batches when the rule turns to hold during a run', async () => {
    const ids = await queue(5);
    let allowed = true;
    const asked: number[] = [];
    const hub = fakeHub((submissions) => {
      // A tester switches the simulation on while the first request is under way.
      allowed = false;
      return results(submissions);
    });

    const report = await sync(hub.fetch, {
      batchSize: 2,
      mayPost: async () => {
        asked.push(hub.calls.length);
        return allowed;
      },
    });

    expect(hub.posted()).toEqual(ids.slice(0, 2));
    expect(asked).toEqual([0, 1]);
    expect(report).toMatchObject({ sent: 2, held: true, failed: 0, remaining: 3 });
    // Held like a device offline: the rest waited on the device, none failed.
    for (const id of ids.slice(2)) {
      expect(await item(id)).toMatchObject({
        status: 'waiting',
        attempts: 0,
        waited_offline: true,
      });
    }

    allowed = true;
    expect(await sync(hub.fetch, { mayPost: async () => allowed })).toMatchObject({
      sent: 3,
      held: false,
      remaining: 0,
    });
    expect(hub.posted()).toEqual(ids);
  });

  it('holds when the rule cannot answer', async () => {
    await queue(1);
    const hub = fakeHub((submissions) => results(submissions));
    const report = await sync(hub.fetch, {
      mayPost: () => Promise.reject(new Error('IndexedDB geschlossen')),
    });
    expect(report).toMatchObject({ sent: 0, held: true, remaining: 1 });
    expect(hub.calls).toEqual([]);
  });

  it('asks inside the lock: a sender that waited for it reads the rule the waiting did not see', async () => {
    await queue(2);
    const hub = fakeHub((submissions) => results(submissions));
    let allowed = true;
    let requests = 0;
    const lock: SyncLockManager = {
      async request(_name, _options, callback) {
        requests += 1;
        // Another tab holds the lock twice; meanwhile the simulation goes on.
        if (requests <= 2) {
          if (requests === 2) allowed = false;
          return callback(null);
        }
        return callback({ name: 'lock' });
      },
    };

    const report = await syncOutboxWhenFree(
      {
        db,
        fetch: hub.fetch,
        hubUrl,
        now: () => clock,
        random: () => 0.5,
        lock,
        force: true,
        mayPost: async () => allowed,
      },
      { attempts: 5, delayMs: 1_000, sleep: async () => undefined },
    );

    expect(requests).toBe(3);
    expect(report).toMatchObject({ skipped: false, held: true, sent: 0, remaining: 2 });
    expect(hub.calls).toEqual([]);
  });
});

describe('syncOutbox: what the device delivered since its outbox last ran empty', () => {
  const delivered = async () => (await peekOutbox(db.name)).lastDelivery;

  it('counts a drain, and starts again with the first lead queued into the empty outbox', async () => {
    const [duplicateId] = await queue(3);
    const hub = fakeHub((submissions) =>
      results(submissions, (id) => (id === duplicateId ? 'duplicate' : 'created')),
    );
    expect(await delivered()).toBeUndefined();

    clock += 1_000;
    await sync(hub.fetch, { batchSize: 2 });
    // The lead the hub already had arrived too.
    expect(await delivered()).toEqual({ sent: 3, at: clock });

    await queue(1);
    expect(await delivered()).toBeUndefined();
    clock += 5_000;
    await sync(hub.fetch);
    expect(await delivered()).toEqual({ sent: 1, at: clock });
  });

  it('adds up across runs while leads still wait, and leaves out rejected ones', async () => {
    const ids = await queue(4);
    let down = false;
    const hub = fakeHub((submissions) =>
      down
        ? json({ message: 'Wartung' }, 503)
        : results(submissions, (id) => (id === ids[1] ? 'rejected' : 'created')),
    );

    const firstAt = clock;
    await sync(hub.fetch, {
      batchSize: 2,
      mayPost: async () => {
        if (hub.calls.length === 1) down = true;
        return true;
      },
    });
    expect(await delivered()).toEqual({ sent: 1, at: firstAt });

    // Queued while leads wait: the count goes on.
    await queue(1);
    down = false;
    clock += 60_000;
    await sync(hub.fetch, { force: true });
    expect(await delivered()).toEqual({ sent: 4, at: clock });
    expect(await countWaiting(db)).toBe(0);
    expect((await listRejected(db)).map((rejected) => rejected.client_id)).toEqual([ids[1]]);
  });
});

describe('syncOutbox: one sender at a time', () => {
  it('skips a second sync while the first holds the lock; every lead is posted once', async () => {
    const ids = await queue(60);
    const lock = fakeWebLocks();
    let release!: () => void;
    const hubHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hub = fakeHub(async (submissions) => {
      await hubHeld;
      return results(submissions);
    });

    const tabA = sync(hub.fetch, { lock });
    await vi.waitFor(() => expect(hub.calls).toHaveLength(1));
    const b = await sync(hub.fetch, { lock, force: true });
    release();
    const a = await tabA;

    expect(lock.requests).toBe(2);
    expect(b).toMatchObject({ skipped: true, sent: 0 });
    expect(a).toMatchObject({ skipped: false, sent: 60, remaining: 0 });
    expect(hub.calls).toHaveLength(2);
    expect(hub.posted()).toEqual(ids);
    expect(new Set(hub.posted()).size).toBe(60);
  });

  it('lets the next sync run once the first is done', async () => {
    const lock = fakeWebLocks();
    await queue(1);
    const hub = fakeHub((submissions) => results(submissions));
    expect(await sync(hub.fetch, { lock })).toMatchObject({ skipped: false, sent: 1 });
    await queue(1);
    expect(await sync(hub.fetch, { lock })).toMatchObject({ skipped: false, sent: 1 });
  });
});

describe('syncOutboxWhenFree (the worker on a sync event)', () => {
  /** A lock that another sender holds for the first `busyFor` requests. */
  function busyLock(busyFor: number): SyncLockManager & { requests: number } {
    const locks = {
      requests: 0,
      async request<T>(
        _name: string,
        _options: { ifAvailable: true },
        callback: (lock: unknown) => Promise<T>,
      ): Promise<T> {
        locks.requests += 1;
        return callback(locks.requests <= busyFor ? null : { name: 'lock' });
      },
    };
    return locks;
  }

  it('waits while another sender holds the lock, then sends', async () => {
    const ids = await queue(2);
    const hub = fakeHub((submissions) => results(submissions));
    const lock = busyLock(2);
    const pauses: number[] = [];
    const report = await syncOutboxWhenFree(
      {
        db,
        fetch: hub.fetch,
        hubUrl,
        now: () => clock,
        random: () => 0.5,
        mayPost,
        lock,
        force: true,
      },
      { attempts: 5, delayMs: 1_000, sleep: async (ms) => void pauses.push(ms) },
    );
    expect(report).toMatchObject({ sent: 2, skipped: false, remaining: 0 });
    expect(hub.posted()).toEqual(ids);
    expect(lock.requests).toBe(3);
    expect(pauses).toEqual([1_000, 1_000]);
  });

  it('gives up after its attempts and keeps every lead', async () => {
    await queue(1);
    const hub = fakeHub((submissions) => results(submissions));
    const lock = busyLock(Infinity);
    const report = await syncOutboxWhenFree(
      { db, fetch: hub.fetch, hubUrl, now: () => clock, random: () => 0.5, mayPost, lock },
      { attempts: 3, delayMs: 10, sleep: async () => undefined },
    );
    expect(report).toMatchObject({ skipped: true, remaining: 1 });
    expect(lock.requests).toBe(3);
    expect(hub.calls).toEqual([]);
  });
});

describe('syncOutbox: leads sealed on a fair tablet', () => {
  const pin = '314159';

  async function sealedQueue(count: number) {
    const { keys, privateKey } = await createKioskKeys(pin, { iterations: 1_000 });
    const seal = (submission: OutboxSubmission) => sealSubmission(keys.publicKey, submission);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const submission = lead();
      await enqueue(db, submission, clock - count + i, seal);
      ids.push(submission.client_id);
    }
    const unseal = (item: SealedOutboxItem) =>
      openSealed(privateKey, keys.publicKey, item.sealed, item.client_id);
    return { ids, unseal };
  }

  it('without the key (locked page, service worker): skipped, neither sent nor failed', async () => {
    const plain = await queue(1);
    const { ids } = await sealedQueue(2);
    const hub = fakeHub((submissions) => results(submissions));

    const report = await sync(hub.fetch, { force: true });

    expect(hub.posted()).toEqual(plain);
    expect(report).toMatchObject({ sent: 1, failed: 0, rejected: 0, remaining: 2 });
    for (const id of ids) {
      expect(await item(id)).toMatchObject({
        status: 'waiting',
        attempts: 0,
        waited_offline: true,
      });
    }
    // A locked page's timer does not wake up for leads it cannot send.
    expect(await nextSyncDelay(db, clock, { sealed: false })).toBeNull();
    expect(await nextSyncDelay(db, clock)).toBe(0);
  });

  it('with the key: opened in memory, posted exactly once, deleted', async () => {
    const { ids, unseal } = await sealedQueue(3);
    const hub = fakeHub((submissions) => results(submissions));

    expect(await sync(hub.fetch, { unseal })).toMatchObject({ sent: 3, remaining: 0 });
    expect(await sync(hub.fetch, { unseal })).toMatchObject({ sent: 0, remaining: 0 });
    expect(hub.posted()).toEqual(ids);
    const body = JSON.parse(String(hub.calls[0]?.init.body)) as {
      submissions: { first_name: string }[];
    };
    expect(body.submissions.map((s) => s.first_name)).toEqual(['Jürgen', 'Jürgen', 'Jürgen']);
  });

  it('a sealed lead the key cannot open is marked rejected, the others are sent', async () => {
    const { ids, unseal } = await sealedQueue(2);
    const [broken = '', fine = ''] = ids;
    const stored = await item(broken);
    if (stored?.sealed === undefined) throw new Error('not sealed');
    await db.outbox.update(broken, {
      sealed: { ...stored.sealed, iv: stored.sealed.ct.slice(0, 16) },
    });
    const hub = fakeHub((submissions) => results(submissions));

    expect(await sync(hub.fetch, { unseal })).toMatchObject({ sent: 1, rejected: 1, remaining: 0 });
    expect(hub.posted()).toEqual([fine]);
    expect(await item(broken)).toMatchObject({
      status: 'rejected',
      rejected_code: 'sealed_unreadable',
    });
  });
});
