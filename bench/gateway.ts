// npm run bench:gateway — what Survey Desk's customer queries cost through the gateway.
// Generates BENCH_CUSTOMERS customers (default 100,000), each with one response and three
// answers, into a throwaway PGlite (or DATABASE_URL), signs in a staff account and times, through
// the real supabase-js over HTTP on 127.0.0.1: the first page of 10 with an exact count; the
// search (rpc search_customers: names, e-mail and city) for a three-letter surname fragment with
// count, and the same through desk_search_customers as the list calls it (with its access-log
// entry); the list as the desk reads it (without filters the page and its customers' statuses;
// through desk_customer_list filters by status, broad and narrow, source, period and open
// follow-up, a search with a status); one
// customer's leads through customer_leads and one customer with embedded responses and answers. Prints p50 and p95 of BENCH_RUNS runs each against the goals (100 ms, 150 ms,
// 50 ms). Bounded in count and time.
import { accessTokenFor, supabaseClient } from '../tests/helpers/supabase.ts';
import { startBenchHub } from './bench-hub.ts';

const customers = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 40);
if (!Number.isInteger(customers) || customers < 100 || customers > 1_000_000) {
  throw new Error('BENCH_CUSTOMERS muss eine ganze Zahl von 100 bis 1000000 sein.');
}
if (!Number.isInteger(runs) || runs < 5 || runs > 1_000) {
  throw new Error('BENCH_RUNS muss eine ganze Zahl von 5 bis 1000 sein.');
}
const deadline = Date.now() + 10 * 60_000;

const hub = await startBenchHub('bench-gateway');
const { db } = hub;
const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

// Names from small lists, combined by position: realistic repetition, and the search term below
// matches about one customer in 25.
const generated = Date.now();
await db.transaction(async (tx) => {
  await tx.query(
    `insert into public.users (first_name, last_name, email, phone, adress, postcode, city, created_at)
     select (array['Anna','Jürgen','Zoë','Mehmet','Katarzyna','Lukas','Fatma','Olga'])[1 + i % 8],
            (array['Müller','Schmidt','Weiß','Yılmaz','Nowak','Becker','Hoffmann','Schäfer','Koch',
                   'Richter','Wagner','Klein','Wolf','Neumann','Braun','Zimmermann','Krüger',
                   'Hartmann','Lange','Werner','Krause','Lehmann','Köhler','Walter','Mayer'])[1 + i % 25],
            'kunde' || i || '@example.de', '+49 30 ' || (100000 + i), 'Hauptstraße ' || (1 + i % 200),
            lpad((10000 + i % 89999)::text, 5, '0'),
            (array['Berlin','Hamburg','München','Köln','Frankfurt','Leipzig'])[1 + i % 6],
            now() - make_interval(secs => i)
     from generate_series(1, $1::int) as i`,
    [customers],
  );
  await tx.query(
    `insert into public.responses (client_id, payload_hash, form_id, user_id, source, first_name,
       last_name, email, phone, terms_accepted, data_processing_consent, create_date, changed_date)
     select gen_random_uuid(), md5(u.id::text), 1, u.id, 'questionnaire', u.first_name, u.last_name,
            u.email, u.phone, true, true, u.created_at, u.created_at
     from public.users u`,
  );
  // For the list's filters: every fifth customer has a second lead, of another source or from the
  // fair tablet, arrived on one of the last 120 days; the office has worked on some leads (one in
  // 50 is closed) and one customer in 40 has an open follow-up.
  await tx.query(
    `insert into public.responses (client_id, payload_hash, form_id, user_id, source, channel,
       first_name, last_name, email, phone, terms_accepted, data_processing_consent, create_date,
       changed_date, received_at)
     select gen_random_uuid(), md5(u.id::text || 'b'), 1, u.id,
            (array['questionnaire','kfz','contact'])[1 + u.id % 3],
            case when u.id % 7 = 0 then 'fair_tablet' else 'web' end,
            u.first_name, u.last_name, u.email, u.phone, true, true, now(), now(),
            now() - make_interval(days => u.id % 120)
     from public.users u where u.id % 5 = 0`,
  );
  await tx.query(
    `update public.responses
        set status = (array['contacted','appointment','offer_sent','no_interest'])[1 + id % 4]
      where id % 3 = 0`,
  );
  await tx.query(`update public.responses set status = 'closed' where id % 50 = 1`);
  await tx.query(
    `insert into public.follow_ups (customer_id, due_at)
     select u.id, now() + make_interval(days => u.id % 10) from public.users u where u.id % 40 = 0`,
  );
  await tx.query(
    `insert into public.answers (response_id, question_id, answer)
     select r.id, q.id, 'Antwort ' || q.id from public.responses r
     cross join (select id from public.questions where form_id = 1) q`,
  );
  await tx.query('analyze');
});
console.log(
  `${database}: ${customers.toLocaleString('de-DE')} Kunden mit Antworten erzeugt in ${((Date.now() - generated) / 1000).toFixed(1)} s`,
);

