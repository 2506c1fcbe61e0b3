// npm run bench:hub — what the HTTP layer costs on top of the database for POST /api/responses.
// Runs the hub in-process on 127.0.0.1 against PGlite in a temporary folder and, when
// DATABASE_URL is set, against that PostgreSQL as well. For each: loads it with autocannon at
// BENCH_CONNECTIONS (50) concurrent connections for BENCH_SECONDS, then does the same inserts
// straight through the repository with the same concurrency, and prints throughput, p50 and p99
// of both and their ratio. Bounded in time. autocannon runs in a worker thread, off the server's
// event loop (see loadInWorker).
import { Worker } from 'node:worker_threads';
import { saveSubmission } from '../server/hub/responses-intake.ts';
import { parseSubmission } from '../src/domain/submission.ts';
import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { startBenchHub } from './bench-hub.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Leads sent before the measurement (not counted); BENCH_WARMUP=0 measures from cold.
const warmUp = Number(process.env.BENCH_WARMUP ?? 200);
if (
  !(seconds > 0 && seconds <= 120) ||
  !Number.isInteger(connections) ||
  connections < 1 ||
  !Number.isInteger(warmUp) ||
  warmUp < 0 ||
  warmUp > 10_000
) {
  throw new Error('BENCH_SECONDS (bis 120) und BENCH_CONNECTIONS müssen positiv sein.');
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

/**
 * autocannon in a worker thread (bench/autocannon-worker.ts), not on the server's event loop:
 * on the same loop the generator's own work is counted in every request's latency. (Profiled:
 * the server's own time per request stayed under 100 ms and PGlite's queue was empty while
 * autocannon reported a p99 of seconds; moving the generator alone did not remove that tail on
 * the shared 2-core machine, see the note.)
 */
function loadInWorker(url: string): Promise<Figures & { non2xx: number }> {
  return new Promise((resolve, reject) => {
    // The worker is TypeScript too: tsx's loader is registered in the worker first.
    const script = new URL('./autocannon-worker.ts', import.meta.url).href;
    const worker = new Worker(
      `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script)}); });`,
      { eval: true, workerData: { url, connections, seconds } },
    );
    // Ended as soon as it has answered: nothing of it may run on during the direct measurement.
    worker.once('message', (figures: Figures & { non2xx: number }) => {
      resolve(figures);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      // terminate() ends it with code 1 after it answered; a promise settles only once.
      if (code !== 0) reject(new Error(`Lastgenerator beendet (Code ${code})`));
    });
  });
}

async function measure(databaseUrl: string | null) {
  const hub = await startBenchHub('bench-hub', databaseUrl);
  const { url, db } = hub;
  try {
    if (warmUp > 0) {
      // A cold server first (compiling, PGlite's first plans and functions): 50 connections at
      // once would all queue behind it, and in a 10 s run those 50 are the slowest 3 %.
      const send = () =>
        fetch(`${url}/api/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(questionnaireLead()),
        }).then((response) => response.arrayBuffer());
      for (let i = 0; i < warmUp; i += 5) await Promise.all(Array.from({ length: 5 }, send));
    }
    const http = await loadInWorker(`${url}/api/responses`);
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
      http: { rps: http.rps, p50: http.p50, p99: http.p99 } as Figures,
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
