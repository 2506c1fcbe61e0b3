import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { countRows, createTestHub, type TestHub } from '../../tests/helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../../tests/helpers/postgres.ts';
import type { Columns } from '../db/table-rows.ts';

// The batch endpoint stores a batch in one transaction with a savepoint per lead. These are the
// exactly-once promises the outbox relies on, on both databases the hub runs on: PGlite (one
// connection, transactions in turn) and PostgreSQL (truly concurrent transactions).
type Result = { index: number; status: string; client_id: string | null; error?: { code: string } };

function exactlyOnce(name: string, open: () => Promise<TestHub>, close: () => void = () => {}) {
  describe(`batch exactly once on ${name}`, () => {
    let hub: TestHub;
    beforeAll(async () => {
      hub = await open();
    }, 60_000);
    afterAll(async () => {
      await hub?.close();
      close();
    });

    const batch = async (submissions: unknown[]) => {
      const res = await hub.app.inject({
        method: 'POST',
        url: '/api/responses/batch',
        payload: { submissions },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { results: Result[] }).results;
    };
    const stored = async (clientIds: string[]) => {
      const result = await hub.db.query<{ n: number }>(
        'select count(*)::int as n from responses where client_id = any($1::uuid[])',
        [clientIds],
      );
      return result.rows[0]!.n;
    };

    it('keeps the others when a lead inside the batch is rejected, and writes nothing for it', async () => {
      const before = await countRows(hub.db, 'answers');
      const known = questionnaireLead();
      await batch([known]);
      const good = [questionnaireLead(), questionnaireLead()];
      // Refused by the database's rules, not the schema: the question belongs to no form 1.
      const unknownQuestion = questionnaireLead({ answers: [{ question_id: 999, answer: 'x' }] });
      const conflict = { ...known, city: 'Hamburg' };
      const results = await batch([good[0], unknownQuestion, conflict, good[1]]);
      expect(results.map((r) => r.status)).toEqual(['created', 'rejected', 'rejected', 'created']);
      expect(results[1]!.error?.code).toBe('unknown_question');
      expect(results[2]!.error?.code).toBe('conflict');
      expect(await stored(good.map((g) => g.client_id))).toBe(2);
      expect(await stored([unknownQuestion.client_id])).toBe(0);
      // Three answers each for known and the two good leads, none for the refused ones.
      expect(await countRows(hub.db, 'answers')).toBe(before + 9);
      // The conflicting lead changed nothing, not even the customer it names.
      const city = await hub.db.query<Columns<'users', 'city'>>(
        'select city from users where lower(email) = lower($1)',
        [known.email],
      );
      expect(city.rows[0]!.city).toBe(known.city);
    });

    it('after commit-then-drop, the same batch again is all duplicates and writes nothing', async () => {
      const leads = Array.from({ length: 20 }, () => questionnaireLead());
      // The first answer is "lost": the device never reads it and sends the batch again.
      await batch(leads);
      const answers = await countRows(hub.db, 'answers');
      const users = await countRows(hub.db, 'users');
      const again = await batch(leads);
      expect(again.every((r) => r.status === 'duplicate')).toBe(true);
      expect(await stored(leads.map((l) => l.client_id))).toBe(leads.length);
      expect(await countRows(hub.db, 'answers')).toBe(answers);
      expect(await countRows(hub.db, 'users')).toBe(users);
    });

    it('stores each lead once when two tabs send the same batch at the same time', async () => {
      const leads = Array.from({ length: 30 }, () => questionnaireLead());
      const answers = await countRows(hub.db, 'answers');
      const [a, b] = await Promise.all([batch(leads), batch([...leads].reverse())]);
      for (let i = 0; i < leads.length; i += 1) {
        const statuses = [a[i]!.status, b[leads.length - 1 - i]!.status].sort();
        expect(statuses).toEqual(['created', 'duplicate']);
      }
      expect(await stored(leads.map((l) => l.client_id))).toBe(leads.length);
      expect(await countRows(hub.db, 'answers')).toBe(answers + leads.length * 3);
    });

    it('answers a client_id twice in one batch as created, then duplicate', async () => {
      const lead = questionnaireLead();
      const results = await batch([lead, lead, { ...lead, city: 'Hamburg' }]);
      expect(results.map((r) => r.status)).toEqual(['created', 'duplicate', 'rejected']);
      expect(results[2]!.error?.code).toBe('conflict');
      expect(await stored([lead.client_id])).toBe(1);
    });
  });
}

exactlyOnce('PGlite', () => createTestHub());

let server: TestPostgres | undefined;
exactlyOnce(
  'PostgreSQL',
  async () => {
    server = await startTestPostgres();
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    await admin.query('create database hub');
    await admin.end();
    return createTestHub({ db: await openDatabase({ databaseUrl: server.url('hub') }) });
  },
  () => server?.stop(),
);
