// npm run bench:hub — what the HTTP layer costs on top of the database for POST /api/responses.
// Runs the hub in-process on 127.0.0.1 against PGlite in a temporary folder and, when
// DATABASE_URL is set, against that PostgreSQL as well. For each: loads it with autocannon at
// BENCH_CONNECTIONS (50) concurrent connections for BENCH_SECONDS, then does the same inserts
// straight through the repository with the same concurrency, and prints throughput, p50 and p99
// of both and their ratio. Bounded in time.
import autocannon from 'autocannon';
import { saveSubmission } from '../server/hub/responses-repository.ts';
import { parseSubmission } from '../src/domain/submission.ts';
import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { startBenchHub } from './bench-hub.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
if (!(seconds > 0 && seconds <= 120) || !Number.isInteger(connections) || connections < 1) {
  throw new Error('BENCH_SECONDS (bis 120) und BENCH_CONNECTIONS müssen positiv sein.');
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

async function measure(databaseUrl: string | null) {
  const hub = await startBenchHub('bench-hub', databaseUrl);
  const { url, db } = hub;
  try {
    const http = await autocannon({
      url: `${url}/api/responses`,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: JSON.stringify(questionnaireLead()) }),
        },
      ],
    });
    if (http.non2xx > 0) console.warn(`Warnung: ${http.non2xx} Antworten ohne 2xx`);

    // The same work without HTTP: validate and store, `connections` at a time, for the same time.
    const latencies: number[] = [];
    const deadline = Date.now() + seconds * 1000;
    async function worker() {
      while (Date.now() < deadline) {
        const started = performance.now();
        const parsed = parseSubmission(questionnaireLead(), () => new Date());
        if (!parsed.success) throw new Error('Ungültige Testdaten');
        await saveSubmission(db, parsed.data, new Date());
        latencies.push(performance.now() - started);
      }
    }
    const directStart = performance.now();
    await Promise.all(Array.from({ length: connections }, worker));
    const directSeconds = (performance.now() - directStart) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
    return {
      kind: db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL',
      http: { rps: http.requests.average, p50: http.latency.p50, p99: http.latency.p99 } as Figures,
      direct: { rps: latencies.length / directSeconds, p50: at(0.5), p99: at(0.99) } as Figures,
    };
  } finally {
    await hub.stop();
  }
}

const runs = [await measure(null)];
if (process.env.DATABASE_URL) runs.push(await measure(process.env.DATABASE_URL));

const row = (name: string, { rps, p50, p99 }: Figures) =>
  `${name.padEnd(36)} ${rps.toFixed(0).padStart(7)} req/s   p50 ${p50.toFixed(1).padStart(6)} ms` +
  `   p99 ${p99.toFixed(1).padStart(6)} ms`;
for (const { kind, http, direct } of runs) {
  console.log(`\nPOST /api/responses, ${connections} gleichzeitig, je ${seconds} s, ${kind}`);
  console.log(row('HTTP (autocannon)', http));
  console.log(row('direkt (Validierung + Repository)', direct));
  console.log(
    `Verhältnis HTTP/direkt: ${(http.rps / direct.rps).toFixed(2)} (Durchsatz), ` +
      `${(http.p99 / direct.p99).toFixed(2)} (p99)`,
  );
}
if (!process.env.DATABASE_URL) console.log('\n(PostgreSQL: mit DATABASE_URL=postgres://… messen)');
