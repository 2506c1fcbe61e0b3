import { expect, test, type BrowserContext, type Page } from '@playwright/test';

export async function fillContact(
  page: Page,
  email: string,
  options: { offerInfo?: boolean; lastName?: string } = {},
) {
  await page.getByLabel('Vorname').fill('Jürgen');
  await page.getByLabel('Nachname').fill(options.lastName ?? 'Weiß');
  await page.getByLabel('Straße und Hausnummer').fill('Hauptstraße 12');
  await page.getByLabel('PLZ').fill('10115');
  await page.getByLabel('Ort').fill('Berlin');
  await page.getByLabel('Telefonnummer').fill('+49 30 1234567');
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel(/^Ich akzeptiere die AGB/).check();
  await page.getByLabel(/^Ich willige in die Verarbeitung meiner Daten ein/).check();
  if (options.offerInfo) await page.getByLabel(/weitere passende Angebote/).check();
}

/** One child, 100 € a month, then the contact form; the page must show question 1. */
export async function answerTabaluga(
  page: Page,
  email: string,
  options: { lastName?: string } = {},
) {
  await page.getByRole('button', { name: 'Eins' }).click();
  await page.getByLabel('Kind 1').fill('2020-03-03');
  await page.getByRole('button', { name: 'Weiter' }).click();
  await page.getByRole('button', { name: '100 €', exact: true }).click();
  await fillContact(page, email, options);
  await page.getByRole('button', { name: 'Angebot anfordern' }).click();
}

/** A KFZ callback request on /universa/kfz, filled and sent. */
export async function answerKfz(page: Page, email: string) {
  await page.getByLabel('Vorname').fill('Zoë');
  await page.getByLabel('Nachname').fill('Weiß');
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Telefonnummer').fill('+49 171 1234567');
  await page.getByLabel('Gewünschte Rückrufzeit').selectOption('Nachmittags');
  await page.getByLabel(/^Ich akzeptiere die AGB/).check();
  await page.getByLabel(/^Ich willige in die Verarbeitung meiner Daten ein/).check();
  await page.getByRole('button', { name: 'Absenden' }).click();
}

export const savedOnDevice = /auf diesem Gerät gespeichert und wird automatisch gesendet/;

export function waitingCount(page: Page) {
  return page.getByTestId('wartende-anfragen');
}

export async function expectNothingWaiting(page: Page, timeout = 15_000) {
  await expect(waitingCount(page)).toContainText('keine Anfragen warten', { timeout });
}

/**
 * A questionnaire just sent has reached the hub. Right after the click nothing waits yet either
 * (the lead is not queued before its thank-you step shows), so the thank-you comes first.
 */
export async function expectQuestionnaireSent(page: Page) {
  await expect(page.getByRole('heading', { name: 'Vielen Dank für Ihre Anfrage!' })).toBeVisible();
  await expectNothingWaiting(page);
}

/**
 * Leaves the app for about:blank (from then on only the service worker can send), goes online and
 * returns `sync`, which dispatches the outbox's Background Sync event to the worker (also where
 * this browser build fires none itself).
 */
export async function leaveAppForBackgroundSync(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL.startsWith('http://127.0.0.1'));
      if (ours && !ours.isDeleted) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registration;
  await page.goto('about:blank');
  await context.setOffline(false);
  const sync = () =>
    cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: new URL(test.info().project.use.baseURL!).origin,
      registrationId,
      tag: 'outbox-sync',
      lastChance: false,
    });
  return { sync };
}

/**
 * The status panel in the header: the connection and this device's waiting leads. The device's
 * settings are on the device page (helpers/device.ts).
 */
export async function openDevicePanel(page: Page) {
  const summary = page.locator('summary').filter({ has: page.getByTestId('verbindungsstatus') });
  if ((await summary.locator('xpath=..').getAttribute('open')) === null) await summary.click();
}
