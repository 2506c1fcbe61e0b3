// npm run bench:hub — what the HTTP layer costs on top of the database for POST /api/responses.
// Runs the hub in-process on 127.0.0.1 against PGlite in a temporary folder (or DATABASE_URL),
// loads it with autocannon for a fixed time, then does the same inserts straight through the
// repository with the same concurrency, and prints both and their ratio. Bounded in time.
import autocannon from 'autocannon';
import { saveSubmission } from '../server/hub/responses-repository.ts';
import { parseSubmission } from '../src/domain/submission.ts';
import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { startBenchHub } from './bench-hub.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

const hub = await startBenchHub('bench-hub');
const { url, db } = hub;

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
const direct = {
  rps: latencies.length / directSeconds,
  p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
};

await hub.stop();

const row = (name: string, rps: number, p99: number) =>
  `${name.padEnd(34)} ${rps.toFixed(0).padStart(8)} req/s   p99 ${p99.toFixed(1).padStart(7)} ms`;
console.log(
  `\nPOST /api/responses, ${connections} gleichzeitig, je ${seconds} s, ${db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`,
);
console.log(row('HTTP (autocannon)', http.requests.average, http.latency.p99));
console.log(row('direkt (Validierung + Repository)', direct.rps, direct.p99));
console.log(
  `Verhältnis HTTP/direkt: ${(http.requests.average / direct.rps).toFixed(2)} (Durchsatz), ` +
    `${(http.latency.p99 / direct.p99).toFixed(2)} (p99)`,
);
