// npm run bench:load — the hub under an open-loop load, as visitors send leads: a fixed arrival
// rate of POST /api/responses (valid leads as bench:hub sends them, src/testing/lead-fixtures.ts)
// for a fixed time, each request sent at its scheduled moment whatever the earlier ones are
// doing. Latency is the answer's time minus the SCHEDULED send time, so a queue in the server (or
// in this generator) shows in the figures instead of slowing the arrivals down (as a closed loop
// such as bench:hub would).
//
// The server runs as `npm start` runs it, in a process of its own (server/main.ts, 127.0.0.1, a
// free port, a temporary DATA_DIR), so the load generator does not share its event loop: PGlite
// first, then PostgreSQL at DATABASE_URL when it is set. The requests come from BENCH_CLIENTS
// loopback addresses (127.0.1.1, 127.0.1.2, …, each its own keep-alive sockets): the rate limit
// counts per client address, which the server takes from the socket (no proxy header is trusted
// in the default configuration). The limits themselves are raised by configuration
// (RATE_LIMIT_SUBMISSIONS_PER_MINUTE) for the bench's server only.
//
// BENCH_DESK=N (0) adds N staff sessions of the Survey Desk reading heavily at the same time, one
// request after the other each: export pages of 5,000 leads (begin_export once, then
// export_responses) and the Analyse overview, through the gateway as the admin. They show whether lead intake stays first in line;
// their own count and latency are printed too. BENCH_PRELOAD leads (2,000 with the desk load,
// else 0) are stored first in batches, so the desk has something to read from the start.
//
// BENCH_ANON=N (0) adds N anonymous clients (127.0.4.1, …), each sending the heaviest anonymous
// read within the gateway's limits again and again, as fast as answers come (a form of 98
// questions embedded as questions → form → questions: 9,800 rows, just within anonymous callers'
// row budget of 10,000).
// They show the gateway's caps at work (server/gateway/concurrency.ts): how many were answered,
// refused with 503, or ended at anon's 3 s (57014), while leads and the desk keep their times.
//
// Variables (bounded): BENCH_RATE leads/s (1-2,000; unset: PGlite at 200/s, PostgreSQL at 200/s
// and then at 400/s, the goals), BENCH_SECONDS (60; 1-300),
// BENCH_CLIENTS (64; 1-250), BENCH_DESK (0; 0-16), BENCH_ANON (0; 0-64), BENCH_PRELOAD (0-50,000),
// BENCH_ONLY=pglite|postgres runs one of the two, BENCH_DEBUG=1 prints each failed desk call's status
// and error code, BENCH_CPU_PROFILE=<folder> writes the server's CPU profile there (node --cpu-prof).
// The leads stay in the database at DATABASE_URL (use a throwaway one).
// Prints sent, answered, throughput, the server's CPU time per lead, errors by kind, p50/p99/p99.9
// beside the goals (issue 37): 0 errors; PGlite at 200/s p99 ≤ 100 ms; PostgreSQL at 200/s
// p99 ≤ 50 ms and at 400/s p99 ≤ 100 ms. A rate between two goals' is measured against the
// higher one's goal (none above the highest). Every request is bounded (10 s); the run stops by
// itself.
//
//   npm run bench:load
//   BENCH_RATE=100 BENCH_SECONDS=20 BENCH_DESK=2 npm run bench:load
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:load
//   BENCH_RATE=20 BENCH_SECONDS=20 BENCH_DESK=1 BENCH_ANON=16 npm run bench:load   (issue 32, item 7)
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { apiKeys } from '../server/gateway/gateway-jwt.ts';
import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { startServerProcess } from '../tests/helpers/server-process.ts';

