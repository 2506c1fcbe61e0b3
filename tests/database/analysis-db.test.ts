import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/database.ts';
import { exportRowColumns } from '../../src/desk/api/export-page.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type AccountRole,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The database side of Analyse and export (supabase/migrations/20261124090000_analysis_export.sql),
// driven through the real supabase-js over HTTP as Survey Desk drives it, on a fixture whose
// counts are known: multi-select answers, empty answers, both channels, leads on either side of
// midnight in Berlin, leads that waited offline (as their device reported) and one that did not.

interface Lead {
  formId: number;
  source?: 'questionnaire' | 'kfz' | 'contact';
  channel?: 'web' | 'fair_tablet';
  captured: string;
  received?: string;
  /** The device reported that the lead waited offline. */
  waited?: boolean;
  offer?: boolean;
  answers?: Record<number, string>;
  lastName?: string;
}

// The seeded questionnaires: Tabaluga (form 1: 1 child count, 2 birth dates, 3 amount) and PKV
// (form 2: 4 employment, 5 insurance, 6 benefits (multi-select), 7 excess, 8 birth year (input),
// 9 start, 10 remarks (input)).
const tenth = { day_from: '2026-03-10', day_to: '2026-03-10' };

const fixture: Record<string, Lead> = {
  // 00:00 on 10 March in Berlin (CET, UTC+1): the first second of the day.
  a: {
    formId: 2,
    captured: '2026-03-09T23:00:00Z',
    offer: true,
    answers: {
      4: 'Selbstständig oder freiberuflich',
      6: 'Chefarztbehandlung, Hochwertiger Zahnersatz',
      8: '1985',
      10: '=HYPERLINK("x")',
    },
  },
  b: {
    formId: 2,
    captured: '2026-03-10T12:00:00Z',
    answers: { 4: 'Selbstständig oder freiberuflich', 6: 'Chefarztbehandlung', 8: '1985', 10: '' },
  },
  // The last second of 10 March in Berlin, sent from the fair tablet two hours later.
  c: {
    formId: 2,
    channel: 'fair_tablet',
    captured: '2026-03-10T22:59:59Z',
    received: '2026-03-11T01:00:00Z',
    waited: true,
    offer: true,
    answers: { 4: 'Studierend', 6: '', 8: ' 1990 ', 10: '' },
  },
  // 23:59:59 on 9 March and 00:00 on 11 March in Berlin: outside the day.
  d: { formId: 2, captured: '2026-03-09T22:59:59Z', answers: { 4: 'Studierend' } },
  e: {
    formId: 2,
    channel: 'fair_tablet',
    captured: '2026-03-10T23:00:00Z',
    received: '2026-03-11T09:00:00Z',
    waited: true,
    answers: { 4: 'Studierend' },
  },
  // A KFZ callback is stored under form 1 without answers: a lead, but not a Tabaluga one.
  f: { formId: 1, source: 'kfz', captured: '2026-03-10T10:00:00Z', offer: true },
  // Tabaluga from the tablet, online: 30 seconds is a slow send, not an offline wait.
  g: {
    formId: 1,
    channel: 'fair_tablet',
    captured: '2026-03-10T08:00:00Z',
    received: '2026-03-10T08:00:30Z',
    answers: { 1: 'Zwei', 2: '2019-05-01, 2021-07-15', 3: '50 €' },
  },
  h: {
    formId: 1,
    captured: '2026-03-10T09:00:00Z',
    offer: true,
    answers: { 1: 'Eins', 2: '2019-12-24', 3: '50 €' },
  },
  // An amount no current option names (renamed since).
  i: { formId: 1, captured: '2026-03-10T09:30:00Z', answers: { 1: 'Eins', 2: '', 3: '75 €' } },
};

