import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { expectNoAxeViolations, responsesFor } from './helpers/hub.ts';
import { openDevicePage, setSimulation } from './helpers/device.ts';
import {
  expectNothingWaiting,
  fillContact,
  openDevicePanel,
  waitingCount,
} from './helpers/journeys.ts';

// Issue 25: a prerendered public page is never hydrated as a whole. Its text and links stay the
// HTML the build wrote; only its islands (src/islands.tsx: the header's status, the notices, the
// consent banner, a form) run code. Issue 37: the header's status, the notices and the cookie
// button are plain DOM, so a page without a form or questionnaire runs no React until the visitor
// opens the status's panel; a React island gets a root of its own. React marks every element it
// owns with a `__reactFiber$…` key and every root container with `__reactContainer$…`.

/**
 * Elements of `selector` (the element itself and everything in it outside an island) that React
 * owns, as tag names.
 */
function reactOwned(page: Page, selector: string) {
  return page.locator(selector).evaluate((root) => {
    const owned = (element: Element) =>
      Object.keys(element).some(
        (key) => key.startsWith('__reactFiber$') || key.startsWith('__reactContainer$'),
      );
    return [root, ...root.querySelectorAll('*')]
      .filter((element) => !element.closest('[data-island]'))
      .filter(owned)
      .map((e) => e.tagName.toLowerCase());
  });
}

/** The islands that run: elements with a React root on them. */
function islandRoots(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-island]')]
      .filter((element) => Object.keys(element).some((key) => key.startsWith('__reactContainer$')))
      .map((element) => element.dataset['island']),
  );
}

/**
 * The scripts the page loaded that carry React (its element symbol is in `react` and
 * `react-dom`), as paths.
 */
async function scriptsWithReact(page: Page) {
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .map((name) => new URL(name).pathname)
      .filter((file) => file.startsWith('/assets/') && file.endsWith('.js')),
  );
  // The built files the page got (from the server or the worker's precache, online or off).
  return scripts.filter((file) =>
    readFileSync(path.join('dist', file), 'utf8').includes('react.transitional.element'),
  );
}

const hasReactRoot = (element: Element) =>
  Object.keys(element).some((key) => key.startsWith('__reactContainer$'));

async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

async function newVisitor(browser: import('@playwright/test').Browser) {
  return browser.newContext({ storageState: { cookies: [], origins: [] } });
}

test('/universa: no React before the first interaction; the status, the notices and the consent banner work', async ({
  browser,
}) => {
  const context = await newVisitor(browser);
  const page = await context.newPage();
  await page.goto('/universa');
  const banner = page.getByRole('dialog', { name: 'Ihre Privatsphäre' });
  await expect(banner).toBeVisible();
  await expect(waitingCount(page)).toContainText('keine Anfragen warten');

  // Neither the page's root nor its main content, heading, footer or links belong to React.
  expect(await reactOwned(page, '#root')).toEqual([]);
  expect(await reactOwned(page, 'main')).toEqual([]);
  expect(await reactOwned(page, 'footer')).toEqual([]);
  expect(await reactOwned(page, 'header > div > a')).toEqual([]);
  // The status and the notices are plain DOM: no island has a React root, no script is React.
  expect(await islandRoots(page)).toEqual([]);
  expect(await reactOwned(page, 'header:has([data-island="device-status"])')).toEqual([]);
  expect(await scriptsWithReact(page)).toEqual([]);

  // Without React the status follows the connection.
  const connection = page.getByTestId('verbindungsstatus');
  await context.setOffline(true);
  await expect(connection).toHaveText('Offline');
  await context.setOffline(false);
  await expect(connection).toHaveText('Online');
  await expectNoAxeViolations(page);

  // The consent banner (no React) records the choice and goes.
  await banner.getByRole('button', { name: 'Alle ablehnen' }).click();
  await expect(banner).toBeHidden();
  expect((await context.cookies()).map((c) => c.name)).toContain('cc_cookie');

  // The status control opens its panel: a visitor with nothing waiting sees the connection and
  // that nothing waits, and no control at all (tester and fair-mode settings are on /geraet).
  await openDevicePanel(page);
  await expect(page.getByText('Dieses Gerät ist online.')).toBeVisible();
  await expect(page.getByText('Auf diesem Gerät wartet keine Anfrage.')).toBeVisible();
  const header = page.getByRole('banner');
  await expect(header.getByRole('switch')).toHaveCount(0);
  await expect(header.getByRole('checkbox')).toHaveCount(0);
  await expect(header.getByRole('button')).toHaveCount(0);
  // The panel's content came with React, in a root of its own inside the status.
  const panel = page.locator('[data-island="device-status"] details > div');
  await expect.poll(() => panel.evaluate(hasReactRoot)).toBe(true);
  expect(await islandRoots(page)).toEqual([]);
  await expectNoAxeViolations(page);
  await context.close();
});

