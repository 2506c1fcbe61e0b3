import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Queryable } from '../../server/db/database.ts';
import { setupTestDatabase } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';

// The new-lead mail's queue (migration 20261126120000_lead_mail.sql): the trigger on responses
// queues one row per lead in the lead's own transaction, only while the setting is on.

/** `count` leads in ONE insert statement, as the batch ingestion stores them. */
async function insertLeads(db: Queryable, count: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `insert into public.responses (client_id, payload_hash, form_id, source, first_name,
       last_name, email, phone, terms_accepted, data_processing_consent, create_date, changed_date)
     select gen_random_uuid(), 'hash', 1, 'questionnaire', 'Erika', 'Muster',
            'erika' || n || '@example.de', '+49 30 1', true, true, now(), now()
       from generate_series(1, $1::integer) n
     returning id`,
    [count],
  );
  return rows.map((row) => row.id);
}

const outboxCount = async (db: Database) =>
  (await db.query<{ n: number }>('select count(*)::integer as n from public.lead_mail_outbox'))
    .rows[0]!.n;

describe.each(['pglite', 'postgres'] as const)('lead mail queue on %s', (kind) => {
  let db: Database;
  let postgres: TestPostgres | undefined;

  beforeAll(async () => {
    if (kind === 'postgres') postgres = await startTestPostgres();
    db = await openDatabase(postgres ? { databaseUrl: postgres.url() } : {});
    await setupTestDatabase(db);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });
  beforeEach(async () => {
    await db.query('delete from public.lead_mail_outbox');
    await db.query(
      `update public.lead_mail_settings
          set enabled = true, address = 'makler@example.de', mode = 'immediate'`,
    );
  });

  it('queues one row per new lead, keyed by the lead', async () => {
    const [id] = await insertLeads(db, 1);
    const { rows } = await db.query<{ idempotency_key: string; kind: string; state: string }>(
      'select idempotency_key, kind, state from public.lead_mail_outbox where response_id = $1',
      [id],
    );
    expect(rows).toEqual([{ idempotency_key: `lead:${id}`, kind: 'immediate', state: 'pending' }]);
  });

  it('queues nothing for a lead whose transaction is rolled back', async () => {
    await expect(
      db.transaction(async (tx) => {
        await insertLeads(tx, 3);
        throw new Error('Abbruch');
      }),
    ).rejects.toThrow('Abbruch');
    expect(await outboxCount(db)).toBe(0);
  });

  it('queues 1000 rows for a batch of 1000 leads in one statement', async () => {
    const ids = await insertLeads(db, 1000);
    const { rows } = await db.query<{ n: number; distinct_leads: number }>(
      `select count(*)::integer as n, count(distinct response_id)::integer as distinct_leads
         from public.lead_mail_outbox where response_id = any($1::integer[])`,
      [ids],
    );
    expect(rows[0]).toEqual({ n: 1000, distinct_leads: 1000 });
  });

  it('queues nothing while the setting is off', async () => {
    await db.query('update public.lead_mail_settings set enabled = false');
    await insertLeads(db, 5);
    expect(await outboxCount(db)).toBe(0);
  });

  it('queues digest rows in digest mode', async () => {
    await db.query(`update public.lead_mail_settings set mode = 'digest', digest_hour = 7`);
    await insertLeads(db, 2);
    const { rows } = await db.query<{ kind: string }>(
      'select distinct kind from public.lead_mail_outbox',
    );
    expect(rows).toEqual([{ kind: 'digest' }]);
  });

  it('takes a waiting mail with the lead when the lead is erased', async () => {
    const [id] = await insertLeads(db, 1);
    expect(await outboxCount(db)).toBe(1);
    await db.query('delete from public.responses where id = $1', [id]);
    expect(await outboxCount(db)).toBe(0);
  });

  it('refuses an enabled setting without an address, and a malformed address', async () => {
    await expect(
      db.query('update public.lead_mail_settings set address = null, enabled = true'),
    ).rejects.toThrow();
    await expect(
      db.query(`update public.lead_mail_settings set address = 'kein-at-zeichen'`),
    ).rejects.toThrow();
    await expect(
      db.query('update public.lead_mail_settings set digest_hour = 24'),
    ).rejects.toThrow();
  });
});
