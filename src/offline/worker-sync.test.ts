import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SubmissionResult } from '../domain/submission.ts';
import { questionnaireLead } from '../testing/lead-fixtures.ts';
import { enqueue } from './outbox.ts';
import { openOfflineDb, putSetting, type OfflineDb } from './outbox-db.ts';
import { syncOutbox } from './sync-engine.ts';
import { createInProcessLocks } from './sync-lock.ts';
import { SendLaterError, sendOutboxFromWorker } from './worker-sync.ts';

// The service worker's Background Sync: it has no localStorage and no page around it. What holds
// it is the rule stored in IndexedDB, read inside the lock before every request.

const hubUrl = 'https://hub.example/';

let db: OfflineDb;
let posted: string[];
let hubDown: boolean;
/** Each request waits for this before the hub answers. */
let answerWhen: Promise<void>;

function hubFetch(_url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const { submissions } = JSON.parse(String(init?.body)) as {
    submissions: { client_id: string }[];
  };
  posted.push(...submissions.map((s) => s.client_id));
  if (hubDown) return Promise.reject(new TypeError('Failed to fetch'));
  const results: SubmissionResult[] = submissions.map(({ client_id }, index) => ({
    index,
    client_id,
    status: 'created',
    id: index + 1,
  }));
  return answerWhen.then(
    () =>
      new Response(JSON.stringify({ results }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  );
}

beforeEach(() => {
  db = openOfflineDb(`worker-${crypto.randomUUID()}`);
  posted = [];
  hubDown = false;
  answerWhen = Promise.resolve();
});

afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

async function queue(): Promise<string> {
  const lead = questionnaireLead();
  await enqueue(db, lead, Date.now());
  return lead.client_id;
}

const noWait = { attempts: 30, delayMs: 0, sleep: () => Promise.resolve() };

function worker(extra: Partial<Parameters<typeof sendOutboxFromWorker>[0]> = {}) {
  return sendOutboxFromWorker({ db, fetch: hubFetch, hubUrl, retry: noWait, ...extra });
}

describe('the service worker on a sync event', () => {
  it('sends what waits while the rule allows it', async () => {
    const id = await queue();
    await putSetting(db, 'simulateOffline', false);
    await worker();
    expect(posted).toEqual([id]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('holds when IndexedDB says "Offline simulieren", with nothing else saying so', async () => {
    const id = await queue();
    await putSetting(db, 'simulateOffline', true);

    await expect(worker()).resolves.toBeUndefined();

    expect(posted).toEqual([]);
    expect(await db.outbox.get(id)).toMatchObject({ status: 'waiting', waited_offline: true });
  });

  it('reads the rule again after waiting for the lock: switched on meanwhile, it sends nothing', async () => {
    const lock = createInProcessLocks();
    const first = await queue();
    // A page's run holds the lock, its request under way.
    let answer!: () => void;
    answerWhen = new Promise((resolve) => (answer = resolve));
    const page = syncOutbox({
      db,
      fetch: hubFetch,
      hubUrl,
      now: Date.now,
      random: Math.random,
      lock,
      mayPost: () => Promise.resolve(true),
    });
    await expect.poll(() => posted).toEqual([first]);
    const second = await queue();

    // The worker waits for the lock; meanwhile a tester switches the simulation on.
    const done = worker({
      lock,
      retry: {
        attempts: 30,
        delayMs: 0,
        sleep: async () => {
          await putSetting(db, 'simulateOffline', true);
          answer();
          await page;
        },
      },
    });

    await expect(done).resolves.toBeUndefined();
    expect(posted).toEqual([first]);
    expect(await db.outbox.get(second)).toMatchObject({ status: 'waiting', waited_offline: true });
  });

  it('holds on a rule it cannot read, and asks the browser to try again later', async () => {
    await queue();
    await putSetting(db, 'simulateOffline', 'an');

    await expect(worker()).rejects.toBeInstanceOf(SendLaterError);
    expect(posted).toEqual([]);
  });

  it('asks the browser to try again when a request fails', async () => {
    const id = await queue();
    hubDown = true;
    await expect(worker()).rejects.toBeInstanceOf(SendLaterError);
    expect(posted).toEqual([id]);
    expect(await db.outbox.get(id)).toMatchObject({ status: 'waiting', attempts: 1 });
  });
});
