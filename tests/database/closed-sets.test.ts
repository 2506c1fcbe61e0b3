import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database as Db } from '../../server/db/database.ts';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import { migrationsDir } from '../../server/db/setup.ts';
import { Constants, type Database } from '../../src/domain/database.types.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The closed sets as enums (migration 20261128150000_closed_sets_as_enums.sql) on both
// databases: rows holding every value of every set keep their values through the migration, a
// value outside a set is refused, and through the gateway with the real supabase-js a write of
// an unknown value is refused with 400 as the text CHECK refused it, while a known one is stored.

const enumsMigration = '20261128150000';
const localSupabase = ['supabase-local.sql', 'supabase-local-storage.sql'].map((name) =>
  fileURLToPath(new URL(`../../server/db/${name}`, import.meta.url)),
);
const sets = Constants.public.Enums;

/** Every converted column with the set it holds, read back as text in a stable order. */
const columns = [
  ['questions', 'type', sets.question_type],
  ['questions', 'analysis_bucket', sets.analysis_bucket],
  ['staff', 'role', sets.staff_role],
  ['responses', 'source', sets.lead_source],
  ['responses', 'channel', sets.lead_channel],
  ['responses', 'status', sets.lead_status],
  ['lead_status_changes', 'status', sets.lead_status],
  ['follow_up_changes', 'kind', sets.follow_up_change_kind],
  ['export_log', 'scope', sets.export_scope],
  ['export_log', 'format', sets.export_format],
  ['access_log', 'action', sets.access_action],
  ['lead_mail_outbox', 'kind', sets.lead_mail_mode],
  ['lead_mail_outbox', 'state', sets.lead_mail_state],
] as const;

const pick = <T>(values: readonly T[], i: number) => values[i % values.length]!;

/** Rows covering every value, written with triggers and foreign keys off (fixtures only). */
async function insertEveryValue(db: Db) {
  const n = Math.max(...columns.map(([, , values]) => values.length));
  await db.transaction(async (tx) => {
    await tx.exec(`set local session_replication_role = replica`);
    await tx.exec(`insert into public.forms (id, title) values (900, 'Geschlossene Mengen')`);
    for (let i = 0; i < n; i++) {
      const id = 900 + i;
      await tx.query(
        `insert into public.questions (id, form_id, question, type, sequence, analysis_bucket)
         values ($1, 900, 'Frage', $2, $3, $4)`,
        [id, pick(sets.question_type, i), i, pick(sets.analysis_bucket, i)],
      );
      await tx.query(
        `insert into public.staff (user_id, email, role) values (gen_random_uuid(), $1, $2)`,
        [`staff${i}@example.de`, pick(sets.staff_role, i)],
      );
      await tx.query(
        `insert into public.responses (id, client_id, payload_hash, form_id, source, channel,
           status, first_name, last_name, email, phone, terms_accepted, data_processing_consent,
           consent_version, create_date, changed_date, create_user, changed_user)
         values ($1, gen_random_uuid(), 'x', 900, $2, $3, $4, 'Erika', 'Muster',
           'erika@example.de', '', true, true, '2026-11-22', now(), now(), 'Erika', 'Erika')`,
        [id, pick(sets.lead_source, i), pick(sets.lead_channel, i), pick(sets.lead_status, i)],
      );
      await tx.query(
        `insert into public.lead_status_changes (response_id, status) values ($1, $2)`,
        [id, pick(sets.lead_status, i)],
      );
      await tx.query(`insert into public.follow_up_changes (follow_up_id, kind) values ($1, $2)`, [
        id,
        pick(sets.follow_up_change_kind, i),
      ]);
      await tx.query(
        `insert into public.export_log (user_id, email, scope, format, filter, row_count)
         values (gen_random_uuid(), 'staff@example.de', $1, $2, '{}', 0)`,
        [pick(sets.export_scope, i), pick(sets.export_format, i)],
      );
      await tx.query(
        `insert into public.access_log (user_id, staff_email, action, customer_id, detail)
         values (gen_random_uuid(), 'staff@example.de', $1, null, '{}')`,
        [pick(sets.access_action, i)],
      );
      await tx.query(
        `insert into public.lead_mail_outbox (response_id, idempotency_key, kind, state)
         values ($1, $2, $3, $4)`,
        [id, `closed-sets:${i}`, pick(sets.lead_mail_mode, i), pick(sets.lead_mail_state, i)],
      );
    }
  });
}

async function readColumns(db: Db) {
  const read: Record<string, string[]> = {};
  for (const [table, column] of columns) {
    const { rows } = await db.query<{ value: string }>(
      `select ${column}::text as value from public.${table}
        where ${column} is not null order by ${column}::text`,
    );
    read[`${table}.${column}`] = rows.map((row) => row.value);
  }
  return read;
}

