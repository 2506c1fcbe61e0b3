// npm run screenshots — the store screenshots the manifests offer in the install dialog, taken
// from the built app on a throwaway database. Needs a build (`npx vite build`) and Chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const screenshotsDir = path.join(root, 'public', 'screenshots');
// Debian's Chromium where it exists: these machines cannot download Playwright's own build.

interface Shot {
  file: string;
  url: string;
  viewport: { width: number; height: number };
  mobile: boolean;
  /** Resolves once the screen shows what the screenshot is meant to show. */
  ready: (page: Page) => Promise<void>;
}

const shots: readonly Shot[] = [
  {
    file: 'app-narrow.png',
    url: '/tiptoptabaluga',
    viewport: { width: 390, height: 844 },
    mobile: true,
    ready: async (page) => {
      await page.getByRole('progressbar', { name: 'Fortschritt im Fragebogen' }).waitFor();
      await page.getByRole('button', { name: 'Zwei' }).waitFor();
    },
  },
  {
    file: 'app-wide.png',
    url: '/universa',
    viewport: { width: 1280, height: 800 },
    mobile: false,
    ready: (page) => page.getByRole('heading', { level: 1 }).waitFor(),
  },
  {
    file: 'desk-wide.png',
    url: '/surveydesk/signin',
    viewport: { width: 1280, height: 800 },
    mobile: false,
    ready: (page) => page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor(),
  },
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, server: ChildProcess): Promise<void> {
  // The first start runs the migrations and seeds the questionnaires.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`Server beendet (Code ${server.exitCode ?? '-'}), bevor er bereit war.`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${baseUrl}/api/health antwortet nicht.`);
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.pid === undefined || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  process.kill(server.pid, 'SIGTERM');
  // A server that hangs on shutdown must not keep the script (and the temp folder) alive.
  const timer = setTimeout(() => {
    if (server.pid !== undefined && server.exitCode === null) process.kill(server.pid, 'SIGKILL');
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

async function takeScreenshots(browser: Browser, baseUrl: string): Promise<void> {
  await mkdir(screenshotsDir, { recursive: true });
  for (const shot of shots) {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: shot.viewport,
      deviceScaleFactor: 1,
      isMobile: shot.mobile,
      hasTouch: shot.mobile,
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
      colorScheme: 'light',
      reducedMotion: 'reduce',
      // A service worker would answer from its cache and could show an update notice.
      serviceWorkers: 'block',
    });
    try {
      const page = await context.newPage();
      await page.goto(shot.url, { waitUntil: 'networkidle' });
      await shot.ready(page);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const target = path.join(screenshotsDir, shot.file);
      await page.screenshot({ path: target, animations: 'disabled', caret: 'hide' });
      console.log(`geschrieben: public/screenshots/${shot.file}`);
    } finally {
      await context.close();
    }
  }
}

async function main(): Promise<void> {
  if (!existsSync(path.join(root, 'dist', 'index.html'))) {
    console.error('make-screenshots: dist/ fehlt, zuerst `npx vite build` ausführen.');
    process.exit(1);
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'universa-screenshots-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    // stdout carries the admin password banner, which does not belong in this script's output.
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // A DATABASE_URL from the developer's shell would point the server at a real database.
      DATABASE_URL: '',
      ADMIN_PASSWORD: 'screenshots-Admin-Passwort-1',
      LOG_LEVEL: 'warn',
    },
  });
  let browser: Browser | undefined;
  try {
    await waitForHealth(baseUrl, server);
    browser = await chromium.launch(chromiumLaunchOptions);
    await takeScreenshots(browser, baseUrl);
  } finally {
    await browser?.close();
    await stopServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