test('/universa without React: the status follows the simulated offline mode, live from another tab', async ({
  context,
  page,
}) => {
  await openDevicePage(page);
  await setSimulation(page, true);
  await page.goto('/universa');
  const connection = page.getByTestId('verbindungsstatus');
  const banner = page.getByTestId('simulation-banner');
  await expect(connection).toHaveText('Offline (simuliert)');
  await expect(banner).toContainText('Offline-Simulation aktiv');
  await expect(waitingCount(page)).toContainText('keine Anfragen warten');
  expect(await islandRoots(page)).toEqual([]);
  expect(await scriptsWithReact(page)).toEqual([]);

  // The tester switches it off on the device page in another tab: this page follows at once.
  const devicePage = await context.newPage();
  await openDevicePage(devicePage);
  await setSimulation(devicePage, false);
  await expect(connection).toHaveText('Online');
  await expect(banner).toHaveCount(0);
  // And on again: the status and the banner come back, still without React.
  await setSimulation(devicePage, true);
  await expect(connection).toHaveText('Offline (simuliert)');
  await expect(banner).toBeVisible();
  expect(await scriptsWithReact(page)).toEqual([]);
  await setSimulation(devicePage, false);
  await expect(connection).toHaveText('Online');
});

test('a tap on an island before its code runs is kept: the cookie settings open', async ({
  page,
}) => {
  // The button's code is held back: the visitor taps while the page shows the button only.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/cookie-settings-dom-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/datenschutz');
  const island = page.locator('[data-island="cookie-settings"]');
  const settings = page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
  await page.getByRole('button', { name: 'Cookie-Einstellungen öffnen' }).click();
  await expect(island).not.toHaveAttribute('data-island-running');
  await expect(settings).toHaveCount(0);

  release();
  await expect(island).toHaveAttribute('data-island-running');
  await expect(settings).toBeVisible();
  // Once: the held tap is not kept for a later start.
  await expect(island.locator('[data-held-click]')).toHaveCount(0);
});

for (const address of ['/impressum', '/datenschutz', '/agb', '/cookies']) {
  test(`${address}: no React before the first interaction; the cookie settings open`, async ({
    browser,
  }) => {
    const context = await newVisitor(browser);
    const page = await context.newPage();
    await page.goto(address);
    await expect(waitingCount(page)).toContainText('keine Anfragen warten');
    expect(await islandRoots(page)).toEqual([]);
    expect(await scriptsWithReact(page)).toEqual([]);
    await page
      .getByRole('dialog', { name: 'Ihre Privatsphäre' })
      .getByRole('button', { name: 'Alle ablehnen' })
      .click();
    const settings = page.getByRole('button', { name: 'Cookie-Einstellungen öffnen' });
    if (address === '/impressum' || address === '/agb') {
      await expect(settings).toHaveCount(0);
    } else {
      // The button is a plain DOM island: the consent tool opens without React.
      await settings.click();
      await expect(page.getByRole('dialog', { name: 'Cookie-Einstellungen' })).toBeVisible();
      expect(await scriptsWithReact(page)).toEqual([]);
    }
    await context.close();
  });
}

test('a link to another public page is a new document served with its own islands', async ({
  page,
}) => {
  await page.goto('/universa');
  await expect(waitingCount(page)).toBeAttached();
  await page.getByRole('link', { name: /Kontaktformular öffnen/ }).click();
  await expect(page).toHaveURL(/\/universa\/kontakt$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Kostenlosen Versicherungscheck buchen' }),
  ).toBeVisible();
  await expect(waitingCount(page)).toBeAttached();
  expect(await reactOwned(page, 'main > div > header')).toEqual([]);
});