describe.each(['pglite', 'postgres'] as const)('closed sets as enums on %s', (kind) => {
  let postgres: TestPostgres | undefined;
  let db: Db;

  beforeAll(async () => {
    if (kind === 'postgres') postgres = await startTestPostgres();
    db = await openDatabase({ databaseUrl: postgres?.url() });
    for (const file of localSupabase) await db.exec(await readFile(file, 'utf8'));
  }, 240_000);

  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });

  it('keeps every row and value through the migration, and refuses unknown values', async () => {
    const migrations = await readMigrations(migrationsDir);
    const before = migrations.filter((m) => m.version < enumsMigration);
    expect(migrations.map((m) => m.version)).toContain(enumsMigration);
    await migrate(db, before);
    await insertEveryValue(db);
    const stored = await readColumns(db);
    for (const [table, column, values] of columns) {
      expect(new Set(stored[`${table}.${column}`]), `${table}.${column}`).toEqual(new Set(values));
    }

    const report = await migrate(db, migrations);
    // The enums' migration first, then whatever came after it.
    expect(report.applied[0]).toContain(enumsMigration);
    expect(await readColumns(db)).toEqual(stored);

    const types = await db.query<{ table_name: string; column_name: string; udt_name: string }>(
      `select table_name, column_name, udt_name from information_schema.columns
        where table_schema = 'public' and data_type = 'USER-DEFINED'`,
    );
    for (const [table, column] of columns) {
      expect(
        types.rows.find((r) => r.table_name === table && r.column_name === column)?.udt_name,
      ).not.toBe('text');
    }
    const { rows: generated } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.responses
        where id >= 900 and questionnaire_id is distinct from
              case when source = 'questionnaire' then form_id end`,
    );
    expect(generated[0]!.n).toBe(0);

    for (const [table, column] of columns) {
      await expect(
        db.query(`update public.${table} set ${column} = 'unbekannt' where false`),
        `${table}.${column}`,
      ).rejects.toMatchObject({ code: '22P02' });
    }
  }, 240_000);
});

describe.each(['pglite', 'postgres'] as const)('closed sets over the gateway on %s', (kind) => {
  let server: GatewayServer;
  let admin: SupabaseClient<Database>;

  beforeAll(async () => {
    server = await startGatewayServer(kind, undefined, { name: `closed-sets-${kind}` });
    const account = await createAccount(server.db, `closed-sets-${kind}@example.de`, 'admin');
    admin = await supabaseClient(server.url, testSecret, account.accessToken);
  }, 240_000);

  afterAll(async () => {
    await server?.close();
  });

  it('refuses an unknown question type with 400 and stores a known one', async () => {
    const { data: forms } = await admin.from('forms').select('id').limit(1);
    const formId = forms![0]!.id;
    const unknown = await admin
      .from('questions')
      // @ts-expect-error: not a question_type, which is what the database refuses.
      .insert({ form_id: formId, question: 'Farbe?', type: 'checkbox', sequence: 0 });
    expect(unknown.status).toBe(400);
    expect(unknown.error?.code).toBe('22P02');

    const known = await admin
      .from('questions')
      .insert({ form_id: formId, question: 'Farbe?', type: 'input', sequence: 0 })
      .select('type')
      .single();
    expect(known.error).toBeNull();
    expect(known.data).toEqual({ type: 'input' });

    // A filter on the enum column is cast to it, as PostgREST casts it.
    const filtered = await admin.from('questions').select('type').in('type', ['input']);
    expect(filtered.error).toBeNull();
    expect(filtered.data!.length).toBeGreaterThan(0);
    expect(new Set(filtered.data!.map((row) => row.type))).toEqual(new Set(['input']));
  });

  it('refuses an unknown mail mode with 400 and stores a known one', async () => {
    const unknown = await admin
      .from('lead_mail_settings')
      // @ts-expect-error: not a lead_mail_mode.
      .update({ mode: 'weekly' })
      .eq('id', true);
    expect(unknown.status).toBe(400);

    const known = await admin
      .from('lead_mail_settings')
      .update({ mode: 'digest' })
      .eq('id', true)
      .select('mode')
      .single();
    expect(known.error).toBeNull();
    expect(known.data).toEqual({ mode: 'digest' });
  });

  it('refuses an unknown lead status with 400 and its German message', async () => {
    const unknown = await admin.rpc('set_lead_status', { response_id: 1, status: 'verloren' });
    expect(unknown.status).toBe(400);
    expect(unknown.error?.message).toBe('Unbekannter Status: verloren');
  });
});
