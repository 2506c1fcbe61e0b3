// npm run bench:paint — what prerendering buys a visitor on a phone: the first contentful paint of
// public pages as built (prerendered HTML, hydrated) against the same build with empty page HTML
// (rendered by JavaScript only), under a throttled phone profile (150 ms latency, 1.6 Mbit/s,
// CPU 4x slower), a first visit without service worker. Median of 3 loads per page and variant.
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium.ts';
import { startServerProcess, type ServerProcess } from '../tests/helpers/server-process.ts';

const pages = ['/universa', '/tiptoptabaluga', '/impressum'];
const loads = 3;

async function firstContentfulPaint(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 390, height: 844 },
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: 200_000,
      uploadThroughput: 90_000,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.locator('h1').first().waitFor({ timeout: 30_000 });
    const fcp = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    );
    if (fcp === undefined) throw new Error(`${url}: keine first-contentful-paint gemessen`);
    return fcp;
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const work = await mkdtemp(path.join(tmpdir(), 'bench-paint-'));
const servers: ServerProcess[] = [];
let browser: Browser | undefined;
try {
  // The same build with every page's prerendered body taken out again.
  const shellDir = path.join(work, 'dist-shell');
  await cp('dist', shellDir, { recursive: true });
  for (const address of pages) {
    const file = path.join(shellDir, address, 'index.html');
    const html = await readFile(file, 'utf8');
    await writeFile(
      file,
      html.replace(/<div id="root">[\s\S]*<\/div>(\s*<\/body>)/, '<div id="root"></div>$1'),
    );
  }
  const start = (name: string, staticDir: string) =>
    startServerProcess({
      DATA_DIR: path.join(work, name),
      STATIC_DIR: staticDir,
      ADMIN_PASSWORD: 'bench-Admin-Passwort-1',
    });
  const prerendered = await start('data-a', path.resolve('dist'));
  servers.push(prerendered);
  const shell = await start('data-b', shellDir);
  servers.push(shell);
  browser = await chromium.launch(chromiumLaunchOptions);

  console.log(`\nErste inhaltliche Darstellung (FCP), Median aus ${loads} Aufrufen, gedrosselt:`);
  console.log('Seite               vorgerendert   nur JavaScript   Faktor');
  for (const address of pages) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < loads; i += 1) {
      a.push(await firstContentfulPaint(browser, `${prerendered.url}${address}`));
      b.push(await firstContentfulPaint(browser, `${shell.url}${address}`));
    }
    const [fa, fb] = [median(a), median(b)];
    console.log(
      `${address.padEnd(18)} ${`${Math.round(fa)} ms`.padStart(12)}   ${`${Math.round(fb)} ms`.padStart(14)}   ${(fb / fa).toFixed(2).padStart(6)}`,
    );
  }
} finally {
  await browser?.close();
  for (const server of servers) await server.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
