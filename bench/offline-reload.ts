// npm run bench:offline — the installed app with the network off: a reload of /tiptoptabaluga to
// its first question on screen. The built app from the real server (server/main.ts as its own
// process on 127.0.0.1, an empty DATA_DIR), Chromium with a phone-sized window and no throttling:
// one online visit until the service worker is active and controls the page and the
// questionnaire shows, then the network goes off (context.setOffline and CDP
// Network.emulateNetworkConditions) and the page is reloaded BENCH_RELOADS times (default 10).
//
// Timed in the page, from navigation start (performance.timeOrigin: 0) to the first question's
// heading in the DOM and visible, and to the frame after that (two animation frames: painted).
// Printed: median and p90 of the latter beside the goal (≤ 300 ms), with first contentful paint,
// DOMContentLoaded and the first question in the DOM for where the time goes. Bounded: at most
// 50 reloads, 30 s each.
//
//   npm run bench:offline
//   BENCH_RELOADS=20 npm run bench:offline
//   BENCH_STATIC_DIR=.tmp/dist-before npm run bench:offline   (another build, for before/after)
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import { startServerProcess, type ServerProcess } from '../tests/helpers/server-process.ts';

const reloads = Number(process.env.BENCH_RELOADS ?? 10);
if (!Number.isInteger(reloads) || reloads < 1 || reloads > 50) {
  throw new Error('BENCH_RELOADS muss eine ganze Zahl von 1 bis 50 sein.');
}
const address = '/tiptoptabaluga';
const firstQuestion = 'Wie viele Kinder möchten Sie absichern?';
const goalMs = 300;

// Runs at the start of every document, before the app's scripts: watches for the first
// question's heading. Plain JavaScript text: tsx's helpers do not exist in the page.
const watchScript = `(() => {
  const marks = { dom: 0, painted: 0 };
  window.offlineBench = marks;
  const found = () => [...document.querySelectorAll('h1, h2, h3, legend, label')].find(
    (element) => element.textContent.trim() === ${JSON.stringify(firstQuestion)}
      && element.checkVisibility());
  const check = () => {
    if (marks.dom || !found()) return;
    marks.dom = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => { marks.painted = performance.now(); }));
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

interface Reload {
  painted: number;
  dom: number;
  fcp: number;
  domContentLoaded: number;
  /** The questionnaire's definition (GET /api/forms/1/questions, the worker's copy offline). */
  definitionStart: number;
  definitionEnd: number;
  /** The last script of the page's code (the lazy chunks included) before the question. */
  scriptsEnd: number;
}

async function timedReload(page: Page): Promise<Reload> {
  await page.reload({ waitUntil: 'commit', timeout: 30_000 });
  // A polling promise in the page (waitForFunction's string predicate needs eval, which the
  // app's Content-Security-Policy refuses).
  await page.evaluate(`new Promise((resolve, reject) => {
    const until = Date.now() + 30000;
    const tick = () => window.offlineBench && window.offlineBench.painted > 0 ? resolve()
      : Date.now() > until ? reject(new Error('Erste Frage nicht erschienen')) : setTimeout(tick, 5);
    tick();
  })`);
  return (await page.evaluate(`(() => {
    const navigation = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const resources = performance.getEntriesByType('resource');
    const definition = resources.find((entry) => entry.name.endsWith('/api/forms/1/questions'));
    return {
      painted: window.offlineBench.painted,
      dom: window.offlineBench.dom,
      fcp: fcp ? fcp.startTime : NaN,
      domContentLoaded: navigation ? navigation.domContentLoadedEventEnd : NaN,
      definitionStart: definition ? definition.startTime : NaN,
      definitionEnd: definition ? definition.responseEnd : NaN,
      scriptsEnd: Math.max(0, ...resources
        .filter((entry) => entry.initiatorType !== 'fetch' && /\\.js$/.test(entry.name)
          && entry.responseEnd <= window.offlineBench.dom)
        .map((entry) => entry.responseEnd)),
    };
  })()`)) as Reload;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const ms = (value: number) => `${Math.round(value)} ms`;

const build = process.env.BENCH_STATIC_DIR
  ? { status: 0 }
  : spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const work = await mkdtemp(path.join(tmpdir(), 'bench-offline-'));
let server: ServerProcess | undefined;
let browser: Browser | undefined;
try {
  server = await startServerProcess({
    DATA_DIR: path.join(work, 'data'),
    STATIC_DIR: path.resolve(process.env.BENCH_STATIC_DIR ?? 'dist'),
    ADMIN_PASSWORD: 'bench-Admin-Passwort-1',
  });
  browser = await chromium.launch(chromiumLaunchOptions);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript({ content: watchScript });
  const page = await context.newPage();

  // The online visit that installs the app: the service worker active and in control, the
  // questionnaire on screen, the status control loaded (it registers the sync).
  await page.goto(`${server.url}${address}`, { timeout: 30_000 });
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) {
    // The first visit is controlled only after the worker claimed it: one reload online.
    await page.reload();
  }
  await page.getByRole('heading', { name: firstQuestion }).waitFor({ timeout: 30_000 });
  await page.getByTestId('wartende-anfragen').waitFor({ state: 'attached', timeout: 30_000 });

  await context.setOffline(true);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: true,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // One reload offline not counted (the worker's first start from its caches is measured apart).
  const first = await timedReload(page);
  const results: Reload[] = [];
  for (let i = 0; i < reloads; i += 1) results.push(await timedReload(page));

  const painted = results.map((r) => r.painted);
  const line = (label: string, values: number[]) =>
    console.log(
      `  ${label.padEnd(36)} Median ${ms(quantile(values, 0.5)).padStart(7)}   p90 ${ms(quantile(values, 0.9)).padStart(7)}`,
    );
  console.log(
    `\nOffline neu laden ${address} bis zur ersten Frage (Chromium, ${reloads} Mal, ohne Drosselung):`,
  );
  const median = quantile(painted, 0.5);
  const p90 = quantile(painted, 0.9);
  console.log(
    `  ${'Erste Frage sichtbar (gezeichnet)'.padEnd(36)} Median ${ms(median).padStart(7)}   p90 ${ms(p90).padStart(7)}   (Ziel ≤ ${goalMs} ms) ${p90 <= goalMs ? 'erreicht' : median <= goalMs ? 'Median erreicht, p90 verfehlt' : 'VERFEHLT'}`,
  );
  const rows: [string, (r: Reload) => number][] = [
    ['Erste Frage im DOM', (r) => r.dom],
    ['First Contentful Paint', (r) => r.fcp],
    ['DOMContentLoaded', (r) => r.domContentLoaded],
    ['Letztes Skript vor der Frage geladen', (r) => r.scriptsEnd],
    ['Fragebogen-Definition angefragt', (r) => r.definitionStart],
    ['Fragebogen-Definition da', (r) => r.definitionEnd],
  ];
  for (const [label, value] of rows) line(label, results.map(value));
  console.log(`  Erster Reload offline (nicht gezählt): ${ms(first.painted)}`);
} finally {
  await browser?.close();
  await server?.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
