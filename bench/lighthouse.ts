// npm run bench:lighthouse — what Lighthouse's mobile profile (simulated slow 4G, CPU 4x slower,
// a phone's screen) makes of the public pages as built: per page the performance score, FCP, LCP,
// TBT, CLS and the element of the largest contentful paint, against the goal. A benchmark that
// prints figures, not a test: it fails only when a page cannot be measured.
// Debian's Chromium through chrome-launcher, with the flags the e2e tests use; the built server on
// a free 127.0.0.1 port with a throwaway DATA_DIR. BENCH_RUNS loads per page (median, default 3).
// JS KB is the JavaScript the load transferred (compressed as sent), consent tool included.
// Usage: `npm run build && BENCH_RUNS=3 npm run bench:lighthouse`; BENCH_PAGES=/universa,/kontakt
// measures only those pages; BENCH_DETAIL=1 prints each page's script evaluation and long tasks.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import { startServerProcess, type ServerProcess } from '../tests/helpers/server-process.ts';

const allPages = [
  '/universa',
  '/tiptoptabaluga',
  '/pkv',
  '/universa/kfz',
  '/kontakt',
  '/impressum',
];
const pages = process.env.BENCH_PAGES ? process.env.BENCH_PAGES.split(',') : allPages;
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const goal = { score: 100, lcpMs: 1200, tbtMs: 50, cls: 0 };

interface Measure {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** JavaScript transferred by the load, in bytes. */
  js: number;
  /** Main-thread work per script (Lighthouse's bootup-time) and the long tasks, for BENCH_DETAIL. */
  detail: string;
  lcpElement: string;
}

interface NodeDetails {
  type?: string;
  selector?: string;
  nodeLabel?: string;
  snippet?: string;
}

/** The LCP element as Lighthouse reports it: its selector and the start of its text. */
function lcpElementOf(details: unknown): string {
  // Lighthouse 12: a list whose first table holds the element's node.
  const tables = (details as { items?: { items?: { node?: NodeDetails }[] }[] } | undefined)?.items;
  const node = tables?.[0]?.items?.[0]?.node;
  if (!node) return '(keins gemeldet)';
  const label = (node.nodeLabel ?? '').replace(/\s+/g, ' ').slice(0, 40);
  return `${node.selector ?? node.snippet ?? '?'} „${label}“`;
}

/** The transferred size of every script the load requested. */
function scriptBytes(details: unknown): number {
  const items =
    (details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)
      ?.items ?? [];
  return items
    .filter((item) => item.resourceType === 'Script')
    .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

/** Where the main thread's time went: the scripts' evaluation and the long tasks (ms). */
function detailOf(bootup: unknown, longTasks: unknown): string {
  type Item = { url?: string; scripting?: number; duration?: number; startTime?: number };
  const items = (details: unknown) => (details as { items?: Item[] } | undefined)?.items ?? [];
  const name = (url = '') => url.replace(/^https?:\/\/[^/]+/, '') || '(Seite)';
  const scripts = items(bootup)
    .filter((item) => (item.scripting ?? 0) >= 20)
    .map((item) => `${name(item.url)} ${Math.round(item.scripting ?? 0)} ms`);
  const tasks = items(longTasks).map(
    (item) => `${Math.round(item.duration ?? 0)} ms (${name(item.url)})`,
  );
  return `    Skriptauswertung: ${scripts.join(', ') || 'keine ≥ 20 ms'}\n    Lange Aufgaben: ${tasks.join(', ') || 'keine'}`;
}

async function measure(url: string, port: number): Promise<Measure> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    // The default config is the mobile profile (Moto G Power, simulated slow 4G).
    undefined,
  );
  if (!result) throw new Error(`${url}: Lighthouse lieferte kein Ergebnis`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const value = (id: string) => {
    const numeric = lhr.audits[id]?.numericValue;
    if (numeric === undefined) throw new Error(`${url}: ${id} fehlt im Bericht`);
    return numeric;
  };
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    js: scriptBytes(lhr.audits['network-requests']?.details),
    detail: detailOf(lhr.audits['bootup-time']?.details, lhr.audits['long-tasks']?.details),
    lcpElement: lcpElementOf(lhr.audits['largest-contentful-paint-element']?.details),
  };
}

/** The run with the median performance score, so the figures printed belong to one load. */
function medianRun(measures: Measure[]): Measure {
  return [...measures].sort((a, b) => a.score - b.score || a.lcp - b.lcp)[measures.length >> 1]!;
}

const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// The compressed copies the server sends, as `npm run build` writes them last (a build from
// before compressed transfer has no such step).
if (existsSync('scripts/compress-dist.mjs')) {
  const compress = spawnSync(process.execPath, ['scripts/compress-dist.mjs'], { stdio: 'inherit' });
  if (compress.status !== 0) process.exit(compress.status ?? 1);
}

const work = await mkdtemp(path.join(tmpdir(), 'bench-lighthouse-'));
let server: ServerProcess | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
let missed = 0;
try {
  server = await startServerProcess({
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: '',
    ADMIN_PASSWORD: 'bench-Admin-Passwort-1',
  });
  // chrome-launcher writes its log into the profile folder; it must exist.
  const userDataDir = path.join(work, 'chrome');
  await mkdir(userDataDir);
  chrome = await chromeLauncher.launch({
    ...(chromiumLaunchOptions.executablePath
      ? { chromePath: chromiumLaunchOptions.executablePath }
      : {}),
    chromeFlags: ['--headless=new', ...(chromiumLaunchOptions.args ?? [])],
    userDataDir,
    logLevel: 'error',
  });

  console.log(
    `\nLighthouse ${runs > 1 ? `(Median aus ${runs} Läufen) ` : ''}mobil, ${server.url}` +
      `\nZiel: Performance ${goal.score}, LCP ≤ ${goal.lcpMs} ms, TBT ≤ ${goal.tbtMs} ms, CLS ${goal.cls}\n`,
  );
  console.log('Seite            Score    FCP ms    LCP ms   TBT ms    CLS   JS KB   LCP-Element');
  for (const address of pages) {
    const measures: Measure[] = [];
    for (let i = 0; i < runs; i += 1) {
      // Lighthouse now and then loses the trace of a load (NO_NAVSTART): that load is taken again.
      const url = `${server.url}${address}`;
      const port = chrome.port;
      measures.push(
        await measure(url, port).catch((error: unknown) => {
          console.warn(`  ${address}: ${String(error)}; neuer Versuch`);
          return measure(url, port);
        }),
      );
    }
    const m = medianRun(measures);
    const met =
      m.score >= goal.score && m.lcp <= goal.lcpMs && m.tbt <= goal.tbtMs && m.cls <= goal.cls;
    if (!met) missed += 1;
    console.log(
      `${address.padEnd(16)} ${String(m.score).padStart(5)} ${Math.round(m.fcp).toString().padStart(9)} ${Math.round(m.lcp).toString().padStart(9)} ${Math.round(m.tbt).toString().padStart(8)} ${m.cls.toFixed(3).padStart(6)} ${(m.js / 1024).toFixed(1).padStart(7)}   ${m.lcpElement}${met ? '' : '  (Ziel verfehlt)'}`,
    );
    if (process.env.BENCH_DETAIL) console.log(m.detail);
  }
  console.log(`\n${pages.length - missed} von ${pages.length} Seiten erreichen das Ziel.`);
} finally {
  await chrome?.kill();
  await server?.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