function bounded(name: string, fallback: number, min: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} muss eine ganze Zahl von ${min} bis ${max} sein.`);
  }
  return value;
}

const givenRate =
  process.env.BENCH_RATE === undefined ? undefined : bounded('BENCH_RATE', 200, 1, 2000);
const seconds = bounded('BENCH_SECONDS', 60, 1, 300);
const clients = bounded('BENCH_CLIENTS', 64, 1, 250);
const deskSessions = bounded('BENCH_DESK', 0, 0, 16);
const anonClients = bounded('BENCH_ANON', 0, 0, 64);
/** Questions of the form the anonymous clients read: 98 + 98 + 98 × 98 embedded rows. */
const heavyQuestions = 98;
const preload = bounded('BENCH_PRELOAD', deskSessions > 0 ? 2000 : 0, 0, 50_000);
const requestTimeoutMs = 10_000;
/** p99 goals in ms by database and rate (leads/s), lowest rate first. */
const goals: Record<Run['kind'], { rate: number; p99: number }[]> = {
  pglite: [{ rate: 200, p99: 100 }],
  postgres: [
    { rate: 200, p99: 50 },
    { rate: 400, p99: 100 },
  ],
};
/** The rates each database runs at: BENCH_RATE, else the rates of its goals. */
const ratesOf = (kind: Run['kind']) =>
  givenRate === undefined ? goals[kind].map((goal) => goal.rate) : [givenRate];
/** The p99 goal of a run: that of the lowest goal rate at or above the run's rate. */
const goalOf = (kind: Run['kind'], rate: number) =>
  goals[kind].find((goal) => goal.rate >= rate)?.p99;

const jwtSecret = 'bench-load-secret-bench-load-secret-000000';
const admin = { email: 'bench-admin@example.de', password: 'bench-admin-passwort' };

interface Answer {
  status: number;
  body: string;
}

/** One request on one of the client addresses' agents; rejects with a kind on failure. */
function send(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent, headers, timeout: requestTimeoutMs },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(body);
  });
}

function errorCode(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' && 'code' in parsed ? String(parsed.code) : '';
  } catch {
    return '';
  }
}

function errorKind(error: unknown): string {
  if (error instanceof Error) {
    if (error.message === 'timeout') return `Zeitüberschreitung (${requestTimeoutMs / 1000} s)`;
    const code = (error as { code?: string }).code;
    return code ?? error.message;
  }
  return String(error);
}

/**
 * The server process's CPU time so far (Linux /proc; NaN elsewhere). On a machine shared with
 * other work the latencies vary with what else runs; CPU per lead does much less.
 */
async function serverCpuMs(pid: number | undefined): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of the file) in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
const ms = (value: number) =>
  Number.isNaN(value) ? '–' : `${value.toLocaleString('de-DE', { maximumFractionDigits: 1 })} ms`;

interface Run {
  kind: 'pglite' | 'postgres';
  rate: number;
  sent: number;
  answered: number;
  wallSeconds: number;
  /** CPU time the server process used during the load (user + system). */
  cpuMs: number;
  errors: Map<string, number>;
  latencies: number[];
  desk: { requests: number; errors: number; latencies: number[] };
  anon: { answered: number[]; refused: number; timedOut: number; errors: number };
}

async function run(databaseUrl: string | undefined, rate: number): Promise<Run> {
  const kind = databaseUrl ? 'postgres' : 'pglite';
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-load-'));
  const profile = process.env.BENCH_CPU_PROFILE;
  const server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      JWT_SECRET: jwtSecret,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      RATE_LIMIT_SUBMISSIONS_PER_MINUTE: '1000000',
      RATE_LIMIT_BATCHES_PER_MINUTE: '1000000',
    },
    profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile, kind)}`] : [],
  );
  const agents = Array.from(
    { length: clients },
    (_, i) =>
      new http.Agent({
        keepAlive: true,
        // 127.0.1.1 … 127.0.1.250: every address of 127.0.0.0/8 is this machine's loopback.
        localAddress: `127.0.1.${i + 1}`,
      }),
  );
  try {
    const base = new URL(server.url);
    const json = { 'content-type': 'application/json' };
    const leadUrl = new URL('/api/responses', base);

    // Warm-up: the code paths compiled, the sockets open (not counted).
    for (let i = 0; i < Math.min(200, rate); i += 1) {
      await send(agents[i % clients]!, leadUrl, 'POST', json, JSON.stringify(questionnaireLead()));
    }
    for (let done = 0; done < preload; done += 50) {
      const submissions = Array.from({ length: Math.min(50, preload - done) }, () =>
        questionnaireLead(),
      );
      const answer = await send(
        agents[0]!,
        new URL('/api/responses/batch', base),
        'POST',
        json,
        JSON.stringify({ submissions }),
      );
      if (answer.status !== 200) throw new Error(`Vorab-Leads: HTTP ${answer.status}`);
    }

    // The desk: the admin signs in through the gateway as the desk does.
    const { anonKey } = await apiKeys(jwtSecret);
    const desk = { requests: 0, errors: 0, latencies: [] as number[] };
    let deskToken = '';
    if (deskSessions > 0) {
      const signIn = await send(
        agents[0]!,
        new URL('/auth/v1/token?grant_type=password', base),
        'POST',
        { ...json, apikey: anonKey },
        JSON.stringify(admin),
      );
      if (signIn.status !== 200) throw new Error(`Anmeldung am Desk: HTTP ${signIn.status}`);
      deskToken = (JSON.parse(signIn.body) as { access_token: string }).access_token;
    }
    const rpc = (agent: http.Agent, name: string, args: Record<string, unknown>) =>
      send(
        agent,
        new URL(`/rest/v1/rpc/${name}`, base),
        'POST',
        { ...json, apikey: anonKey, authorization: `Bearer ${deskToken}` },
        JSON.stringify(args),
      );
    const noFilter = { day_from: null, day_to: null, questionnaire_id: null, lead_channel: null };
    let exportId = 0;
    if (deskSessions > 0) {
      // One export begun as the desk begins it; its pages are read again and again.
      const begun = await rpc(agents[0]!, 'begin_export', {
        export_scope: 'analysis',
        export_format: 'csv',
        ...noFilter,
        customer_search: null,
      });
      if (begun.status !== 200) throw new Error(`begin_export: HTTP ${begun.status}`);
      exportId = (JSON.parse(begun.body) as Array<{ export_id: number }>)[0]!.export_id;
    }
    let loadRunning = true;
    const deskCalls: Array<[string, Record<string, unknown>]> = [
      ['export_responses', { export_id: exportId, after_id: 0, page_size: 5000 }],
      ['analysis_overview', { ...noFilter, day_from: '2026-01-01', day_to: '2026-12-31' }],
    ];
    const deskWorker = async (session: number) => {
      const agent = new http.Agent({ keepAlive: true, localAddress: `127.0.2.${session + 1}` });
      try {
        for (let call = session; loadRunning; call += 1) {
          const [name, args] = deskCalls[call % deskCalls.length]!;
          const started = performance.now();
          try {
            const answer = await rpc(agent, name, args);
            if (answer.status !== 200) {
              desk.errors += 1;
              // BENCH_DEBUG: why (status and the gateway's error code, never a body's data).
              if (process.env.BENCH_DEBUG)
                console.error(name, answer.status, errorCode(answer.body));
            }
          } catch {
            desk.errors += 1;
          }
          desk.requests += 1;
          desk.latencies.push(performance.now() - started);
        }
      } finally {
        agent.destroy();
      }
    };
    const deskDone = Promise.all(Array.from({ length: deskSessions }, (_, i) => deskWorker(i)));

    // The anonymous clients: the heaviest read within the limits, again and again.
    const anon = { answered: [] as number[], refused: 0, timedOut: 0, errors: 0 };
    let heavyUrl: URL | undefined;
    if (anonClients > 0) {
      const { serviceRoleKey } = await apiKeys(jwtSecret);
      const service = { ...json, apikey: anonKey, authorization: `Bearer ${serviceRoleKey}` };
      const form = await send(
        agents[0]!,
        new URL('/rest/v1/forms', base),
        'POST',
        { ...service, prefer: 'return=representation' },
        JSON.stringify({ title: 'Groß', description: 'Viele Fragen' }),
      );
      if (form.status !== 201) throw new Error(`Formular anlegen: HTTP ${form.status}`);
      const formId = (JSON.parse(form.body) as Array<{ id: number }>)[0]!.id;
      const questions = Array.from({ length: heavyQuestions }, (_, i) => ({
        form_id: formId,
        question: `Frage ${i + 1}`,
        type: 'input',
        sequence: i + 1,
      }));
      const added = await send(
        agents[0]!,
        new URL('/rest/v1/questions', base),
        'POST',
        service,
        JSON.stringify(questions),
      );
      if (added.status !== 201) throw new Error(`Fragen anlegen: HTTP ${added.status}`);
      heavyUrl = new URL(
        `/rest/v1/forms?id=eq.${formId}&select=id,questions(id,forms(id,questions(id)))`,
        base,
      );
    }
    const anonWorker = async (client: number) => {
      const agent = new http.Agent({ keepAlive: true, localAddress: `127.0.4.${client + 1}` });
      try {
        while (loadRunning) {
          const started = performance.now();
          try {
            const answer = await send(agent, heavyUrl!, 'GET', { apikey: anonKey }, undefined);
            if (answer.status === 200) anon.answered.push(performance.now() - started);
            else if (answer.status === 503) anon.refused += 1;
            else if (errorCode(answer.body) === '57014') anon.timedOut += 1;
            else anon.errors += 1;
          } catch {
            anon.errors += 1;
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const anonDone = Promise.all(Array.from({ length: anonClients }, (_, i) => anonWorker(i)));
    // Let the desk's and the anonymous clients' reads get going before the leads arrive.
    if (deskSessions > 0 || anonClients > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }

    // The open loop: request i is due at start + i / rate, sent then whatever came back.
    const total = rate * seconds;
    const bodies = Array.from({ length: total }, () => JSON.stringify(questionnaireLead()));
    const latencies: number[] = [];
    const errors = new Map<string, number>();
    const countError = (kindOfError: string) => {
      errors.set(kindOfError, (errors.get(kindOfError) ?? 0) + 1);
    };
    const pending: Promise<void>[] = [];
    const cpuBefore = await serverCpuMs(server.child.pid);
    const start = performance.now();
    let sent = 0;
    while (sent < total) {
      const now = performance.now();
      for (; sent < total && start + (sent * 1000) / rate <= now; sent += 1) {
        const scheduled = start + (sent * 1000) / rate;
        pending.push(
          send(agents[sent % clients]!, leadUrl, 'POST', json, bodies[sent])
            .then((answer) => {
              if (answer.status === 201) latencies.push(performance.now() - scheduled);
              else countError(`HTTP ${answer.status}`);
            })
            .catch((error: unknown) => countError(errorKind(error))),
        );
      }
      // Sleep until the next is due (timers are ~1 ms exact; the latency counts from the schedule).
      const nextDue = start + (sent * 1000) / rate;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextDue - performance.now())));
    }
    await Promise.all(pending);
    const wallSeconds = (performance.now() - start) / 1000;
    const cpuMs = (await serverCpuMs(server.child.pid)) - cpuBefore;
    loadRunning = false;
    await deskDone;
    await anonDone;
    latencies.sort((a, b) => a - b);
    desk.latencies.sort((a, b) => a - b);
    anon.answered.sort((a, b) => a - b);
    return {
      kind,
      rate,
      sent,
      answered: latencies.length,
      wallSeconds,
      cpuMs,
      errors,
      latencies,
      desk,
      anon,
    };
  } finally {
    for (const agent of agents) agent.destroy();
    await server.kill('SIGTERM');
    if (process.env.PROBE)
      console.log(
        server
          .output()
          .split('\n')
          .filter((l) => /turn|server req|queue len|loop delay/.test(l))
          .join('\n'),
      );
    await rm(dataDir, { recursive: true, force: true });
  }
}

