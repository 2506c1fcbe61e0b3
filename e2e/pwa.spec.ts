import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { compressDist } from '../scripts/compress-dist.mjs';
import { startServerProcess, type ServerProcess } from '../tests/helpers/server-process.ts';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { devicePagePath, openDevicePage, setSimulation } from './helpers/device.ts';
import { responsesFor } from './helpers/hub.ts';
import {
  answerTabaluga,
  expectNothingWaiting,
  leaveAppForBackgroundSync,
  savedOnDevice,
  waitingCount,
} from './helpers/journeys.ts';

const publicPages: [string, string][] = [
  ['/universa', 'Willkommen bei Ihrer Versicherungsagentur'],
  ['/tiptoptabaluga', 'Tabaluga – Vorsorge für Ihre Kinder'],
  ['/pkv', 'Private Krankenversicherung (PKV)'],
  ['/universa/kfz', 'KFZ-Versicherung: Rückruf anfordern'],
  ['/kontakt', 'Kostenlosen Versicherungscheck buchen'],
  ['/impressum', 'Impressum'],
  ['/datenschutz', 'Datenschutzerklärung'],
  ['/agb', 'Allgemeine Geschäftsbedingungen'],
  ['/cookies', 'Cookie-Richtlinie'],
];

/** Waits until the service worker is active, i.e. its precache is complete. */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

test.describe('installed app offline', () => {
  test('after one online visit every public page renders offline on a full reload', async ({
    context,
    page,
  }) => {
    await page.goto('/universa');
    await waitForServiceWorker(page);
    await expect(waitingCount(page)).toBeAttached();
    await context.setOffline(true);

    for (const [url, heading] of publicPages) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
    // The device page too: the agent switches the fair tablet's settings without a connection.
    await page.goto(devicePagePath);
    await expect(page.getByRole('heading', { level: 1, name: 'Dieses Gerät' })).toBeVisible();
    await page.goto('/pkv');
    await expect(
      page.getByRole('heading', { name: 'Wie sind Sie derzeit beschäftigt?' }),
    ).toBeVisible();
    // The API never gets the app's HTML, online or off.
    const api = await page.evaluate(async () => {
      const res = await fetch('/api/responses', { method: 'GET' }).catch(() => undefined);
      return res ? res.headers.get('content-type') : 'kein Netz';
    });
    expect(api).not.toContain('text/html');
  });

  test('the flyer and offer PDFs open offline', async ({ context, page }) => {
    await page.goto('/universa');
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.goto('/tiptoptabaluga');
    const pdfs = [
      '/universa/tabaluga/flyer.pdf',
      '/universa/tabaluga/angebot-25.pdf',
      '/universa/tabaluga/angebot-50.pdf',
      '/universa/tabaluga/angebot-100.pdf',
      '/universa/tabaluga/angebot-150.pdf',
      '/universa/pkv/info.pdf',
      '/universa/pkv/angebot.pdf',
    ];
    for (const url of pdfs) {
      const result = await page.evaluate(async (href) => {
        const res = await fetch(href);
        return { status: res.status, start: (await res.text()).slice(0, 5) };
      }, url);
      expect(result, url).toEqual({ status: 200, start: '%PDF-' });
    }
  });

  test('offline, a reload of the questionnaire shows its first question fast', async ({
    context,
    page,
  }) => {
    await page.goto('/tiptoptabaluga');
    await waitForServiceWorker(page);
    await expect(
      page.getByRole('heading', { name: 'Wie viele Kinder möchten Sie absichern?' }),
    ).toBeVisible();
    await context.setOffline(true);
    const started = Date.now();
    await page.reload();
    await expect(
      page.getByRole('heading', { name: 'Wie viele Kinder möchten Sie absichern?' }),
    ).toBeVisible();
    const ms = Date.now() - started;
    console.log(`Offline-Neuladen bis zur ersten Frage: ${ms} ms`);
    expect(ms).toBeLessThan(5_000);
  });
});