test('what a visitor types before the form runs is kept and sent', async ({ page, request }) => {
  const email = uniqueEmail('insel');
  // The form's code is held back until the visitor types: nothing is lost meanwhile.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/contact-page-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/kontakt');
  const firstName = page.getByLabel('Vorname');
  await firstName.fill('Jürgen');
  await page.getByLabel(/^Ich akzeptiere die AGB/).check();
  release();
  await expect
    .poll(() => islandRoots(page), { message: 'das Formular läuft' })
    .toContain('contact-form');
  await expect(firstName).toHaveValue('Jürgen');
  await expect(page.getByLabel(/^Ich akzeptiere die AGB/)).toBeChecked();

  await fillContact(page, email);
  await page.getByLabel('Geburtsdatum').fill('1980-05-17');
  await page.getByRole('button', { name: 'Absenden' }).click();
  await expect(page.getByText(/Erfolgreich gesendet/)).toBeVisible();
  await expect.poll(() => responsesFor(request, email).then((r) => r.length)).toBe(1);
  expect(await reactOwned(page, 'main > div > header')).toEqual([]);
});

async function goOffline(context: BrowserContext, page: Page) {
  await page.goto('/universa');
  await waitForServiceWorker(page);
  await expect(waitingCount(page)).toBeAttached();
  await context.setOffline(true);
}

test('offline, the worker serves every prerendered page and its islands work', async ({
  context,
  page,
  request,
}) => {
  await goOffline(context, page);
  await page.goto('/universa');
  await expect(page.getByTestId('verbindungsstatus')).toContainText('Offline');
  expect(await reactOwned(page, 'main')).toEqual([]);
  // Offline too the status runs without React until its panel opens.
  expect(await islandRoots(page)).toEqual([]);
  expect(await scriptsWithReact(page)).toEqual([]);
  // The status's panel brings its React code from the worker's precache.
  await openDevicePanel(page);
  await expect(page.getByText('Dieses Gerät ist offline.')).toBeVisible();
  const panel = page.locator('[data-island="device-status"] details > div');
  await expect.poll(() => panel.evaluate(hasReactRoot)).toBe(true);
  await expect(page.getByText('Auf diesem Gerät wartet keine Anfrage.')).toBeVisible();
  await page.keyboard.press('Escape');

  // A link is a navigation the worker answers with the prerendered page.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Kontakt', exact: true }).click();
  await expect(page).toHaveURL(/\/kontakt$/);
  await expect(page.getByTestId('verbindungsstatus')).toContainText('Offline');
  const email = uniqueEmail('insel-offline');
  await fillContact(page, email);
  await page.getByLabel('Geburtsdatum').fill('1980-05-17');
  await page.getByRole('button', { name: 'Absenden' }).click();
  await expect(page.getByText(/auf diesem Gerät gespeichert/)).toBeVisible();
  await expect(waitingCount(page)).toHaveText('· 1 Anfrage wartet');
  await expectNoAxeViolations(page);

  // The questionnaire's island shows its first question offline.
  await page.goto('/tiptoptabaluga');
  await expect(
    page.getByRole('heading', { name: 'Wie viele Kinder möchten Sie absichern?' }),
  ).toBeVisible();
  expect(await reactOwned(page, 'main > div > header')).toEqual([]);

  // Back online, the waiting lead is sent from the page.
  await context.setOffline(false);
  await expectNothingWaiting(page, 30_000);
  expect(await responsesFor(request, email)).toHaveLength(1);
});

test("a questionnaire's first tap before React starts is kept", async ({ page }) => {
  // Issue 37: the first question is in the HTML. The questionnaire's code is held back until
  // after the visitor has tapped an answer: the tap is kept and counts once the code runs.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(/\/assets\/tabaluga-page-[\w-]+\.js$/, async (route) => {
    requested = true;
    await held;
    await route.continue();
  });
  await page.goto('/tiptoptabaluga');
  await expect.poll(() => requested, { message: 'der Fragebogen-Code wird geladen' }).toBe(true);
  const firstQuestion = page.getByRole('heading', {
    name: 'Wie viele Kinder möchten Sie absichern?',
  });
  await page.getByRole('button', { name: 'Zwei' }).click();
  // Nothing runs the questionnaire yet: the page still shows its first question.
  await expect(firstQuestion).toBeVisible();
  expect(await islandRoots(page)).not.toContain('tabaluga');

  release();
  await expect(page.getByRole('heading', { name: 'Wann sind Ihre Kinder geboren?' })).toBeVisible();
  await expect(page.getByLabel(/^Kind \d$/)).toHaveCount(2);
  expect(await islandRoots(page)).toContain('tabaluga');
  // The answer is recorded: back at the first question it is the chosen one, and the draft has it.
  await page.getByRole('button', { name: 'Zurück' }).click();
  await expect(page.getByRole('button', { name: 'Zwei' })).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => localStorage.getItem('fragebogen-entwurf:1'))).toContain('Zwei');
});