describe.each(['pglite', 'postgres'] as const)('analysis functions on %s', (kind) => {
  let server: GatewayServer;
  let db: Database;
  let staff: SupabaseClient;
  let counter = 0;

  async function signedIn(role: AccountRole) {
    counter += 1;
    const account = await createAccount(db, `analyse-${role}-${counter}-${kind}@example.de`, role);
    return supabaseClient(server.url, testSecret, account.accessToken);
  }

  async function insertLead(lead: Lead) {
    counter += 1;
    const inserted = await db.query<{ id: number }>(
      `insert into public.responses (client_id, payload_hash, form_id, source, channel, first_name,
         last_name, email, phone, offer_info, terms_accepted, data_processing_consent, create_date,
         changed_date, captured_at, received_at, waited_offline)
       values (gen_random_uuid(), 'test', $1, $2, $3, 'Test', $4, $5, '0301234567', $6, true, true,
         $7, $7, $7, $8, $9)
       returning id`,
      [
        lead.formId,
        lead.source ?? 'questionnaire',
        lead.channel ?? 'web',
        lead.lastName ?? 'Analyse',
        `analyse-${counter}@example.de`,
        lead.offer ?? false,
        lead.captured,
        lead.received ?? lead.captured,
        lead.waited ?? false,
      ],
    );
    const id = inserted.rows[0]!.id;
    for (const [questionId, answer] of Object.entries(lead.answers ?? {})) {
      await db.query(
        'insert into public.answers (response_id, question_id, answer) values ($1, $2, $3)',
        [id, Number(questionId), answer],
      );
    }
    return id;
  }

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    db = server.db;
    staff = await signedIn('staff');
    for (const lead of Object.values(fixture)) await insertLead(lead);
    // 12 March: thirteen PKV leads whose remark has more distinct values than the top ten.
    const remarks = ['a', 'a', 'a', ...Array.from({ length: 10 }, (_, n) => `b${n + 1}`)];
    for (const remark of remarks) {
      await insertLead({ formId: 2, captured: '2026-03-12T10:00:00Z', answers: { 10: remark } });
    }
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  async function rpc<T>(client: SupabaseClient, name: string, args: Record<string, unknown>) {
    const { data, error } = await client.rpc(name, args);
    if (error) throw new Error(`${name}: ${error.code} ${error.message}`);
    return data as T;
  }

  const overview = async (args: Record<string, unknown>, client = staff) =>
    (await rpc<Record<string, unknown>[]>(client, 'analysis_overview', args))[0];

  it('counts the leads of a Berlin day, with both channels and every kind of lead', async () => {
    const day = await overview(tenth);
    expect(day).toMatchObject({
      leads: 7,
      web_leads: 5,
      fair_tablet_leads: 2,
      questionnaire_leads: 6,
      kfz_leads: 1,
      contact_leads: 0,
      offer_requests: 3,
      offline_leads: 1,
      median_delay_seconds: 7201,
    });
    expect(new Date(day!.first_lead_at as string).toISOString()).toBe('2026-03-09T23:00:00.000Z');
    expect(new Date(day!.last_lead_at as string).toISOString()).toBe('2026-03-10T22:59:59.000Z');
    expect(new Date(day!.data_since as string).toISOString()).toBe('2026-03-09T22:59:59.000Z');
  });

  it('narrows to one questionnaire and one channel', async () => {
    expect(await overview({ ...tenth, questionnaire_id: 2 })).toMatchObject({
      leads: 3,
      offer_requests: 2,
      offline_leads: 1,
    });
    expect(await overview({ ...tenth, questionnaire_id: 1 })).toMatchObject({
      leads: 3,
      kfz_leads: 0,
      offline_leads: 0,
      median_delay_seconds: null,
    });
    expect(
      await overview({ ...tenth, questionnaire_id: 2, lead_channel: 'fair_tablet' }),
    ).toMatchObject({ leads: 1, web_leads: 0, fair_tablet_leads: 1 });
    expect(await overview({ ...tenth, lead_channel: 'web' })).toMatchObject({ leads: 5 });
    expect(await overview({ day_from: '2026-03-09', day_to: '2026-03-11' })).toMatchObject({
      leads: 9,
    });
  });

  it('counts leads per day and per week, by channel and kind', async () => {
    const range = { day_from: '2026-03-09', day_to: '2026-03-11' };
    expect(await rpc(staff, 'analysis_leads_over_time', { ...range, bucket: 'day' })).toEqual([
      { period_start: '2026-03-09', channel: 'web', source: 'questionnaire', leads: 1 },
      { period_start: '2026-03-10', channel: 'fair_tablet', source: 'questionnaire', leads: 2 },
      { period_start: '2026-03-10', channel: 'web', source: 'kfz', leads: 1 },
      { period_start: '2026-03-10', channel: 'web', source: 'questionnaire', leads: 4 },
      { period_start: '2026-03-11', channel: 'fair_tablet', source: 'questionnaire', leads: 1 },
    ]);
    // 9 March 2026 is a Monday: the whole range is one ISO week.
    expect(await rpc(staff, 'analysis_leads_over_time', { ...range, bucket: 'week' })).toEqual([
      { period_start: '2026-03-09', channel: 'fair_tablet', source: 'questionnaire', leads: 3 },
      { period_start: '2026-03-09', channel: 'web', source: 'kfz', leads: 1 },
      { period_start: '2026-03-09', channel: 'web', source: 'questionnaire', leads: 5 },
    ]);
    const refused = await staff.rpc('analysis_leads_over_time', { ...range, bucket: 'month' });
    expect(refused.error?.code).toBe('22023');
  });

  it('splits multi-select answers, lists every option and counts empty answers', async () => {
    const rows = await rpc<{ question_id: number; kind: string; value: string; n: number }[]>(
      staff,
      'analysis_answer_distribution',
      { ...tenth, questionnaire_id: 2 },
    );
    const of = (questionId: number) =>
      rows
        .filter((row) => row.question_id === questionId)
        .map(({ kind, value, n }) => [kind, value, n]);
    expect(of(4)).toEqual([
      ['option', 'Angestellt mit Einkommen über der Versicherungspflichtgrenze', 0],
      ['option', 'Selbstständig oder freiberuflich', 2],
      ['option', 'Beamtin oder Beamter', 0],
      ['option', 'Studierend', 1],
      ['option', 'Sonstiges', 0],
    ]);
    expect(of(5).map(([, , n]) => n)).toEqual([0, 0, 0, 0]);
    expect(of(6)).toEqual([
      ['option', 'Chefarztbehandlung', 2],
      ['option', 'Ein- oder Zweibettzimmer im Krankenhaus', 0],
      ['option', 'Hochwertiger Zahnersatz', 1],
      ['option', 'Heilpraktiker und Naturheilverfahren', 0],
      ['option', 'Brillen und Kontaktlinsen', 0],
      ['option', 'Beitragsrückerstattung', 0],
      ['empty', '', 1],
    ]);
    // Input questions: how many answered, never the text; the year of birth by decade.
    expect(of(8)).toEqual([
      ['answered', null, 3],
      ['decade', '1980', 2],
      ['decade', '1990', 1],
    ]);
    expect(of(10)).toEqual([
      ['answered', null, 1],
      ['empty', '', 2],
    ]);
    expect(JSON.stringify(rows)).not.toContain('HYPERLINK');
    // The questions in their order: 4 to 10.
    expect([...new Set(rows.map((row) => row.question_id))]).toEqual([4, 5, 6, 7, 8, 9, 10]);
  });

  it('gives Tabaluga birth decades per child and answers that match no option, without their text', async () => {
    const rows = await rpc<{ question_id: number; kind: string; value: string; n: number }[]>(
      staff,
      'analysis_answer_distribution',
      { ...tenth, questionnaire_id: 1 },
    );
    expect(rows.map(({ question_id, kind, value, n }) => [question_id, kind, value, n])).toEqual([
      [1, 'option', 'Eins', 2],
      [1, 'option', 'Zwei', 1],
      [1, 'option', 'Drei oder mehr', 0],
      [2, 'answered', null, 2],
      [2, 'decade', '2010', 2],
      [2, 'decade', '2020', 1],
      [2, 'empty', '', 1],
      [3, 'option', '25 €', 0],
      [3, 'option', '50 €', 2],
      [3, 'option', '100 €', 0],
      [3, 'option', '150 €', 0],
      [3, 'other', null, 1],
    ]);
  });

  it('counts a free-text question’s answers without any of their texts', async () => {
    const rows = await rpc<
      { question_id: number; kind: string; value: string | null; n: number }[]
    >(staff, 'analysis_answer_distribution', {
      day_from: '2026-03-12',
      day_to: '2026-03-12',
      questionnaire_id: 2,
    });
    const remarks = rows.filter((row) => row.question_id === 10);
    expect(remarks.map(({ kind, value, n }) => [kind, value, n])).toEqual([['answered', null, 13]]);
    // Nor do the counters keep them, which staff may read directly.
    const { data: counters, error } = await staff.from('analysis_daily_answers').select('*');
    expect(error).toBeNull();
    expect(counters!.length).toBeGreaterThan(0);
    const texts = JSON.stringify(counters);
    for (const remark of ['"a"', 'b10', 'HYPERLINK', '2019-05-01', '1985', '75 €']) {
      expect(texts).not.toContain(remark);
    }
  });

  it('puts the offline waits into the histogram', async () => {
    const buckets = await rpc<{ lower_seconds: number; upper_seconds: number | null; n: number }[]>(
      staff,
      'analysis_offline_delay',
      { day_from: '2026-03-09', day_to: '2026-03-11' },
    );
    expect(buckets).toEqual([
      { lower_seconds: 0, upper_seconds: 300, n: 0 },
      { lower_seconds: 300, upper_seconds: 1800, n: 0 },
      { lower_seconds: 1800, upper_seconds: 7200, n: 0 },
      // c: 2 h 1 s.
      { lower_seconds: 7200, upper_seconds: 21600, n: 1 },
      // e: 10 h.
      { lower_seconds: 21600, upper_seconds: 86400, n: 1 },
      { lower_seconds: 86400, upper_seconds: 259200, n: 0 },
      { lower_seconds: 259200, upper_seconds: null, n: 0 },
    ]);
  });

  it('gives a pending account nothing and refuses anon', async () => {
    const pending = await signedIn('pending');
    expect(await overview(tenth, pending)).toMatchObject({ leads: 0, data_since: null });
    const over = await pending.rpc('analysis_leads_over_time', { ...tenth, bucket: 'day' });
    expect(over).toMatchObject({ error: null, data: [] });
    const distribution = await rpc<{ n: number }[]>(pending, 'analysis_answer_distribution', {
      ...tenth,
      questionnaire_id: 2,
    });
    expect(distribution.every((row) => row.n === 0)).toBe(true);
    const delays = await rpc<{ n: number }[]>(pending, 'analysis_offline_delay', tenth);
    expect(delays.every((row) => row.n === 0)).toBe(true);

    // Untyped on purpose: the loop calls each function by name with the same arguments.
    const anon: SupabaseClient = await supabaseClient(server.url, testSecret);
    for (const name of [
      'analysis_overview',
      'analysis_leads_over_time',
      'analysis_answer_distribution',
      'analysis_offline_delay',
    ]) {
      const { data, error } = await anon.rpc(name, { ...tenth, questionnaire_id: 2 });
      expect(data, name).toBeNull();
      expect(error?.code, name).toBe('42501');
    }
  });
  // The daily counters the functions read (migration 20261124090000_analysis_export.sql) are kept
  // by triggers; after every kind of change they must equal a count of the rows themselves. The
  // counters keep source and channel as text, the rows as enums (20261128150000). A key's figures
  // are the sum over its shards (20261201100000_sharded_counters.sql).
  const recount = async () => {
    const leads = await db.query(
      `select day, form_id, source, channel, sum(leads)::int, sum(offer_requests)::int,
              sum(waited_1 + waited_2 + waited_3 + waited_4 + waited_5 + waited_6 + waited_7)::int
         from public.analysis_daily_leads group by 1, 2, 3, 4
       having sum(leads) <> 0 or sum(offer_requests) <> 0
       except
       select public.analysis_lead_day(captured_at, received_at), form_id, source::text,
              channel::text, count(*)::int, (count(*) filter (where offer_info))::int,
              (count(public.analysis_delay_bucket(waited_offline, captured_at, received_at)))::int
         from public.responses group by 1, 2, 3, 4`,
    );
    const leadsBack = await db.query(
      `select public.analysis_lead_day(captured_at, received_at), form_id, source::text,
              channel::text
         from public.responses group by 1, 2, 3, 4
       except
       select day, form_id, source, channel from public.analysis_daily_leads
        group by 1, 2, 3, 4 having sum(leads) > 0`,
    );
    // Each answer counted as analysis_answer_items says, from the rows themselves.
    const recounted = `
        select a.question_id, public.analysis_lead_day(r.captured_at, r.received_at),
               r.source::text, r.channel::text, i.kind, i.value, sum(i.n)::int
          from public.answers a join public.responses r on r.id = a.response_id
          join public.questions q on q.id = a.question_id
         cross join lateral public.analysis_answer_items(
           q.type::text, q."multipleAnswers", q.options, q.analysis_bucket::text, a.answer) i
         group by 1, 2, 3, 4, 5, 6`;
    const counted = `
        select question_id, day, source, channel, kind, value, sum(n)::int
          from public.analysis_daily_answers group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0`;
    const answers = await db.query(
      `(${counted} except ${recounted})
       union all
       (${recounted} except ${counted})`,
    );
    return { leads: leads.rows, leadsBack: leadsBack.rows, answers: answers.rows };
  };
  const consistent = { leads: [], leadsBack: [], answers: [] };

  it('keeps the daily counters equal to the leads and answers through every change', async () => {
    expect(await recount()).toEqual(consistent);

    // The hub stores a lead and its answers in one statement (data-modifying CTEs): the answers'
    // trigger must still find their lead.
    const day = '2026-03-14';
    const posted = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(questionnaireLead({ captured_at: `${day}T10:00:00Z` })),
    });
    expect(posted.status).toBe(201);
    expect(await recount()).toEqual(consistent);
    const hubDay = { day_from: day, day_to: day, questionnaire_id: 1 };
    expect(await overview(hubDay)).toMatchObject({ leads: 1, offer_requests: 1 });
    const hubAnswers = await rpc<{ kind: string; value: string; n: number }[]>(
      staff,
      'analysis_answer_distribution',
      hubDay,
    );
    expect(
      hubAnswers.filter((row) => row.n > 0).map(({ kind, value, n }) => [kind, value, n]),
    ).toEqual([
      ['option', 'Zwei', 1],
      ['answered', null, 1],
      ['decade', '2010', 1],
      ['decade', '2020', 1],
      ['option', '50 €', 1],
    ]);

    // A batch is stored in one statement (server/hub/responses-repository.ts) and counted by
    // one run of each statement-level trigger: two leads on one day with the same answers, one
    // on the next day whose answer differs only by blanks (counted as the same option).
    const batch = await fetch(`${server.url}/api/responses/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        submissions: [
          questionnaireLead({ captured_at: '2026-03-15T10:00:00Z' }),
          questionnaireLead({ captured_at: '2026-03-15T11:00:00Z', offer_info: false }),
          questionnaireLead({
            captured_at: '2026-03-16T10:00:00Z',
            answers: [{ question_id: 1, answer: ' Zwei ' }],
          }),
        ],
      }),
    });
    expect(batch.status).toBe(200);
    const batchIds = (
      (await batch.json()) as { results: { status: string; id: number }[] }
    ).results.map((result) => {
      expect(result.status).toBe('created');
      return result.id;
    });
    expect(await recount()).toEqual(consistent);
    const batchDays = { day_from: '2026-03-15', day_to: '2026-03-16', questionnaire_id: 1 };
    expect(await overview(batchDays)).toMatchObject({ leads: 3, offer_requests: 2 });
    const batchAnswers = await rpc<{ kind: string; value: string; n: number }[]>(
      staff,
      'analysis_answer_distribution',
      batchDays,
    );
    expect(batchAnswers.find((row) => row.value === 'Zwei')).toMatchObject({ n: 3 });
    // Several leads' answers, then several leads, each in one statement.
    await db.query('delete from public.answers where response_id = any ($1) and question_id = 1', [
      batchIds.slice(1),
    ]);
    expect(await recount()).toEqual(consistent);
    await db.query('delete from public.responses where id = any ($1)', [batchIds]);
    expect(await recount()).toEqual(consistent);
    expect(await overview(batchDays)).toMatchObject({ leads: 0, offer_requests: 0 });

    const before = await overview(tenth);
    const extra = await insertLead({
      formId: 2,
      channel: 'fair_tablet',
      captured: '2026-03-10T07:00:00Z',
      received: '2026-03-13T07:00:00Z',
      waited: true,
      offer: true,
      answers: { 4: 'Sonstiges', 6: 'Beitragsrückerstattung', 8: '1977' },
    });
    expect(await overview(tenth)).toMatchObject({
      leads: (before!.leads as number) + 1,
      offline_leads: (before!.offline_leads as number) + 1,
    });
    expect(await recount()).toEqual(consistent);

    // A lead moved to another day and channel, an answer corrected, one removed.
    await db.query(
      `update public.responses set captured_at = '2026-03-12T07:00:00Z', channel = 'web' where id = $1`,
      [extra],
    );
    await db.query(
      `update public.answers set answer = 'Studierend' where response_id = $1 and question_id = 4`,
      [extra],
    );
    await db.query('delete from public.answers where response_id = $1 and question_id = 8', [
      extra,
    ]);
    expect(await recount()).toEqual(consistent);
    // A corrected flag moves the lead out of the waits.
    await db.query('update public.responses set waited_offline = false where id = $1', [extra]);
    expect(await recount()).toEqual(consistent);
    expect(await overview(tenth)).toMatchObject({ leads: before!.leads });

    // A deleted question takes its counts along; a deleted lead its own and its answers'.
    const form = await db.query<{ id: number }>(
      `insert into public.forms (title, description) values ('Zähltest ${kind}', 'Nur für den Test.')
       returning id`,
    );
    const question = await db.query<{ id: number }>(
      `insert into public.questions (form_id, question, type, options, sequence)
       values ($1, 'Gefällt es Ihnen?', 'multiple-choice', '{"1": "Ja", "2": "Nein"}', 1) returning id`,
      [form.rows[0]!.id],
    );
    const answered = await insertLead({
      formId: form.rows[0]!.id,
      captured: '2026-03-10T11:00:00Z',
      answers: { [question.rows[0]!.id]: 'Ja' },
    });
    expect(await recount()).toEqual(consistent);
    await db.query('delete from public.questions where id = $1', [question.rows[0]!.id]);
    expect(await recount()).toEqual(consistent);
    await db.query('delete from public.responses where id in ($1, $2)', [extra, answered]);
    expect(await recount()).toEqual(consistent);
    expect(await overview(tenth)).toEqual(before);
  });

  // Each connection adds to its own shard of a key (20261201100000_sharded_counters.sql), so a
  // lead may be counted in one shard and taken away in another: the figures are the sums.
  it('adds up a key’s shards, so a lead counted by one connection and deleted by another is gone', async () => {
    const date = '2026-03-20';
    const day = { day_from: date, day_to: date, questionnaire_id: 2 };
    const first = await insertLead({
      formId: 2,
      captured: `${date}T10:00:00Z`,
      offer: true,
      answers: { 4: 'Studierend', 8: '1985' },
    });
    // As if another connection had counted it: a shard none of this test's connections writes.
    await db.query('update public.analysis_daily_leads set shard = 99 where day = $1', [date]);
    await db.query('update public.analysis_daily_answers set shard = 99 where day = $1', [date]);
    expect(await overview(day)).toMatchObject({ leads: 1, offer_requests: 1 });
    expect(await recount()).toEqual(consistent);

    await insertLead({ formId: 2, captured: `${date}T11:00:00Z`, answers: { 4: 'Studierend' } });
    await db.query('delete from public.responses where id = $1', [first]);
    const shards = await db.query<{ elsewhere: number; here: number }>(
      `select sum(leads) filter (where shard = 99)::int as elsewhere,
              sum(leads) filter (where shard <> 99)::int as here
         from public.analysis_daily_leads where day = $1`,
      [date],
    );
    // The second lead and the first one's deletion, both in this connection's shard.
    expect(shards.rows).toEqual([{ elsewhere: 1, here: 0 }]);
    expect(await recount()).toEqual(consistent);
    expect(await overview(day)).toMatchObject({ leads: 1, offer_requests: 0 });
    const answers = await rpc<{ question_id: number; kind: string; value: string; n: number }[]>(
      staff,
      'analysis_answer_distribution',
      day,
    );
    expect(
      answers
        .filter((row) => row.n !== 0)
        .map(({ question_id, kind, value, n }) => [question_id, kind, value, n]),
    ).toEqual([[4, 'option', 'Studierend', 1]]);
  });

  // The point of the shards: on PostgreSQL a lead's transaction holds its counter rows until it
  // commits, and a lead of the same day and form on another connection must not wait for them.
  // PGlite has one connection: the test exists on PostgreSQL only.
  if (kind === 'postgres')
    it('lets leads of one day and form on two connections count at the same time', async () => {
      const date = '2026-03-21';
      const insert = (tx: Queryable) =>
        tx.query(
          `insert into public.responses (client_id, payload_hash, form_id, source, channel,
             first_name, last_name, email, phone, offer_info, terms_accepted,
             data_processing_consent, create_date, changed_date, captured_at, received_at)
           values (gen_random_uuid(), 'test', 2, 'questionnaire', 'web', 'Test', 'Parallel',
             'parallel@example.de', '0301234567', false, true, true, $1, $1, $1, $1)`,
          [`${date}T10:00:00Z`],
        );
      const shardOf = async (tx: Queryable) =>
        (await tx.query<{ shard: number }>('select public.analysis_counter_shard() as shard'))
          .rows[0]!.shard;

      // The first lead, stored and not yet committed.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let firstShard!: (shard: number) => void;
      const first = new Promise<number>((resolve) => (firstShard = resolve));
      const holding = db.transaction(async (tx) => {
        await insert(tx);
        firstShard(await shardOf(tx));
        await held;
      });
      // A failure of the transaction ends the wait too.
      const heldShard = await Promise.race([first, holding.then(() => -1)]);

      // Connections of the pool side by side; one whose shard differs stores the second lead,
      // and gives up after 2 s of waiting for a lock.
      const tries = Array.from({ length: 8 }, () => {
        let go!: (store: boolean) => void;
        const gate = new Promise<boolean>((resolve) => (go = resolve));
        let tell!: (shard: number) => void;
        const shard = new Promise<number>((resolve) => (tell = resolve));
        const done = db.transaction(async (tx) => {
          tell(await shardOf(tx));
          if (!(await gate)) return false;
          await tx.query("set local lock_timeout = '2s'");
          await insert(tx);
          return true;
        });
        return { go, shard: Promise.race([shard, done.then(() => -1)]), done };
      });
      let stored: boolean[];
      try {
        const shards = await Promise.all(tries.map((attempt) => attempt.shard));
        const other = shards.findIndex((shard) => shard !== heldShard);
        tries.forEach((attempt, i) => attempt.go(i === other));
        stored = await Promise.all(tries.map((attempt) => attempt.done));
      } finally {
        tries.forEach((attempt) => attempt.go(false));
        release();
        await holding;
      }

      expect(stored.filter(Boolean)).toHaveLength(1);
      expect(await overview({ day_from: date, day_to: date })).toMatchObject({ leads: 2 });
      expect(await recount()).toEqual(consistent);
    });

  describe('export', () => {
    interface ExportRow {
      response_id: number;
      form_title: string;
      last_name: string;
      channel: string;
      answers: { question_id: number | null; question: string; answer: string }[];
    }

    const setStaffCanExport = async (admin: SupabaseClient, value: boolean) => {
      const { error } = await admin
        .from('desk_settings')
        .update({ staff_can_export: value })
        .eq('id', true);
      if (error) throw error;
    };

    /** Begins an export as `client` and answers its id (throws on refusal). */
    const begin = async (client: SupabaseClient, filter: Record<string, unknown> = tenth) => {
      const [begun] = await rpc<{ export_id: number; row_count: number }[]>(
        client,
        'begin_export',
        { export_scope: 'analysis', export_format: 'csv', ...filter },
      );
      return begun!;
    };

    it('lets admins export, and staff only while the setting allows it', async () => {
      const admin = await signedIn('admin');
      const pending = await signedIn('pending');
      expect(await rpc(admin, 'can_export', {})).toBe(true);
      expect(await rpc(staff, 'can_export', {})).toBe(false);
      expect(await rpc(pending, 'can_export', {})).toBe(false);

      const adminExport = await begin(admin);
      const refused = await staff.rpc('export_responses', { export_id: adminExport.export_id });
      expect(refused.error?.code).toBe('42501');
      expect(
        (await staff.rpc('begin_export', { export_scope: 'analysis', export_format: 'csv' })).error
          ?.code,
      ).toBe('42501');
      // Staff read the setting but cannot change it.
      const { data: setting } = await staff
        .from('desk_settings')
        .select('staff_can_export')
        .single();
      expect(setting).toEqual({ staff_can_export: false });
      await staff.from('desk_settings').update({ staff_can_export: true }).eq('id', true);
      expect(await rpc(staff, 'can_export', {})).toBe(false);

      await setStaffCanExport(admin, true);
      let staffExport: number;
      try {
        expect(await rpc(staff, 'can_export', {})).toBe(true);
        expect(await rpc(pending, 'can_export', {})).toBe(false);
        staffExport = (await begin(staff)).export_id;
        const rows = await rpc<ExportRow[]>(staff, 'export_responses', { export_id: staffExport });
        expect(rows).toHaveLength(7);
        // Someone else's export is not one's own to read.
        expect(
          (await staff.rpc('export_responses', { export_id: adminExport.export_id })).error?.code,
        ).toBe('P0002');
      } finally {
        await setStaffCanExport(admin, false);
      }
      // A right withdrawn in the middle of an export stops its next page.
      expect((await staff.rpc('export_responses', { export_id: staffExport })).error?.code).toBe(
        '42501',
      );
    });

    it('gives no lead in bulk to staff without the right, by any function (security review, item 6)', async () => {
      // What the review used: export_leads answered every lead to any staff account, unlogged.
      const walkedAround = await staff.rpc('export_leads', {
        day_from: null,
        day_to: null,
        questionnaire_id: null,
        lead_channel: null,
        customer_search: null,
      });
      expect(walkedAround.data).toBeNull();
      expect(walkedAround.error?.code).toBe('42501');
      // The analysis' own selection (times and the offline flag) reads the leads as the caller:
      // only analysis_overview's security definer code calls it (20261125190000_logged_lead_reads.sql).
      const times = await staff.rpc('analysis_leads', {
        ...tenth,
        questionnaire_id: null,
        lead_channel: null,
      });
      expect(times.data).toBeNull();
      expect(times.error?.code).toBe('42501');
      // Pages are read only within a begun (and so logged) export.
      expect((await staff.rpc('export_responses', { export_id: 999_999 })).error?.code).toBe(
        '42501',
      );
      const admin = await signedIn('admin');
      expect((await admin.rpc('export_responses', { export_id: 999_999 })).error?.code).toBe(
        'P0002',
      );
    });

    it('pages one row per lead with its answers in question order, and records the export', async () => {
      const admin = await signedIn('admin');
      const filter = { ...tenth, questionnaire_id: 2 };
      const begun = await begin(admin, { ...filter, export_format: 'xlsx' });
      expect(begun.row_count).toBe(3);

      const first = await rpc<ExportRow[]>(admin, 'export_responses', {
        export_id: begun.export_id,
        page_size: 2,
      });
      const rest = await rpc<ExportRow[]>(admin, 'export_responses', {
        export_id: begun.export_id,
        page_size: 2,
        after_id: first.at(-1)!.response_id,
      });
      const rows = [...first, ...rest];
      expect(first).toHaveLength(2);
      expect(rest).toHaveLength(1);
      expect(rows.map((row) => row.channel)).toEqual(['web', 'web', 'fair_tablet']);
      expect(rows[0]!.form_title).toBe('PKV');
      expect(rows[0]!.answers).toEqual([
        {
          question_id: 4,
          question: 'Wie sind Sie derzeit beschäftigt?',
          answer: 'Selbstständig oder freiberuflich',
        },
        {
          question_id: 6,
          question: 'Welche Leistungen sind Ihnen besonders wichtig?',
          answer: 'Chefarztbehandlung, Hochwertiger Zahnersatz',
        },
        { question_id: 8, question: 'In welchem Jahr sind Sie geboren?', answer: '1985' },
        {
          question_id: 10,
          question: 'Gibt es etwas, das wir für Ihr Angebot wissen sollten?',
          answer: '=HYPERLINK("x")',
        },
      ]);
      expect(
        (await admin.rpc('export_responses', { export_id: begun.export_id, page_size: 5001 })).error
          ?.code,
      ).toBe('22023');

      // The client has no say in the count any more: the old call with a made-up number is gone.
      expect(
        (
          await admin.rpc('finish_export', {
            export_id: begun.export_id,
            rows_written: 1_000_000,
            was_cancelled: false,
          })
        ).error?.code,
      ).toBe('PGRST202');
      await rpc(admin, 'finish_export', { export_id: begun.export_id, was_cancelled: false });
      // Finished once: a second finish (or someone else's), or another page, is refused.
      expect(
        (await admin.rpc('finish_export', { export_id: begun.export_id, was_cancelled: true }))
          .error?.code,
      ).toBe('P0002');
      expect(
        (await admin.rpc('export_responses', { export_id: begun.export_id })).error?.code,
      ).toBe('P0002');

      const { data: log, error } = await admin
        .from('export_log')
        .select('scope, format, filter, row_count, rows_written, cancelled, finished_at, email')
        .eq('id', begun.export_id)
        .single();
      expect(error).toBeNull();
      expect(log).toMatchObject({
        scope: 'analysis',
        format: 'xlsx',
        filter: { day_from: '2026-03-10', day_to: '2026-03-10', questionnaire_id: 2 },
        row_count: 3,
        rows_written: 3,
        cancelled: false,
        email: expect.stringMatching(/^analyse-admin-/),
      });
      expect(log!.finished_at).not.toBeNull();
      // Only admins read the record.
      expect((await staff.from('export_log').select('id')).data).toEqual([]);
    });

    it('sends a page as one JSON array of export_responses’ columns, up to 20,000 leads, and counts it', async () => {
      const admin = await signedIn('admin');
      const filter = { ...tenth, questionnaire_id: 2 };
      const asRows = (await begin(admin, filter)).export_id;
      const expected = await rpc<ExportRow[]>(admin, 'export_responses', { export_id: asRows });

      const begun = await begin(admin, { ...filter, export_format: 'xlsx' });
      const first = await rpc<unknown[][]>(admin, 'export_page', {
        export_id: begun.export_id,
        page_size: 2,
      });
      const rest = await rpc<unknown[][]>(admin, 'export_page', {
        export_id: begun.export_id,
        page_size: 2,
        after_id: first.at(-1)![0],
      });
      expect([first.length, rest.length]).toEqual([2, 1]);
      // The same values in the same order, the answers as [question_id, question, answer].
      expect(
        [...first, ...rest].map((lead) => ({
          ...Object.fromEntries(exportRowColumns.map((column, i) => [column, lead[i]])),
          answers: (lead.at(-1) as [number | null, string, string][]).map(
            ([question_id, question, answer]) => ({ question_id, question, answer }),
          ),
        })),
      ).toEqual(expected);
      // A page larger than PostgREST's max rows (1,000) arrives whole: it is one value.
      expect(
        await rpc<unknown[][]>(admin, 'export_page', {
          export_id: begun.export_id,
          page_size: 20_000,
        }),
      ).toHaveLength(3);
      expect(
        (await admin.rpc('export_page', { export_id: begun.export_id, page_size: 20_001 })).error
          ?.code,
      ).toBe('22023');
      expect((await staff.rpc('export_page', { export_id: begun.export_id })).error?.code).toBe(
        '42501',
      );

      await rpc(admin, 'finish_export', { export_id: begun.export_id, was_cancelled: false });
      expect((await admin.rpc('export_page', { export_id: begun.export_id })).error?.code).toBe(
        'P0002',
      );
      const { data: log } = await admin
        .from('export_log')
        .select('row_count, rows_written')
        .eq('id', begun.export_id)
        .single();
      // Every lead delivered counts, the page read twice too.
      expect(log).toEqual({ row_count: 3, rows_written: 6 });
      await rpc(admin, 'finish_export', { export_id: asRows, was_cancelled: true });
    });

    it('exports the leads of the customers a search finds', async () => {
      const admin = await signedIn('admin');
      const customer = await db.query<{ id: number }>(
        `insert into public.users (first_name, last_name, email, city)
         values ('Jürgen', 'Größe', 'juergen.groesse@example.de', 'Köln') returning id`,
      );
      const leadId = await insertLead({
        formId: 2,
        captured: '2026-02-01T10:00:00Z',
        lastName: 'Größe',
      });
      await db.query('update public.responses set user_id = $1 where id = $2', [
        customer.rows[0]!.id,
        leadId,
      ]);
      const begun = await begin(admin, {
        export_scope: 'customers',
        customer_search: ' größe ',
      });
      expect(begun.row_count).toBe(1);
      const rows = await rpc<ExportRow[]>(admin, 'export_responses', {
        export_id: begun.export_id,
      });
      expect(rows.map((row) => [row.response_id, row.last_name])).toEqual([[leadId, 'Größe']]);
    });
  });
});
