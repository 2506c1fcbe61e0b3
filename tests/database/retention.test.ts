import { readFileSync } from 'node:fs';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOverview, type AnalysisFilter } from '../../src/desk/api/analysis.ts';
import type { Database } from '../../src/domain/database.types.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient, supabaseClientWithKey } from '../helpers/supabase.ts';

// Retention (migration 20261125170000_retention.sql) with a controlled clock: every call passes
// its own "now" (p_now), so a lead can turn six years old within one test.

const everything: AnalysisFilter = {
  dayFrom: '2000-01-01',
  dayTo: '2999-12-31',
  questionnaireId: null,
  channel: null,
};

const received = new Date('2020-03-02T09:00:00Z');
const yearsLater = (years: number, days = 0) => {
  const at = new Date(received);
  at.setUTCFullYear(at.getUTCFullYear() + years);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString();
};
const sixYearsOn = yearsLater(6);

interface RetentionRow {
  kind: string;
  items: number;
  oldest: string | null;
}

describe.each(['pglite', 'postgres'] as const)('retention on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let admin: SupabaseClient<Database>;
  let service: SupabaseClient<Database>;
  let adminId = '';
  const old = questionnaireLead({ offer_info: true });
  const recent = questionnaireLead({ offer_info: false });
  const held = questionnaireLead({ offer_info: false });
  const ids: Record<'old' | 'recent' | 'held', { lead: number; customer: number }> = {
    old: { lead: 0, customer: 0 },
    recent: { lead: 0, customer: 0 },
    held: { lead: 0, customer: 0 },
  };

  const realRun = async (now: string): Promise<RetentionRow[]> => {
    const { rows } = await server.db.query<RetentionRow>(
      'select kind, items, oldest from public.apply_retention($1, false)',
      [now],
    );
    return rows.map((row) => ({
      ...row,
      oldest: row.oldest === null ? null : new Date(row.oldest).toISOString(),
    }));
  };
  const dryRun = async (now: string): Promise<RetentionRow[]> => {
    const { data, error } = await admin.rpc('apply_retention', { p_now: now, p_dry_run: true });
    expect(error).toBeNull();
    return (data ?? []).map((row) => ({
      ...row,
      oldest: row.oldest === null ? null : new Date(row.oldest).toISOString(),
    }));
  };
  const count = async (sql: string, params: unknown[] = []) =>
    (await server.db.query<{ n: number }>(`select (${sql})::integer as n`, params)).rows[0]!.n;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const staffAccount = await createAccount(server.db, `ret-staff-${kind}@example.de`, 'staff');
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(server.db, `ret-admin-${kind}@example.de`, 'admin');
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    adminId = adminAccount.id;
    service = supabaseClientWithKey(server.url, (await apiKeys(testSecret)).serviceRoleKey);
    const res = await fetch(`${server.url}/api/responses/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submissions: [old, recent, held] }),
    });
    expect(res.status).toBe(200);
    // The three customers came on the same day; "recent" came again four years later.
    for (const [name, lead] of [
      ['old', old],
      ['recent', recent],
      ['held', held],
    ] as const) {
      const { rows } = await server.db.query<{ id: number; user_id: number }>(
        `update public.responses set received_at = $2, captured_at = $2 where client_id = $1
         returning id, user_id`,
        [lead.client_id, received.toISOString()],
      );
      ids[name] = { lead: rows[0]!.id, customer: rows[0]!.user_id };
      await server.db.query('update public.users set created_at = $2 where id = $1', [
        rows[0]!.user_id,
        received.toISOString(),
      ]);
    }
    const again = questionnaireLead({ email: recent.email, offer_info: false });
    const second = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(again),
    });
    expect(second.status).toBe(201);
    await server.db.query(
      'update public.responses set received_at = $2, captured_at = $2 where client_id = $1',
      [again.client_id, yearsLater(4)],
    );
    // A documented contract keeps "held" (without an end).
    await server.db.query(
      "insert into public.retention_holds (customer_id, reason) values ($1, 'Vertrag 4711')",
      [ids.held.customer],
    );
    // Files: one replaced long ago, one named by the form, one image by its address, one new.
    await server.db.query(
      `insert into storage.objects (bucket_id, name, version, created_at, updated_at) values
         ('documents', 'forms/1/aaa-Alt.pdf', 'v1', $1, $1),
         ('documents', 'forms/1/bbb-Angebot.pdf', 'v1', $1, $1),
         ('documents', 'forms/1/ccc-Bild.png', 'v1', $1, $1),
         ('documents', 'forms/1/ddd-Neu.pdf', 'v1', $2, $2)`,
      [yearsLater(1), yearsLater(6, -10)],
    );
    await server.db.query(
      `update public.forms set document = 'forms/1/bbb-Angebot.pdf',
         image = 'http://localhost:8080/storage/v1/object/public/documents/forms/1/ccc-Bild.png'
       where id = 1`,
    );
    // The access log: one entry over a year old at "six years on", one younger.
    await server.db.query(
      `insert into public.access_log (at, action, customer_id) values
         ($1, 'customer_viewed', $3), ($2, 'customer_viewed', $3)`,
      [yearsLater(5, -1), yearsLater(5, 30), ids.old.customer],
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('lists nothing while every period is still running', async () => {
    const rows = await dryRun(yearsLater(4));
    expect(rows.map((row) => row.kind)).toEqual([
      'leads',
      'answers',
      'customers',
      'consent_records',
      'files',
      'access_log',
    ]);
    // The replaced file is past its 30 days already; nothing else is due.
    expect(rows.filter((row) => row.items > 0)).toEqual([
      { kind: 'files', items: 1, oldest: yearsLater(1) },
    ]);
  });

  it('lets admins look, refuses staff, and lets only the server remove', async () => {
    const forStaff = await staff.rpc('apply_retention', { p_now: sixYearsOn });
    expect(forStaff.error?.code).toBe('42501');
    const realByAdmin = await admin.rpc('apply_retention', {
      p_now: sixYearsOn,
      p_dry_run: false,
    });
    expect(realByAdmin.error?.code).toBe('42501');
    const anon = await supabaseClient(server.url, testSecret);
    expect((await anon.rpc('apply_retention', { p_now: sixYearsOn })).error).not.toBeNull();
    expect(await count('select count(*) from public.retention_runs')).toBe(0);
    expect((await staff.from('retention_holds').select('id')).data).toEqual([]);
    const byStaff = await staff
      .from('retention_holds')
      .insert({ customer_id: ids.old.customer, reason: 'Kein Recht' });
    expect(byStaff.error?.code).toBe('42501');
    // An admin's hold records who set it; this one has ended before the run below.
    const byAdmin = await admin
      .from('retention_holds')
      .insert({ customer_id: ids.old.customer, reason: 'Alter Vertrag', until: '2025-12-31' })
      .select('created_by')
      .single();
    expect(byAdmin.error).toBeNull();
    expect(byAdmin.data?.created_by).toBe(adminId);
    const forged = await admin
      .from('retention_holds')
      .insert({ customer_id: ids.old.customer, reason: 'Andere', created_by: null });
    expect(forged.error?.code).toBe('42501');
    expect((await admin.from('retention_holds').select('reason').order('id')).data).toEqual([
      { reason: 'Vertrag 4711' },
      { reason: 'Alter Vertrag' },
    ]);
  });

  it('removes a six-year-old lead with its answers, customer and file, keeping the proof and the figures', async () => {
    const before = await readOverview(staff, everything);
    const listed = await dryRun(sixYearsOn);
    expect(listed).toEqual([
      { kind: 'leads', items: 1, oldest: received.toISOString() },
      { kind: 'answers', items: 3, oldest: expect.any(String) },
      { kind: 'customers', items: 1, oldest: received.toISOString() },
      { kind: 'consent_records', items: 0, oldest: null },
      { kind: 'files', items: 1, oldest: yearsLater(1) },
      { kind: 'access_log', items: 1, oldest: yearsLater(5, -1) },
    ]);
    const answersBefore = await count('select count(*) from public.answers');

    const removed = await realRun(sixYearsOn);
    expect(removed).toEqual(listed);

    // What the list said is what went.
    expect(await count('select count(*) from public.responses where id = $1', [ids.old.lead])).toBe(
      0,
    );
    expect(await count('select count(*) from public.answers')).toBe(answersBefore - 3);
    expect(await count('select count(*) from public.users where id = $1', [ids.old.customer])).toBe(
      0,
    );
    expect(
      await count("select count(*) from storage.objects where name = 'forms/1/aaa-Alt.pdf'"),
    ).toBe(0);
    expect(await count("select count(*) from storage.objects where bucket_id = 'documents'")).toBe(
      3,
    );
    const queued = await server.db.query(
      'select bucket_id, name, version from public.retention_file_queue',
    );
    expect(queued.rows).toEqual([
      { bucket_id: 'documents', name: 'forms/1/aaa-Alt.pdf', version: 'v1' },
    ]);
    expect(await count('select count(*) from public.access_log')).toBe(1);
    // Kept: the customer who came again, the one on hold, with their leads.
    expect(
      await count('select count(*) from public.users where id = any($1)', [
        [ids.recent.customer, ids.held.customer],
      ]),
    ).toBe(2);
    expect(await count('select count(*) from public.responses')).toBe(3);

    // The consent to offers stays as proof, five years from the deletion.
    const proof = await server.db.query<{ keep_until: string }>(
      'select keep_until from public.consent_records where client_id = $1',
      [old.client_id],
    );
    expect(new Date(proof.rows[0]!.keep_until).toISOString()).toBe(yearsLater(11));

    const counts = (overview: typeof before) => ({
      leads: overview.leads,
      questionnaire_leads: overview.questionnaire_leads,
      offer_requests: overview.offer_requests,
    });
    expect(counts(await readOverview(staff, everything))).toEqual(counts(before));

    // The run is recorded and admins read it; the next dry run lists nothing more.
    const runs = await admin.from('retention_runs').select('as_of, finished_at, removed');
    expect(runs.error).toBeNull();
    expect(runs.data).toHaveLength(1);
    expect(new Date(runs.data![0]!.as_of).toISOString()).toBe(sixYearsOn);
    expect(runs.data![0]!.finished_at).not.toBeNull();
    expect(runs.data![0]!.removed).toEqual({
      leads: 1,
      answers: 3,
      customers: 1,
      consent_records: 0,
      files: 1,
      access_log: 1,
    });
    expect((await staff.from('retention_runs').select('id')).data).toEqual([]);
    expect((await dryRun(sixYearsOn)).every((row) => row.items === 0)).toBe(true);
  });

  it('removes the consent record when its own period ends, and a lifted hold lets its customer go', async () => {
    // One day before the proof's end only the "recent" customer (last lead four years on) is due
    // at nine years; the proof is not.
    const dayBefore = yearsLater(11, -1);
    const listed = await dryRun(dayBefore);
    expect(listed.find((row) => row.kind === 'consent_records')?.items).toBe(0);
    expect(listed.find((row) => row.kind === 'customers')?.items).toBe(1);
    await server.db.query('update public.retention_holds set until = $1', ['2030-01-01']);
    const atEnd = yearsLater(11);
    const due = await dryRun(atEnd);
    expect(due.find((row) => row.kind === 'consent_records')).toEqual({
      kind: 'consent_records',
      items: 1,
      oldest: sixYearsOn,
    });
    expect(due.find((row) => row.kind === 'customers')?.items).toBe(2);
    expect(due.find((row) => row.kind === 'leads')?.items).toBe(3);

    // Through the API, as hosted Supabase's service role would run it.
    const { data, error } = await service.rpc('apply_retention', {
      p_now: atEnd,
      p_dry_run: false,
    });
    expect(error).toBeNull();
    expect(data?.map((row) => [row.kind, row.items])).toEqual(
      due.map((row) => [row.kind, row.items]),
    );
    expect(
      await count('select count(*) from public.consent_records where client_id = $1', [
        old.client_id,
      ]),
    ).toBe(0);
    expect(await count('select count(*) from public.users')).toBe(0);
    expect(await count('select count(*) from public.responses')).toBe(0);
    expect(await count('select count(*) from public.retention_holds')).toBe(0);
    expect(await count('select count(*) from public.retention_runs')).toBe(2);
  });

  it('on hosted Storage leaves the object rows and queues the names for its API', async () => {
    const later = yearsLater(12);
    await server.db.query(
      `insert into storage.objects (bucket_id, name, version, created_at, updated_at)
       values ('documents', 'forms/2/eee-Gehostet.pdf', 'v9', $1, $1)`,
      [yearsLater(11)],
    );
    // Hosted Storage has its own migrations table; the local emulation has none.
    await server.db.exec('create table storage.migrations (id integer)');
    try {
      const removed = await realRun(later);
      expect(removed.find((row) => row.kind === 'files')?.items).toBe(1);
      expect(
        await count("select count(*) from storage.objects where name = 'forms/2/eee-Gehostet.pdf'"),
      ).toBe(1);
      expect(
        await count(
          "select count(*) from public.retention_file_queue where name = 'forms/2/eee-Gehostet.pdf' and version = 'v9'",
        ),
      ).toBe(1);
    } finally {
      await server.db.exec('drop table storage.migrations');
    }
  });

  it('schedules the daily run with pg_cron where the cron schema exists, and only there', async () => {
    const schedule = readFileSync(
      new URL('../../supabase/migrations/20261125170100_retention_schedule.sql', import.meta.url),
      'utf8',
    );
    // Setup applied it without a cron schema (PGlite, a plain PostgreSQL): it did nothing.
    expect(await count("select count(*) from pg_namespace where nspname = 'cron'")).toBe(0);
    // A stand-in for pg_cron's cron.schedule records what it is asked to run.
    await server.db.exec(`
      create schema cron;
      create table cron.asked (job text, at text, command text);
      create function cron.schedule(job text, at text, command text) returns bigint
      language sql as $$ insert into cron.asked values (job, at, command) returning 1::bigint $$;
    `);
    try {
      await server.db.exec(schedule);
      const { rows } = await server.db.query('select job, at, command from cron.asked');
      expect(rows).toEqual([
        {
          job: 'universa-retention',
          at: '30 3 * * *',
          command: 'select * from public.apply_retention(now(), false)',
        },
      ]);
    } finally {
      await server.db.exec('drop schema cron cascade');
    }
  });
});
