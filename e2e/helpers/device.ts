import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { responsesFor } from './hub.ts';

/** A lead request as the hub would have received it. */
export interface LeadPost {
  url: string;
  /** Sent by the service worker (Background Sync), not by a page. */
  fromWorker: boolean;
  body: string;
}

/**
 * Records every POST to the hub's lead endpoints (`/api/responses`, `/api/responses/batch`) made
 * in this browser context: by any page and by the service worker. Only the context sees the
 * worker's requests (`page.on('request')` does not).
 */
export function recordLeadPosts(context: BrowserContext): LeadPost[] {
  const posts: LeadPost[] = [];
  context.on('request', (request) => {
    if (request.method() !== 'POST') return;
    if (!new URL(request.url()).pathname.startsWith('/api/responses')) return;
    posts.push({
      url: request.url(),
      fromWorker: request.serviceWorker() !== null,
      body: request.postData() ?? '',
    });
  });
  return posts;
}

/** Waits until the service worker is active (its precache is complete). */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

/**
 * Waits until the active service worker controls this page: its requests and the documents it
 * navigates to go through the worker (the first document of a visit is not controlled).
 */
export async function waitForServiceWorkerControl(page: Page) {
  await waitForServiceWorker(page);
  if (await page.evaluate(() => navigator.serviceWorker.controller === null)) {
    await page.reload();
  }
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/**
 * Waits until both questionnaires are stored on the device (the landing page's warm-up): under
 * the simulation a questionnaire comes from the device only.
 */
export async function waitForStoredQuestionnaires(page: Page) {
  await expect.poll(() => page.evaluate(storedDefinitionIds), { timeout: 10_000 }).toEqual([1, 2]);
}

/** Runs in the page: the ids of the questionnaires stored on the device. */
async function storedDefinitionIds(): Promise<number[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('universa-offline');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  try {
    if (!db.objectStoreNames.contains('definitions')) return [];
    const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
      const req = db.transaction('definitions').objectStore('definitions').getAllKeys();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    return keys.map(Number).sort();
  } finally {
    db.close();
  }
}

/**
 * Background Sync on demand: `sync()` dispatches the outbox's sync event to the service worker,
 * as Chromium does when it judges the connection back (also where this browser build fires none
 * itself); `stopWorker()` stops it, so the next event wakes a worker that knows nothing but
 * what is stored. The CDP session belongs to `page`, which must stay open while these are used.
 */
export async function backgroundSync(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL.startsWith('http://127.0.0.1'));
      if (ours && !ours.isDeleted) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registration;
  return {
    sync: () =>
      cdp.send('ServiceWorker.dispatchSyncEvent', {
        origin: new URL(test.info().project.use.baseURL!).origin,
        registrationId,
        tag: 'outbox-sync',
        lastChance: false,
      }),
    stopWorker: () => cdp.send('ServiceWorker.stopAllWorkers'),
  };
}

/** How long a test watches for a request that must not come. */
export const quietPeriodMs = 1_500;

/**
 * Nothing reached the hub: no lead request from a page or the worker during a short watch, and
 * none of these leads stored (the hub's own record).
 */
export async function expectNothingSent(
  page: Page,
  posts: LeadPost[],
  request: Parameters<typeof responsesFor>[0],
  emails: string[],
) {
  await page.waitForTimeout(quietPeriodMs);
  expect(posts, 'Anfragen an den Hub, während nichts gesendet werden darf').toEqual([]);
  for (const email of emails) expect(await responsesFor(request, email), email).toEqual([]);
}

/** Each of these leads is stored by the hub exactly once (polled, then checked again). */
export async function expectEachSentOnce(
  request: Parameters<typeof responsesFor>[0],
  emails: string[],
) {
  for (const email of emails) {
    await expect
      .poll(async () => (await responsesFor(request, email)).length, {
        message: email,
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
  }
  for (const email of emails) expect(await responsesFor(request, email), email).toHaveLength(1);
}

export const devicePagePath = '/geraet';

/**
 * Opens the device page, where the agent and a tester change this device's settings (`base`: the
 * origin of another server than the test's own).
 */
export async function openDevicePage(page: Page, base = '') {
  await page.goto(`${base}${devicePagePath}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dieses Gerät' })).toBeVisible();
}

export function simulationSwitch(page: Page) {
  return page.getByRole('switch', { name: 'Offline simulieren' });
}

export function fairModeSwitch(page: Page) {
  return page.getByRole('switch', { name: 'Messe-Modus' });
}

export function pinDialog(page: Page) {
  return page.getByRole('dialog', { name: 'PIN bestätigen' });
}

/** Enters the PIN in the open 'PIN bestätigen' dialog; the dialog closes if it was right. */
export async function confirmPin(page: Page, pin: string) {
  const dialog = pinDialog(page);
  await dialog.getByRole('textbox', { name: 'PIN' }).fill(pin);
  await dialog.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Switches 'Offline simulieren' on the device page (open it first), with the PIN while fair mode
 * is on. Returns once the switch shows the new state, which it does only once the setting is
 * durable for every sender.
 */
export async function setSimulation(page: Page, on: boolean, options: { pin?: string } = {}) {
  const toggle = simulationSwitch(page);
  await expect(toggle).toBeChecked({ checked: !on });
  await toggle.click();
  if (options.pin !== undefined) await confirmPin(page, options.pin);
  await expect(toggle).toBeChecked({ checked: on });
}

/** Switches fair mode on at the device page (open it first) with a new PIN. */
export async function turnFairModeOn(page: Page, pin: string) {
  const toggle = fairModeSwitch(page);
  await expect(toggle).not.toBeChecked();
  // A click, not check(): the switch stays off until the PIN is set.
  await toggle.click();
  const setup = page.getByRole('dialog').filter({ has: page.getByLabel('Neue PIN') });
  const understood = page.getByRole('button', { name: 'Verstanden, PIN festlegen' });
  await expect(understood.or(setup).first()).toBeVisible();
  if (await understood.isVisible()) await understood.click();
  await setup.getByLabel('Neue PIN').fill(pin);
  await setup.getByLabel('PIN wiederholen').fill(pin);
  await setup.getByRole('button', { name: /einschalten|festlegen/ }).click();
  await expect(setup).toBeHidden();
  await expect(toggle).toBeChecked();
}

/** The connection chip in the public header. */
export function connectionStatus(page: Page) {
  return page.getByTestId('verbindungsstatus');
}
