// npm run bench:startup — how long `npm start` takes to its first answer (issue 37's goals: a
// first start within 3 s, a restart within 1.5 s). Builds first when the build or the database
// template is stale (scripts/build-if-stale.mjs), so no run times a build. Then runs `npm start`'s
// own script (build staleness check included) on 127.0.0.1 with a free port and a temporary
// DATA_DIR: a first start on the empty folder (from the template, server/db/template.ts, when
// one was built), then restarts on it, and times each from the spawn to the first 200 of
// `/universa`. BENCH_STARTUP_RUNS (3) of each; every start is bounded to 60 s. Prints each run
// and the median beside the goal with the CPU time of the start's processes (Linux, /proc: on a
// shared machine the wall time follows the load, the CPU time much less), then where the time
// went: the server runs with
// STARTUP_TIMING=1 and prints a mark per phase (server/startup-timing.ts, scripts/start.mjs); the
// bench prints each phase's median in ms.
// Usage: `npm run bench:startup`, `BENCH_STARTUP_RUNS=5 npm run bench:startup`. The same marks
// by hand: `STARTUP_TIMING=1 npm start`.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
if (!Number.isInteger(runs) || runs < 1 || runs > 10) {
  throw new Error('BENCH_STARTUP_RUNS muss eine ganze Zahl von 1 bis 10 sein.');
}
const startLimitMs = 60_000;
const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('Port')),
      );
    });
  });
}

/** One start: the milliseconds to the first answer, and each phase's share (STARTUP_TIMING). */
interface Start {
  totalMs: number;
  /** CPU time the start's processes used up to the first answer (Linux), when known. */
  cpuMs: number | undefined;
  phases: Map<string, number>;
}

/**
 * The CPU time (user and system, ms) of a process and every process below it, from /proc: on a
 * machine shared with other work the wall time varies with the load, this much less.
 */
function treeCpuMs(pid: number): number | undefined {
  const ticksPerMs = 100 / 1000;
  try {
    // The fields after the command name's closing parenthesis: utime is the 12th, then stime,
    // then cutime and cstime (children that ended, such as a build).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    let ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) {
        ticks += (treeCpuMs(Number(child)) ?? 0) * ticksPerMs;
      }
    }
    return ticks / ticksPerMs;
  } catch {
    return undefined;
  }
}

/** Starts the product, waits for its first answer, stops it. */
async function timeStart(dataDir: string): Promise<Start> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const started = performance.now();
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      STARTUP_TIMING: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // `[startup] <phase> <epoch ms>` from scripts/start.mjs and server/startup-timing.ts.
  const marks: [string, number][] = [];
  let pending = '';
  server.stderr.setEncoding('utf8');
  server.stderr.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const match = /^\[startup\] (\S+) (\d+)$/.exec(line);
      if (match) marks.push([match[1]!, Number(match[2])]);
    }
  });
  try {
    for (;;) {
      if (performance.now() - started > startLimitMs) {
        throw new Error(`Keine Antwort nach ${startLimitMs / 1000} s.`);
      }
      if (server.exitCode !== null) throw new Error(`Server beendet (Code ${server.exitCode}).`);
      const answered = await fetch(`http://127.0.0.1:${port}/universa`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) {
        const totalMs = performance.now() - started;
        const cpuMs = treeCpuMs(server.pid!);
        const phases = new Map<string, number>();
        let previous = spawnedAt;
        for (const [phase, at] of [...marks, ['first-answer', spawnedAt + totalMs] as const]) {
          phases.set(phase, (phases.get(phase) ?? 0) + Math.max(0, at - previous));
          previous = at;
        }
        return { totalMs, cpuMs, phases };
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const seconds = (ms: number) => (ms / 1000).toLocaleString('de-DE', { maximumFractionDigits: 2 });

const firstStarts: Start[] = [];
const restarts: Start[] = [];
for (let run = 0; run < runs; run += 1) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-startup-'));
  try {
    firstStarts.push(await timeStart(dataDir));
    restarts.push(await timeStart(dataDir));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log('\nStart bis zur ersten Antwort von /universa (npm start, 127.0.0.1, PGlite)');
console.log(
  'Fall                               Läufe (s)                Median   Ziel            CPU (s, Median)',
);
for (const [name, starts, goalMs] of [
  ['Erster Start (Vorlage)', firstStarts, 3_000],
  ['Neustart (Daten vorhanden)', restarts, 1_500],
] as const) {
  const values = starts.map((start) => start.totalMs);
  const middle = median(values);
  const cpu = starts.flatMap((start) => (start.cpuMs === undefined ? [] : [start.cpuMs]));
  console.log(
    `${name.padEnd(35)}${values.map(seconds).join(' / ').padEnd(25)}${seconds(middle).padStart(6)}   ` +
      `${`${seconds(goalMs)} s ${middle <= goalMs ? 'erreicht' : 'verfehlt'}`.padEnd(16)}` +
      (cpu.length ? seconds(median(cpu)) : '–'),
  );
}

// Where the time goes: each phase ends at its mark, from the spawn on (median of the runs, ms).
// launcher-ready: Node starts scripts/start.mjs; build-checked: the build staleness check
// (the sources' file data; their content only when it changed); server-compiled: the compiled
// server's staleness check (compiled again when a source changed); server-entered: the packages
// the compiled server imports loaded; modules-loaded: the server's own modules; database-open:
// PGlite loaded (on a first start with the template copied into the folder);
// supabase-local-schema, migrations-read, migrated, seeded: setupDatabase; app-built: Fastify
// and its plugins; listening; first-answer: the first request of /universa answered.
console.log('\nPhasen (Median, ms; jede endet mit ihrer Marke, vom Start des Prozesses an)');
const phaseNames = [...new Set([...firstStarts, ...restarts].flatMap((s) => [...s.phases.keys()]))];
console.log(`${'Phase'.padEnd(24)}${'Erster Start'.padStart(14)}${'Neustart'.padStart(10)}`);
for (const phase of phaseNames) {
  const cell = (starts: Start[]) => {
    const values = starts.flatMap((s) => (s.phases.has(phase) ? [s.phases.get(phase)!] : []));
    return values.length === 0 ? '–' : String(Math.round(median(values)));
  };
  console.log(`${phase.padEnd(24)}${cell(firstStarts).padStart(14)}${cell(restarts).padStart(10)}`);
}
