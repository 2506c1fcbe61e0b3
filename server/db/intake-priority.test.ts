import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../tests/helpers/postgres.ts';
import { openDatabase, postgresBackgroundConnections, type Database } from './database.ts';

// Lead intake stays first in line while the desk reads: the gateway's work (and the lead-mail
// job's) is `background`. These tests hold the database with background work that waits for a
// gate, so the order is decided by the queue, not by timing.

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('PGlite: the hub before background work', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({});
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('runs a lead’s statements before desk reads that were queued earlier', async () => {
    const order: string[] = [];
    const held = gate();
    const started = gate();
    const running = db.transaction(
      async (tx) => {
        started.open();
        await held.opened;
        await tx.query('select 1');
        order.push('desk-running');
      },
      { background: true },
    );
    // Background work starts a turn of the event loop after it is queued: wait until it runs.
    await started.opened;
    const desk = [1, 2, 3].map((n) =>
      db.transaction(
        async (tx) => {
          await tx.query('select 1');
          order.push(`desk-${n}`);
        },
        { background: true },
      ),
    );
    const lead = db.query('select 1').then(() => order.push('lead-lookup'));
    const leadTx = db.transaction(async (tx) => {
      await tx.query('select 1');
      order.push('lead-transaction');
    });
    held.open();
    await Promise.all([running, ...desk, lead, leadTx]);
    expect(order).toEqual([
      'desk-running',
      'lead-lookup',
      'lead-transaction',
      'desk-1',
      'desk-2',
      'desk-3',
    ]);
  });
});

describe('PostgreSQL: connections kept for the hub', () => {
  let server: TestPostgres;
  let db: Database;
  beforeAll(async () => {
    server = await startTestPostgres();
    db = await openDatabase({ databaseUrl: server.url() });
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    server?.stop();
  });

  it('stores a lead while background work holds every connection it may have', async () => {
    const held = gate();
    const started: number[] = [];
    // One more than background work may hold at once: the last waits for a slot.
    const desk = Array.from({ length: postgresBackgroundConnections + 1 }, (_, n) =>
      db.transaction(
        async (tx) => {
          started.push(n);
          await tx.query('select 1');
          await held.opened;
        },
        { background: true },
      ),
    );
    await expect.poll(() => started.length).toBe(postgresBackgroundConnections);

    // The hub's statement and transaction get a connection although the desk waits for one.
    await db.transaction(async (tx) => {
      await tx.query('create temporary table lead_probe (id int) on commit drop');
    });
    expect((await db.query<{ ok: number }>('select 1 as ok')).rows).toEqual([{ ok: 1 }]);
    expect(started).toHaveLength(postgresBackgroundConnections);

    held.open();
    await Promise.all(desk);
    expect(started).toHaveLength(postgresBackgroundConnections + 1);
  });
});
