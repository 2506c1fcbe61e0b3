import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { waitingCount } from './helpers/journeys.ts';

// Issue 14: the landing page loads nothing for forms, the outbox or the consent dialog before
// the visitor interacts; issue 37: no React either (its islands are plain DOM). A library is recognised by strings
// of its own that minification keeps (error names, option keys, CSS classes), looked up in the
// built files the page requested: chunk names change with every build, these strings do not.

const dist = path.resolve('dist');

const libraries = {
  // The element symbol's name, in both `react` and `react-dom`.
  React: ['react.transitional.element'],
  Dexie: ['DatabaseClosedError', 'Dexie SchemaDiff'],
  zod: ['$ZodType', 'ZodError'],
  'react-hook-form': ['shouldUseNativeValidation', 'reValidateMode'],
  'vanilla-cookieconsent': ['show--preferences', 'show--consent'],
} as const;
type Library = keyof typeof libraries;

function builtScript(url: string): string {
  return readFileSync(path.join(dist, new URL(url).pathname), 'utf8');
}

function librariesIn(code: string): Library[] {
  return (Object.keys(libraries) as Library[]).filter((name) =>
    libraries[name].some((marker) => code.includes(marker)),
  );
}

/** Every same-origin script the page requests from now on (the page's own, not the worker's). */
function recordScripts(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' && url.pathname.startsWith('/assets/')) {
      urls.push(request.url());
    }
  });
  return urls;
}

/** The questionnaires the page keeps on the device (src/offline/definitions-warmup.ts). */
function storedDefinitions(): Promise<number> {
  return new Promise((resolve) => {
    const open = indexedDB.open('universa-offline');
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => resolve(0);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('definitions')) return resolve(0);
      const count = db.transaction('definitions').objectStore('definitions').count();
      count.onsuccess = () => resolve(count.result);
      count.onerror = () => resolve(0);
      count.transaction?.addEventListener('complete', () => db.close());
    };
  });
}

/**
 * Everything a page starts by itself is done: load, the header's status, the service worker
 * installed, the questionnaires kept on the device; then a moment without any request.
 */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  await expect(waitingCount(page)).toBeAttached();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(storedDefinitions), { timeout: 20_000 }).toBe(2);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1_000);
}

function report(title: string, urls: string[]) {
  const files = [...new Set(urls)].map((url) => {
    const code = readFileSync(path.join(dist, new URL(url).pathname));
    return {
      name: new URL(url).pathname,
      raw: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
    };
  });
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const gzip = files.reduce((sum, f) => sum + f.gzip, 0);
  const raw = files.reduce((sum, f) => sum + f.raw, 0);
  console.log(
    `${title}: ${files.length} Skripte, ${kb(raw)} roh, ${kb(gzip)} gzip\n` +
      files.map((f) => `  ${f.name}  ${kb(f.gzip)} gzip`).join('\n'),
  );
}

test('the markers find every library in the build, so the checks below can fail', () => {
  const code = readdirSync(path.join(dist, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(path.join(dist, 'assets', file), 'utf8'))
    .join('\n');
  expect(librariesIn(code).sort()).toEqual((Object.keys(libraries) as Library[]).sort());
});

test('/universa loads no React, form, outbox or consent code before a returning visitor interacts', async ({
  page,
}) => {
  // The e2e default: a visitor who already chose about cookies, so no consent dialog shows.
  const scripts = recordScripts(page);
  await page.goto('/universa');
  await settle(page);
  await expect(page.getByRole('dialog', { name: 'Ihre Privatsphäre' })).toHaveCount(0);

  report('JavaScript für /universa (wiederkehrender Besuch, Wahl zu Cookies getroffen)', scripts);
  const found = scripts.map((url) => ({
    script: new URL(url).pathname,
    libraries: librariesIn(builtScript(url)),
  }));
  expect(found.filter((f) => f.libraries.length > 0)).toEqual([]);
});

test('a new visitor gets the consent banner, and still no React, form or outbox code', async ({
  browser,
}) => {
  // No choice yet: the banner is what the page shows, so the consent tool's code is the page's.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const scripts = recordScripts(page);
  await page.goto('/universa');
  await settle(page);
  await expect(page.getByRole('dialog', { name: 'Ihre Privatsphäre' })).toBeVisible();

  report('JavaScript für /universa (neuer Besuch, Cookie-Banner sichtbar)', scripts);
  const found = scripts.map((url) => ({
    script: new URL(url).pathname,
    libraries: librariesIn(builtScript(url)).filter((name) => name !== 'vanilla-cookieconsent'),
  }));
  expect(found.filter((f) => f.libraries.length > 0)).toEqual([]);
  await context.close();
});

test('a visitor with nothing waiting opens the device panel: the connection, no control', async ({
  page,
}) => {
  await page.goto('/universa');
  await settle(page);
  await page
    .locator('summary')
    .filter({ has: page.getByTestId('verbindungsstatus') })
    .click();
  await expect(page.getByText('Dieses Gerät ist online.')).toBeVisible();
  await expect(page.getByText('Auf diesem Gerät wartet keine Anfrage.')).toBeVisible();
  // 'Jetzt senden' only while a lead waits; the device's settings are on /geraet.
  const header = page.getByRole('banner');
  await expect(header.getByRole('button')).toHaveCount(0);
  await expect(header.getByRole('switch')).toHaveCount(0);
});
