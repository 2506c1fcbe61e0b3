// npm run bench:analysis — what the Analyse screen's data costs through the gateway.
// Generates BENCH_RESPONSES leads (default 100,000) spread over the last 120 days into a throwaway
// PGlite (or DATABASE_URL): Tabaluga and PKV questionnaires with their answers, KFZ callbacks and
// contact requests, 15 % from the fair tablet with an offline wait. Signs in a staff account and
// times each aggregation the screen calls (supabase.rpc through the real supabase-js over HTTP on
// 127.0.0.1), then the whole screen: its calls at once, as React Query sends them. Prints p50 and
// p95 of BENCH_RUNS runs for five filters; goal: the whole screen within 300 ms. Bounded in count
// and time.
import type { SupabaseClient } from '@supabase/supabase-js';
import { addDays, berlinToday } from '../src/domain/calendar.ts';
import { accessTokenFor, supabaseClient } from '../tests/helpers/supabase.ts';
import { startBenchHub } from './bench-hub.ts';

const responses = Number(process.env.BENCH_RESPONSES ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 20);
if (!Number.isInteger(responses) || responses < 100 || responses > 1_000_000) {
  throw new Error('BENCH_RESPONSES muss eine ganze Zahl von 100 bis 1000000 sein.');
}
if (!Number.isInteger(runs) || runs < 5 || runs > 500) {
  throw new Error('BENCH_RUNS muss eine ganze Zahl von 5 bis 500 sein.');
}
const deadline = Date.now() + 10 * 60_000;
const screenGoalMs = 300;

const hub = await startBenchHub('bench-analysis');
const { db } = hub;
const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

const generated = Date.now();
await db.transaction(async (tx) => {
  await tx.query('select setseed(0.42)');
  // kind: 0-29 Tabaluga, 30-64 PKV, 65-84 KFZ, 85-99 contact.
  await tx.query(
    `insert into public.responses (client_id, payload_hash, form_id, source, channel, first_name,
       last_name, email, phone, offer_info, terms_accepted, data_processing_consent, create_date,
       changed_date, captured_at, received_at, waited_offline)
     select gen_random_uuid(), 'bench', case when g.kind between 30 and 64 then 2 else 1 end,
            case when g.kind < 65 then 'questionnaire' when g.kind < 85 then 'kfz' else 'contact' end,
            case when g.tablet then 'fair_tablet' else 'web' end,
            'Anna', 'Muster', 'lead' || g.i || '@example.de', '0301234567', random() < 0.6,
            true, true, g.captured, g.captured, g.captured,
            g.captured + case when g.tablet then make_interval(secs => 60 + random() * 6 * 3600)
                              else make_interval(secs => random() * 3) end,
            g.tablet
       from (select i, (random() * 100)::int % 100 as kind, random() < 0.15 as tablet,
                    now() - make_interval(secs => random() * 120 * 86400) as captured
               from generate_series(1, $1::int) as i) g`,
    [responses],
  );
  // Answers as visitors give them: an option, several joined with ', ', dates, years, free text.
  await tx.query(
    `insert into public.answers (response_id, question_id, answer)
     select r.id, q.id,
            coalesce(case
              when q.key = 'tabaluga_child_dates' then
                (select string_agg(to_char(now() - make_interval(days => (random() * 6000)::int + s),
                                           'YYYY-MM-DD'), ', ')
                   from generate_series(1, 1 + r.id % 3) s)
              when q.type = 'input' and q.id = 8 then (1960 + (random() * 44)::int)::text
              when q.type = 'input' then case when random() < 0.7 then ''
                                              else (array['Bitte Rückruf am Abend', 'Familientarif?',
                                                          'Nur per E-Mail'])[1 + r.id % 3] end
              when q."multipleAnswers" then
                (select string_agg(o.value, ', ' order by o.key)
                   from jsonb_each_text(q.options) o where random() < 0.4)
              else (select o.value from jsonb_each_text(q.options) o
                     order by random() + r.id * 0 limit 1)
            end, '')
       from public.responses r
       join public.questions q on q.form_id = r.form_id
      where r.source = 'questionnaire'`,
  );
  await tx.query('analyze');
});
const counts = await db.query<{ responses: number; answers: number }>(
  `select (select count(*)::int from public.responses) as responses,
          (select count(*)::int from public.answers) as answers`,
);
console.log(
  `${database}: ${counts.rows[0]!.responses.toLocaleString('de-DE')} Anfragen mit ${counts.rows[0]!.answers.toLocaleString('de-DE')} Antworten erzeugt in ${((Date.now() - generated) / 1000).toFixed(1)} s`,
);