function report(result: Run) {
  const name = result.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const { rate } = result;
  const goal = goalOf(result.kind, rate);
  const errorCount = [...result.errors.values()].reduce((a, b) => a + b, 0);
  const p99 = percentile(result.latencies, 0.99);
  const mark = (ok: boolean) => (ok ? '✓' : '✗');
  console.log(
    `\n${name}: POST /api/responses, ${rate}/s für ${seconds} s aus ${clients} Adressen` +
      (deskSessions > 0 ? `, dazu ${deskSessions} Desk-Sitzung(en) mit schweren Abfragen` : '') +
      (anonClients > 0 ? `, dazu ${anonClients} anonyme Clients mit schweren Abfragen` : '') +
      ` (Last ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
  );
  console.log(`  gesendet ${result.sent}, angenommen (201) ${result.answered}`);
  console.log(
    `  Durchsatz ${(result.answered / result.wallSeconds).toFixed(1)} Leads/s (Ziel ${rate}/s)`,
  );
  console.log(
    `  CPU des Servers ${ms(result.cpuMs / result.answered)} je Lead ` +
      `(${((result.cpuMs / 1000 / result.wallSeconds) * 100).toFixed(0)} % eines Kerns)`,
  );
  console.log(`  Fehler ${errorCount} (Ziel 0) ${mark(errorCount === 0)}`);
  for (const [kind, count] of result.errors) console.log(`    ${kind}: ${count}`);
  console.log(`  p50   ${ms(percentile(result.latencies, 0.5))}`);
  const verdict =
    goal === undefined
      ? ' (kein Ziel für diese Rate)'
      : ` (Ziel ≤ ${goal} ms) ${mark(p99 <= goal)}`;
  console.log(`  p99   ${ms(p99)}${verdict}`);
  console.log(`  p99.9 ${ms(percentile(result.latencies, 0.999))}`);
  const max = result.latencies.at(-1) ?? NaN;
  console.log(
    `  max   ${ms(max)}` + (anonClients > 0 ? ` (Ziel ≤ 500 ms) ${mark(max <= 500)}` : ''),
  );
  if (deskSessions > 0) {
    const { requests, errors, latencies } = result.desk;
    console.log(
      `  Desk: ${requests} Abfragen (${errors} Fehler), p50 ${ms(percentile(latencies, 0.5))}, ` +
        `p99 ${ms(percentile(latencies, 0.99))}, max ${ms(latencies.at(-1) ?? NaN)}` +
        (anonClients > 0 ? ' (Ziel ≤ 1.000 ms)' : ''),
    );
  }
  if (anonClients > 0) {
    const { answered, refused, timedOut, errors } = result.anon;
    console.log(
      `  Anonym: ${answered.length} beantwortet (p50 ${ms(percentile(answered, 0.5))}), ` +
        `${refused} abgewiesen (503), ${timedOut} nach 3 s beendet (57014), ${errors} andere`,
    );
  }
}

const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== 'pglite' && only !== 'postgres') {
  throw new Error('BENCH_ONLY ist pglite oder postgres.');
}
if (only !== 'postgres') {
  for (const rate of ratesOf('pglite')) report(await run(undefined, rate));
}
if (process.env.DATABASE_URL && only !== 'pglite') {
  for (const rate of ratesOf('postgres')) report(await run(process.env.DATABASE_URL, rate));
} else if (only !== 'pglite') console.log('\n(PostgreSQL: mit DATABASE_URL=postgres://… messen)');
