// npm run bench:sync — what it costs to sync leads queued offline, batched vs one per request.
// Runs the hub in-process on 127.0.0.1 against PGlite in a temporary folder (or DATABASE_URL),
// queues BENCH_LEADS leads in an outbox (fake-indexeddb), times `syncOutbox` until the outbox is
// empty, then does the same with `batchSize: 1`. Each request waits a simulated round trip
// first (BENCH_RTT_MS; without it both loopback and 100 ms, a fair's mobile connection). One
// lead per request at 100 ms would take minutes: that round sends at most BENCH_SINGLE_LEADS
// (100) and extrapolates, and says so. Checks in the database that every lead arrived exactly
// once and prints every round and the ratios, and the batched loopback round beside issue 25's
// goal (1,000 leads within 1.5 s with the Analyse counters on). Bounded in count and time.
// Usage: `npm run bench:sync` (PGlite), `DATABASE_URL=… npm run bench:sync` (PostgreSQL),
// `BENCH_RTT_MS=0 npm run bench:sync` (loopback only: the goal's round, and quicker).
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { openOfflineDb } from '../src/offline/outbox-db.ts';
import { enqueue } from '../src/offline/outbox.ts';
import { syncOutbox } from '../src/offline/sync-engine.ts';
import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { startBenchHub } from './bench-hub.ts';

const leads = Number(process.env.BENCH_LEADS ?? 1000);
const singleLeadsMax = Number(process.env.BENCH_SINGLE_LEADS ?? 100);
const delays =
  process.env.BENCH_RTT_MS === undefined ? [0, 100] : [Number(process.env.BENCH_RTT_MS)];
const roundLimitMs = 2 * 60_000;
if (!Number.isInteger(leads) || leads < 1 || leads > 100_000) {
  throw new Error('BENCH_LEADS muss eine ganze Zahl von 1 bis 100000 sein.');
}
if (!Number.isInteger(singleLeadsMax) || singleLeadsMax < 1) {
  throw new Error('BENCH_SINGLE_LEADS muss eine ganze Zahl ab 1 sein.');
}
if (delays.some((ms) => !Number.isFinite(ms) || ms < 0 || ms > 5_000)) {
  throw new Error('BENCH_RTT_MS muss eine Zahl von 0 bis 5000 sein.');
}

const hub = await startBenchHub('bench-sync');
const hubUrl = hub.url;
const db = hub.db;