const staff = await db.query<{ id: string }>(
  `insert into auth.users (email, encrypted_password, email_confirmed_at)
   values ('bench-staff@example.de', 'x', now()) returning id`,
);
const staffId = staff.rows[0]!.id;
await db.query(`update public.staff set role = 'staff' where user_id = $1`, [staffId]);
const token = await accessTokenFor(hub.secret, staffId, 'bench-staff@example.de');
// Untyped: the screen's calls below go by name with nullable filter arguments.
const supabase: SupabaseClient = await supabaseClient(hub.url, hub.secret, token);

/** Berlin's calendar day `daysAgo` days before today, as the screen's presets compute it. */
const berlinDay = (daysAgo: number) => addDays(berlinToday(), -daysAgo);

interface Filter {
  name: string;
  days: number;
  questionnaire_id: number | null;
}

const filters: Filter[] = [
  { name: '30 Tage, alle Anfragen (Standard)', days: 30, questionnaire_id: null },
  { name: '30 Tage, PKV', days: 30, questionnaire_id: 2 },
  { name: '90 Tage, alle Anfragen', days: 90, questionnaire_id: null },
  { name: '90 Tage, PKV', days: 90, questionnaire_id: 2 },
  { name: '90 Tage, Tabaluga', days: 90, questionnaire_id: 1 },
];

async function call(name: string, args: Record<string, unknown>) {
  const { error } = await supabase.rpc(name, args);
  if (error) throw new Error(`${name}: ${JSON.stringify(error)}`);
}

function screenCalls(filter: Filter) {
  const args = {
    day_from: berlinDay(filter.days - 1),
    day_to: berlinDay(0),
    questionnaire_id: filter.questionnaire_id,
    lead_channel: null,
  };
  const calls: [string, () => Promise<void>][] = [
    ['analysis_overview', () => call('analysis_overview', args)],
    [
      'analysis_leads_over_time',
      () =>
        call('analysis_leads_over_time', { ...args, bucket: filter.days > 31 ? 'week' : 'day' }),
    ],
    ['analysis_offline_delay', () => call('analysis_offline_delay', args)],
  ];
  if (filter.questionnaire_id !== null) {
    calls.push(['analysis_answer_distribution', () => call('analysis_answer_distribution', args)]);
  }
  return calls;
}

async function time(run: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < runs + 3 && Date.now() < deadline; i += 1) {
    const started = performance.now();
    await run();
    if (i >= 3) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) =>
    times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
  return { p50: at(50), p95: at(95) };
}

const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);
console.log(`\n${database}, ${runs} Läufe je Messung (nach 3 zum Aufwärmen):`);
console.log(`${'Abfrage'.padEnd(48)} ${'p50'.padStart(9)} ${'p95'.padStart(9)}`);
for (const filter of filters) {
  console.log(`\n${filter.name}`);
  const calls = screenCalls(filter);
  for (const [name, run] of calls) {
    const { p50, p95 } = await time(run);
    console.log(`  ${name.padEnd(46)} ${ms(p50)} ${ms(p95)}`);
  }
  const screen = await time(() => Promise.all(calls.map(([, run]) => run())));
  const mark = screen.p95 <= screenGoalMs ? 'ok' : 'über Ziel';
  console.log(
    `  ${'Ganzer Bildschirm (gleichzeitig)'.padEnd(46)} ${ms(screen.p50)} ${ms(screen.p95)}   Ziel ${screenGoalMs} ms: ${mark}`,
  );
}

await hub.stop();