test.describe('updates', () => {
  let server: ServerProcess | undefined;
  let dir: string | undefined;
  test.afterEach(async () => {
    await server?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a new version is offered, never forced; accepted, queued leads survive and sync', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    // A server of its own on a copy of the build, so the test can publish a "new build".
    dir = mkdtempSync(path.join(tmpdir(), 'update-'));
    const staticDir = path.join(dir, 'dist');
    cpSync('dist', staticDir, { recursive: true });
    server = await startServerProcess({
      STATIC_DIR: staticDir,
      DATA_DIR: path.join(dir, 'data'),
      ADMIN_PASSWORD: 'update-Admin-Passwort-1',
      HUB_SERVICE_EMAIL: 'update-crm@example.de',
      HUB_SERVICE_PASSWORD: 'update-Service-Passwort-1',
    });
    const base = server.url;

    await page.goto(`${base}/tiptoptabaluga`);
    await waitForServiceWorker(page);
    await openDevicePage(page, base);
    await setSimulation(page, true);
    await page.goto(`${base}/tiptoptabaluga`);
    const email = uniqueEmail('update');
    await answerTabaluga(page, email);
    await expect(page.getByText(savedOnDevice)).toBeVisible();

    publishNewBuild(staticDir);
    // A deploy ships the build's compressed copies of the changed files too.
    await compressDist(staticDir);
    // A visitor starts the next questionnaire: the update waits for them.
    await page.goto(`${base}/tiptoptabaluga`);
    await page.getByRole('button', { name: 'Zwei' }).click();
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    const prompt = page.getByRole('alertdialog', { name: 'Neue Version verfügbar' });
    await page.waitForFunction(async () =>
      Boolean((await navigator.serviceWorker.getRegistration())?.waiting),
    );
    await page.waitForTimeout(500);
    await expect(prompt).toBeHidden();
    expect(await page.locator('meta[name="app-version"]').count()).toBe(0);

    // Back at the start, nothing is in progress: now it is offered.
    await page.getByRole('button', { name: 'Zurück' }).click();
    await page.goto(`${base}/universa`);
    await expect(prompt).toBeVisible({ timeout: 15_000 });
    await prompt.getByRole('button', { name: 'Jetzt neu laden' }).click();
    await expect(page.locator('meta[name="app-version"]')).toHaveAttribute('content', '2', {
      timeout: 15_000,
    });

    await expect(waitingCount(page)).toHaveText('· 1 Anfrage wartet');
    await openDevicePage(page, base);
    await setSimulation(page, false);
    await expectNothingWaiting(page);
    const login = await request.post(`${base}/api/hub/login`, {
      data: { email: 'update-crm@example.de', password: 'update-Service-Passwort-1' },
    });
    const { token } = (await login.json()) as { token: string };
    const list = await request.get(`${base}/api/responses`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const stored = ((await list.json()) as { email: string }[]).filter((r) => r.email === email);
    expect(stored).toHaveLength(1);
  });
});

/**
 * What a deploy does: changed pages (the app shell and the prerendered landing page, which the
 * worker serves for /universa) and a service worker whose precache knows them.
 */
function publishNewBuild(staticDir: string) {
  const swFile = path.join(staticDir, 'sw.js');
  let sw = readFileSync(swFile, 'utf8');
  for (const page of ['index.html', 'universa/index.html']) {
    const file = path.join(staticDir, page);
    const html = readFileSync(file, 'utf8').replace(
      '<head>',
      '<head><meta name="app-version" content="2">',
    );
    writeFileSync(file, html);
    const entry = new RegExp(`"revision":"[0-9a-f]+","url":"${page.replaceAll('.', '\\.')}"`);
    if (!entry.test(sw)) throw new Error(`${page} fehlt im Precache von sw.js`);
    sw = sw.replace(entry, `"revision":"neue-version-2","url":"${page}"`);
  }
  writeFileSync(swFile, sw);
}

test('Background Sync: the service worker sends a queued lead with no page of the app open', async ({
  context,
  page,
  request,
}) => {
  // The page is offline from before the lead is queued until it is gone, so it cannot send: the
  // lead reaches the hub only through the worker. Playwright's offline switch does not cover the
  // worker's own fetches, so Chromium may fire the sync event (it checks the real network) and
  // the worker may send while the page still stands; both are the worker sending.
  test.setTimeout(90_000);
  const email = uniqueEmail('hintergrund');
  await page.goto('/tiptoptabaluga');
  await waitForServiceWorker(page);
  await expect(waitingCount(page)).toBeAttached();
  await context.setOffline(true);
  await answerTabaluga(page, email);
  await expect(page.getByText(savedOnDevice)).toBeVisible();

  // Leave the app: from here on only the worker can send.
  const { sync } = await leaveAppForBackgroundSync(context, page);
  // Dispatch the sync event too, in case this browser build has not fired it.
  await sync();
  // A run from an earlier sync event may still hold the lock, waiting on its request (up to the
  // 15 s timeout); the worker then waits for it before sending.
  await expect
    .poll(async () => (await responsesFor(request, email)).length, { timeout: 30_000 })
    .toBe(1);
  // A second sync run finds nothing left to send.
  await sync();
  await page.waitForTimeout(500);
  expect(await responsesFor(request, email)).toHaveLength(1);
});