interface Round {
  name: string;
  rttMs: number;
  leads: number;
  requests: number;
  seconds: number;
  /** Measured on `leads` of `extrapolatedTo`; `seconds` is then scaled to all of them. */
  extrapolatedTo?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function round(
  name: string,
  batchSize: number | undefined,
  rttMs: number,
  leads: number,
): Promise<Round> {
  const outbox = openOfflineDb(`bench-sync-${crypto.randomUUID()}`);
  try {
    const clientIds: string[] = [];
    const queuedAt = Date.now();
    for (let i = 0; i < leads; i += 1) {
      const submission = questionnaireLead();
      // One millisecond apart in the past, so every lead is due and the order is fixed.
      await enqueue(outbox, submission, queuedAt - leads + i);
      clientIds.push(submission.client_id);
    }

    let requests = 0;
    // The simulated round trip: the whole delay before the request, as a slow link adds it.
    const countingFetch: typeof fetch = async (input, init) => {
      requests += 1;
      if (rttMs > 0) await sleep(rttMs);
      return globalThis.fetch(input, init);
    };

    const started = performance.now();
    const deadline = started + roundLimitMs;
    let sent = 0;
    for (;;) {
      const report = await syncOutbox({
        db: outbox,
        fetch: countingFetch,
        hubUrl,
        now: Date.now,
        random: Math.random,
        force: true,
        // The bench measures sending; the sending rule always allows it here.
        mayPost: () => Promise.resolve(true),
        ...(batchSize === undefined ? {} : { batchSize }),
      });
      sent += report.sent;
      if (report.rejected > 0) throw new Error(`${name}: ${report.rejected} Leads abgelehnt.`);
      if (report.remaining === 0) break;
      if (performance.now() > deadline) {
        throw new Error(`${name}: nach 2 Minuten warten noch ${report.remaining} Leads.`);
      }
    }
    const seconds = (performance.now() - started) / 1000;

    // client_id is unique in the table, so the count says every lead arrived, and only once.
    const stored = await db.query<{ n: number }>(
      'select count(*)::int as n from responses where client_id = any($1::uuid[])',
      [clientIds],
    );
    const n = stored.rows[0]?.n ?? 0;
    if (n !== leads || sent !== leads) {
      throw new Error(
        `${name}: ${n} in der Datenbank, ${sent} als neu gemeldet, erwartet je ${leads}.`,
      );
    }
    return { name, rttMs, leads, requests, seconds };
  } finally {
    outbox.close();
    await Dexie.delete(outbox.name);
  }
}

const rounds: { batched: Round; single: Round }[] = [];
try {
  for (const rttMs of delays) {
    const batched = await round('gebündelt (bis 50 je Anfrage)', undefined, rttMs, leads);
    // One request per lead costs at least one round trip each: above a few milliseconds, send
    // a sample and scale it up rather than wait minutes.
    const sample = rttMs > 0 ? Math.min(leads, singleLeadsMax) : leads;
    const measured = await round('einzeln (batchSize: 1)', 1, rttMs, sample);
    const single =
      sample === leads
        ? measured
        : {
            ...measured,
            seconds: (measured.seconds * leads) / sample,
            requests: Math.round((measured.requests * leads) / sample),
            extrapolatedTo: leads,
            name: `einzeln, ${sample} gemessen*`,
          };
    rounds.push({ batched, single });
  }
} finally {
  await hub.stop();
}

const format = (value: number, digits: number) =>
  value.toLocaleString('de-DE', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const header = `${'Modus'.padEnd(30)} ${'RTT ms'.padStart(6)} ${'Leads'.padStart(6)} ${'Anfragen'.padStart(9)} ${'Sekunden'.padStart(9)} ${'Leads/s'.padStart(9)}`;
const row = ({ name, rttMs, requests, seconds, extrapolatedTo }: Round) =>
  `${name.padEnd(30)} ${format(rttMs, 0).padStart(6)} ${format(leads, 0).padStart(6)} ` +
  `${((extrapolatedTo ? '~' : '') + format(requests, 0)).padStart(9)} ` +
  `${((extrapolatedTo ? '~' : '') + format(seconds, 2)).padStart(9)} ` +
  `${format(leads / seconds, 0).padStart(9)}`;

console.log(
  `\nOutbox-Sync von ${format(leads, 0)} offline erfassten Leads, ` +
    `${db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, Hub auf 127.0.0.1`,
);
console.log(header);
console.log('-'.repeat(header.length));
for (const { batched, single } of rounds) {
  console.log(row(batched));
  console.log(row(single));
}
for (const { batched, single } of rounds) {
  console.log(
    `Verhältnis einzeln/gebündelt bei ${format(batched.rttMs, 0)} ms (Zeit): ` +
      format(single.seconds / batched.seconds, 1),
  );
}
// Issue 25's goal: 1,000 batched leads within 1.5 s on loopback, the Analyse counters on.
const loopback = rounds.find((r) => r.batched.rttMs === 0)?.batched;
if (loopback) {
  const goalSeconds = (1.5 * leads) / 1000;
  console.log(
    `Gebündelt auf Loopback: ${format(loopback.seconds, 2)} s ` +
      `(Ziel ≤ ${format(goalSeconds, 2)} s für ${format(leads, 0)} Leads): ` +
      (loopback.seconds <= goalSeconds ? 'erreicht' : 'verfehlt'),
  );
}
const sampled = rounds.find((r) => r.single.extrapolatedTo !== undefined)?.single;
if (sampled) {
  console.log(
    `* Einzeln mit Verzögerung: ${format(sampled.leads, 0)} Leads gesendet und auf ` +
      `${format(leads, 0)} hochgerechnet (BENCH_SINGLE_LEADS), statt minutenlang zu warten.`,
  );
}
