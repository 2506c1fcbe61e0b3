// npm run bench:sync — what it costs to sync leads queued offline, batched vs one per request.
// Runs the hub in-process on 127.0.0.1 against PGlite in a temporary folder (or DATABASE_URL),
// queues BENCH_LEADS leads in an outbox (fake-indexeddb), times `syncOutbox` until the outbox is
// empty, then does the same with `batchSize: 1`. Checks in the database that every lead arrived
// exactly once and prints both rounds and their ratio. Bounded in count and time.
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { openOfflineDb } from '../src/offline/outbox-db.ts';
import { enqueue } from '../src/offline/outbox.ts';
import { syncOutbox } from '../src/offline/sync-engine.ts';
import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { startBenchHub } from './bench-hub.ts';

const leads = Number(process.env.BENCH_LEADS ?? 1000);
const roundLimitMs = 2 * 60_000;
if (!Number.isInteger(leads) || leads < 1 || leads > 100_000) {
  throw new Error('BENCH_LEADS muss eine ganze Zahl von 1 bis 100000 sein.');
}

const hub = await startBenchHub('bench-sync');
const hubUrl = hub.url;
const db = hub.db;

interface Round {
  name: string;
  leads: number;
  requests: number;
  seconds: number;
}

async function round(name: string, batchSize: number | undefined): Promise<Round> {
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
    const countingFetch: typeof fetch = (input, init) => {
      requests += 1;
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
    return { name, leads, requests, seconds };
  } finally {
    outbox.close();
    await Dexie.delete(outbox.name);
  }
}

let batched: Round;
let single: Round;
try {
  batched = await round('gebündelt (bis 50 je Anfrage)', undefined);
  single = await round('einzeln (batchSize: 1)', 1);
} finally {
  await hub.stop();
}

const format = (value: number, digits: number) =>
  value.toLocaleString('de-DE', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const header = `${'Modus'.padEnd(30)} ${'Leads'.padStart(6)} ${'Anfragen'.padStart(9)} ${'Sekunden'.padStart(9)} ${'Leads/s'.padStart(9)}`;
const row = ({ name, leads: count, requests, seconds }: Round) =>
  `${name.padEnd(30)} ${format(count, 0).padStart(6)} ${format(requests, 0).padStart(9)} ` +
  `${format(seconds, 2).padStart(9)} ${format(count / seconds, 0).padStart(9)}`;

console.log(
  `\nOutbox-Sync von ${format(leads, 0)} offline erfassten Leads, ` +
    `${db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, Hub auf 127.0.0.1`,
);
console.log(header);
console.log('-'.repeat(header.length));
console.log(row(batched));
console.log(row(single));
console.log(`Verhältnis einzeln/gebündelt (Zeit): ${format(single.seconds / batched.seconds, 2)}`);
