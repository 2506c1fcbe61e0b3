import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import { migrationsDir } from '../../server/db/setup.ts';
import {
  readLeadsOverTime,
  readOfflineDelay,
  readOverview,
  type AnalysisFilter,
} from '../../src/desk/api/analysis.ts';
import { readLeadsPerForm } from '../../src/desk/api/dashboard.ts';
import { readForms } from '../../src/desk/api/forms.ts';
import { contactLead, kfzLead, questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// Every figure right (issue 21, items 2 and 3; migration 20261125140000_lead_figures.sql). One
// lead of each kind goes through the hub as the device posts it, then the desk's own queries
// (dashboard, questionnaire cards, Analyse) are asked over HTTP with the real supabase-js: they
// agree on every count, KFZ and contact leads belong to no questionnaire although they are
// stored under form 1, and "waited offline" counts exactly the lead its device flagged.

const tabaluga = 1;
const pkv = 2;
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const at = (time: string) => ({ captured_at: time, create_date: time, changed_date: time });

// Every lead of the test, whatever day it is in Berlin.
const everything: AnalysisFilter = {
  dayFrom: '2000-01-01',
  dayTo: '2999-12-31',
  questionnaireId: null,
  channel: null,
};

describe.each(['pglite', 'postgres'] as const)('lead figures on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient;
  const leads = {
    // Queued on the fair tablet while offline, sent 20 seconds after it was captured: a short
    // wait, which the old rule (at least a minute) did not count.
    tabalugaQueued: questionnaireLead({
      channel: 'fair_tablet',
      waited_offline: true,
      ...at(secondsAgo(20)),
    }),
    tabalugaWeb: questionnaireLead({ channel: 'web', waited_offline: false, ...at(secondsAgo(2)) }),
    // Sent at once from a device whose clock runs three hours behind: a long gap, but it never
    // waited, which the old rule counted as an offline wait.
    pkvSkewedClock: questionnaireLead({
      form_id: pkv,
      channel: 'fair_tablet',
      answers: [{ question_id: 4, answer: 'Studierend' }],
      waited_offline: false,
      ...at(secondsAgo(3 * 3600)),
    }),
    pkvWeb: questionnaireLead({
      form_id: pkv,
      channel: 'web',
      answers: [{ question_id: 4, answer: 'Sonstiges' }],
      waited_offline: false,
      ...at(secondsAgo(1)),
    }),
    // KFZ and contact leads are stored under form 1 (the spec) but are no Tabaluga leads.
    kfz: kfzLead({ channel: 'web', waited_offline: false, ...at(secondsAgo(5)) }),
    contact: contactLead({ channel: 'fair_tablet', waited_offline: false, ...at(secondsAgo(5)) }),
  };

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const account = await createAccount(server.db, `figures-${kind}@example.de`, 'staff');
    staff = await supabaseClient(server.url, testSecret, account.accessToken);
    const res = await fetch(`${server.url}/api/responses/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submissions: Object.values(leads) }),
    });
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: { status: string }[] };
    expect(results.map((result) => result.status)).toEqual(
      Object.values(leads).map(() => 'created'),
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('counts a questionnaire alike on the dashboard, its card and Analyse', async () => {
    const dashboard = await readLeadsPerForm(staff);
    const cards = await readForms(staff);
    for (const [formId, expected] of [
      [tabaluga, 2],
      [pkv, 2],
    ] as const) {
      const filter = { ...everything, questionnaireId: formId };
      const analyse = await readOverview(staff, filter);
      const overTime = await readLeadsOverTime(staff, filter, 'day');
      expect({
        dashboard: dashboard.find((form) => form.formId === formId)?.leads,
        card: cards.find((form) => form.id === formId)?.responseCount,
        analyse: analyse.leads,
        analyseQuestionnaireLeads: analyse.questionnaire_leads,
        overTime: overTime.reduce((sum, row) => sum + row.leads, 0),
        kfzAndContact: analyse.kfz_leads + analyse.contact_leads,
      }).toEqual({
        dashboard: expected,
        card: expected,
        analyse: expected,
        analyseQuestionnaireLeads: expected,
        overTime: expected,
        kfzAndContact: 0,
      });
    }

    // Every lead: the questionnaires' leads plus KFZ and contact, by either channel.
    const all = await readOverview(staff, everything);
    expect(all).toMatchObject({
      leads: 6,
      questionnaire_leads: 4,
      kfz_leads: 1,
      contact_leads: 1,
      web_leads: 3,
      fair_tablet_leads: 3,
    });
    const cardTotal = cards.reduce((sum, form) => sum + form.responseCount, 0);
    const dashboardTotal = dashboard.reduce((sum, form) => sum + form.leads, 0);
    expect([cardTotal, dashboardTotal]).toEqual([all.questionnaire_leads, all.questionnaire_leads]);

    // The answers of a questionnaire are its leads' answers: one option per lead.
    const { data: answers, error } = await staff.rpc('analysis_answer_distribution', {
      day_from: everything.dayFrom,
      day_to: everything.dayTo,
      questionnaire_id: tabaluga,
    });
    expect(error).toBeNull();
    const childCount = (answers as { question_id: number; kind: string; n: number }[]).filter(
      (row) => row.question_id === 1 && row.kind === 'option',
    );
    expect(childCount.reduce((sum, row) => sum + row.n, 0)).toBe(2);
  });

  it('counts as waited offline exactly the lead its device flagged', async () => {
    const stored = await server.db.query<{ client_id: string; waited_offline: boolean }>(
      'select client_id, waited_offline from public.responses where waited_offline',
    );
    expect(stored.rows.map((row) => row.client_id)).toEqual([leads.tabalugaQueued.client_id]);

    const all = await readOverview(staff, everything);
    expect(all.offline_leads).toBe(1);
    // Captured 20 seconds before it was posted: the wait is that, plus the time to store it.
    expect(all.median_delay_seconds).toBeGreaterThanOrEqual(20);
    expect(all.median_delay_seconds).toBeLessThan(120);
    expect(await readOfflineDelay(staff, everything)).toEqual([
      { lower_seconds: 0, upper_seconds: 300, n: 1 },
      { lower_seconds: 300, upper_seconds: 1800, n: 0 },
      { lower_seconds: 1800, upper_seconds: 7200, n: 0 },
      { lower_seconds: 7200, upper_seconds: 21600, n: 0 },
      { lower_seconds: 21600, upper_seconds: 86400, n: 0 },
      { lower_seconds: 86400, upper_seconds: 259200, n: 0 },
      { lower_seconds: 259200, upper_seconds: null, n: 0 },
    ]);

    // The fair tablet's three leads: only the queued one waited, not the one with a skewed clock.
    const tablet = await readOverview(staff, { ...everything, channel: 'fair_tablet' });
    expect(tablet).toMatchObject({ leads: 3, offline_leads: 1 });
    expect(await readOverview(staff, { ...everything, questionnaireId: tabaluga })).toMatchObject({
      offline_leads: 1,
    });
    expect(await readOverview(staff, { ...everything, questionnaireId: pkv })).toMatchObject({
      offline_leads: 0,
      median_delay_seconds: null,
    });
  });

  it('gives a pending account no counts and anon no call', async () => {
    const account = await createAccount(server.db, `figures-pending-${kind}@example.de`, 'pending');
    // Untyped: the generated arguments cannot be null, the desk's call sends null.
    const pending: SupabaseClient = await supabaseClient(
      server.url,
      testSecret,
      account.accessToken,
    );
    const { data } = await pending.rpc('questionnaire_lead_counts', { received_since: null });
    expect((data as { leads: number }[]).every((row) => row.leads === 0)).toBe(true);
    const anon: SupabaseClient = await supabaseClient(server.url, testSecret);
    const refused = await anon.rpc('questionnaire_lead_counts', { received_since: null });
    expect(refused.error?.code).toBe('42501');
  });
});

const localSupabaseFiles = ['supabase-local.sql', 'supabase-local-storage.sql'].map((name) =>
  fileURLToPath(new URL(`../../server/db/${name}`, import.meta.url)),
);

describe.each(['pglite', 'postgres'] as const)('the migration on existing leads (%s)', (kind) => {
  let postgres: TestPostgres | undefined;
  let db: Database;

  beforeAll(async () => {
    if (kind === 'postgres') postgres = await startTestPostgres();
    db = await openDatabase(postgres ? { databaseUrl: postgres.url() } : {});
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });

  it('keeps the old rule for old leads, counts by the flag and rebuilds the counters', async () => {
    for (const file of localSupabaseFiles) await db.exec(await readFile(file, 'utf8'));
    const all = await readMigrations(migrationsDir);
    const mine = all.findIndex((m) => m.name === 'lead_figures');
    expect(mine).toBeGreaterThan(0);
    await migrate(db, all.slice(0, mine));

    // Stored before the flag: waits of two hours and 30 seconds, a KFZ lead under the
    // questionnaire's form, a lead without a capture time.
    await db.exec(`
      insert into public.forms (id, title) values (100, 'Altbestand');
      insert into public.responses (client_id, payload_hash, form_id, source, first_name,
        last_name, email, phone, terms_accepted, data_processing_consent, create_date,
        changed_date, captured_at, received_at)
      values
        ('00000000-0000-4000-8000-000000000001', 'h1', 100, 'questionnaire', 'A', 'Alt',
         'a@example.de', '030 1', true, true, now(), now(),
         '2026-11-20T08:00:00Z', '2026-11-20T10:00:00Z'),
        ('00000000-0000-4000-8000-000000000002', 'h2', 100, 'questionnaire', 'B', 'Alt',
         'b@example.de', '030 2', true, true, now(), now(),
         '2026-11-20T08:00:00Z', '2026-11-20T08:00:30Z'),
        ('00000000-0000-4000-8000-000000000003', 'h3', 100, 'kfz', 'C', 'Alt',
         'c@example.de', '030 3', true, true, now(), now(),
         '2026-11-20T08:00:00Z', '2026-11-20T10:00:00Z'),
        ('00000000-0000-4000-8000-000000000004', 'h4', 100, 'contact', 'D', 'Alt',
         'd@example.de', '030 4', true, true, now(), now(), null, '2026-11-20T09:00:00Z');
      -- Counters that drifted from the rows: the migration counts them again.
      update public.analysis_daily_leads set leads = leads + 5;
    `);
    await migrate(db, all.slice(0, mine + 1));

    const rows = await db.query(
      'select client_id, questionnaire_id, waited_offline from public.responses order by client_id',
    );
    expect(rows.rows.map((row) => [row.questionnaire_id, row.waited_offline])).toEqual([
      [100, true],
      [100, false],
      [null, true],
      [null, false],
    ]);

    const overview = async (questionnaireId: number | null) =>
      (
        await db.query(
          `select leads::int, questionnaire_leads::int, kfz_leads::int, offline_leads::int
             from public.analysis_overview('2026-11-20', '2026-11-20', $1, null)`,
          [questionnaireId],
        )
      ).rows[0];
    expect(await overview(null)).toEqual({
      leads: 4,
      questionnaire_leads: 2,
      kfz_leads: 1,
      offline_leads: 2,
    });
    expect(await overview(100)).toEqual({
      leads: 2,
      questionnaire_leads: 2,
      kfz_leads: 0,
      offline_leads: 1,
    });
    const counts = await db.query(
      'select form_id, leads::int from public.questionnaire_lead_counts(null) where form_id = 100',
    );
    expect(counts.rows).toEqual([{ form_id: 100, leads: 2 }]);

    // From now on the flag decides: a lead flagged later moves into the waits.
    await db.query(
      `update public.responses set waited_offline = true
        where client_id = '00000000-0000-4000-8000-000000000002'`,
    );
    expect(await overview(100)).toMatchObject({ offline_leads: 2 });
  });
});