// A staff account with a session token, as the desk would hold it after signing in.
const staff = await db.query<{ id: string }>(
  `insert into auth.users (email, encrypted_password, email_confirmed_at)
   values ('bench-staff@example.de', 'x', now()) returning id`,
);
const staffId = staff.rows[0]!.id;
await db.query(`update public.staff set role = 'staff' where user_id = $1`, [staffId]);
const token = await accessTokenFor(hub.secret, staffId, 'bench-staff@example.de');
const supabase = await supabaseClient(hub.url, hub.secret, token);

const someCustomer = Math.max(1, Math.floor(customers / 2));
const cases: {
  name: string;
  goalMs: number;
  run: () => PromiseLike<{ error: unknown; data: unknown }>;
}[] = [
  {
    name: 'Erste Seite (10) mit exakter Anzahl',
    goalMs: 100,
    run: () =>
      supabase
        .from('users')
        .select('*', { count: 'exact' })
        .order('created_at', { ascending: false })
        .range(0, 9),
  },
  {
    name: 'Suche „mül“ (search_customers) mit Anzahl',
    goalMs: 150,
    // The desk's search goes through the function: a plain ilike filter cannot use the trigram
    // indexes under row-level security (see the migration customer_search).
    run: () =>
      supabase
        .rpc('search_customers', { term: 'mül' }, { count: 'exact' })
        .order('created_at', { ascending: false })
        .range(0, 9),
  },
  {
    name: 'Suche „mül“ (desk_search_customers, protokolliert)',
    goalMs: 150,
    // What the desk's list calls: the same search plus the access log's entry (once a minute).
    run: () =>
      supabase
        .rpc('desk_search_customers', { term: 'mül' }, { count: 'exact' })
        .order('created_at', { ascending: false })
        .range(0, 9),
  },
  {
    name: 'Liste, erste Seite mit Status (customer_lead_statuses)',
    goalMs: 100,
    // The list without filters as the desk reads it: the page, then its customers' statuses.
    run: async () => {
      const page = await supabase
        .from('users')
        .select('*', { count: 'exact' })
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(0, 9);
      if (page.error) return page;
      return supabase.rpc('customer_lead_statuses', {
        customer_ids: page.data.map((row: { id: number }) => row.id),
      });
    },
  },
  {
    name: 'Filter Status „Neu“ (die meisten Kunden) mit Anzahl',
    goalMs: 150,
    run: () =>
      supabase
        .rpc('desk_customer_list', { status: 'new' }, { count: 'exact' })
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(0, 9),
  },
  {
    name: 'Filter Status „Abgeschlossen“ mit Anzahl',
    goalMs: 150,
    run: () =>
      supabase
        .rpc('desk_customer_list', { status: 'closed' }, { count: 'exact' })
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(0, 9),
  },
  {
    name: 'Filter KFZ, Kontaktiert, letzte 30 Tage',
    goalMs: 150,
    run: () =>
      supabase
        .rpc(
          'desk_customer_list',
          {
            source: 'kfz',
            status: 'contacted',
            received_from: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10),
          },
          { count: 'exact' },
        )
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(0, 9),
  },
  {
    name: 'Filter offene Wiedervorlage und Messe-Tablet',
    goalMs: 150,
    run: () =>
      supabase
        .rpc(
          'desk_customer_list',
          { source: 'fair_tablet', open_follow_up: true },
          { count: 'exact' },
        )
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(0, 9),
  },
  {
    name: 'Suche „mül“ mit Filter Status „Neu“',
    goalMs: 150,
    run: () =>
      supabase
        .rpc('desk_customer_list', { term: 'mül', status: 'new' }, { count: 'exact' })
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(0, 9),
  },
  {
    name: 'Antworten eines Kunden (customer_leads, protokolliert)',
    goalMs: 50,
    run: () =>
      supabase
        .rpc('customer_leads', { customer_id: someCustomer })
        .select('id,received_at,form_title,answers'),
  },
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

console.log(`\n${database}, ${runs} Läufe je Abfrage (nach 3 zum Aufwärmen):`);
console.log(
  `${'Abfrage'.padEnd(56)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'Ziel'.padStart(8)}`,
);
for (const { name, goalMs, run } of cases) {
  const times: number[] = [];
  for (let i = 0; i < runs + 3 && Date.now() < deadline; i += 1) {
    const started = performance.now();
    const { error } = await run();
    const elapsed = performance.now() - started;
    if (error) throw new Error(`${name}: ${JSON.stringify(error)}`);
    if (i >= 3) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const [p50, p95] = [percentile(times, 50), percentile(times, 95)];
  const mark = p95 <= goalMs ? 'ok' : 'über Ziel';
  console.log(
    `${name.padEnd(56)} ${`${p50.toFixed(1)} ms`.padStart(8)} ${`${p95.toFixed(1)} ms`.padStart(8)} ${`${goalMs} ms`.padStart(8)}  ${mark}`,
  );
}

await hub.stop();
