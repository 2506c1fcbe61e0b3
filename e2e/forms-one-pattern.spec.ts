// Issue 36, items 7 and 8: the public lead forms on a phone read as one product. Every changed
// screen is checked with axe and saved as a screenshot (artefacts, not assertions).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { answerKfz, answerTabaluga, fillContact, savedOnDevice } from './helpers/journeys.ts';

test.use({ viewport: { width: 390, height: 844 } });

const callbackSent =
  'Erfolgreich gesendet. Unser Team meldet sich in den nächsten Tagen bei Ihnen für eine kostenlose Beratung.';

async function shoot(page: Page, name: string, target?: Locator) {
  const path = test.info().outputPath(`${name}.png`);
  if (target) await target.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/** The height on screen of the page's title and introduction (its <header>), from its <h1>. */
function pageHeaderHeight(title: Locator) {
  return title.evaluate((h) => h.closest('header')!.getBoundingClientRect().height);
}

/**
 * The one thank-you: heading focused, the form's text (or, when the direct send took too long on
 * a busy machine, that the lead waits on this device), the way back to the start page.
 */
async function expectThankYou(page: Page, text: string | RegExp) {
  const heading = page.getByRole('heading', { name: 'Vielen Dank für Ihre Anfrage!' });
  await expect(heading).toBeFocused();
  await expect(page.getByText(text).or(page.getByText(savedOnDevice))).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute(
    'href',
    '/universa',
  );
}

/** The one required mark and its one explanation, above the form's fields. */
async function expectOneRequiredPattern(form: Locator) {
  await expect(form.getByText('Felder mit * sind Pflichtfelder.')).toHaveCount(1);
  await expect(form.getByText('(Pflichtfeld)')).toHaveCount(0);
  for (const consent of [/^Ich akzeptiere die AGB/, /^Ich willige in die Verarbeitung/]) {
    await expect(form.getByLabel(consent)).toHaveAttribute('aria-required', 'true');
  }
}

/** The submit sits at the bottom of its card, the full width of the card's content. */
async function expectSubmitPlace(card: Locator, button: Locator) {
  const [c, b] = [await card.boundingBox(), await button.boundingBox()];
  expect(c && b).toBeTruthy();
  expect(b!.width).toBeGreaterThan(c!.width * 0.8);
  expect(c!.y + c!.height - (b!.y + b!.height)).toBeLessThan(48);
}

test('KFZ: empty submit focuses the first field, the thank-you links to the start page', async ({
  page,
}) => {
  await page.goto('/universa/kfz');
  const form = page.getByRole('form', { name: 'KFZ-Rückruf anfordern' });
  await expectOneRequiredPattern(form);
  const submit = page.getByRole('button', { name: 'Absenden' });
  await expectSubmitPlace(form, submit);
  await submit.click();
  await expect(page.getByLabel('Vorname')).toBeFocused();
  await expect(page.getByLabel(/^Ich akzeptiere die AGB/)).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
  await shoot(page, 'kfz-leer-abgesendet');

  await answerKfz(page, uniqueEmail('kfz-muster'));
  await expectThankYou(page, callbackSent);
  await expect(page.getByRole('button', { name: 'Weitere Anfrage stellen' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'kfz-danke');
});

test('contact: the same card, focus and thank-you', async ({ page }) => {
  await page.goto('/kontakt');
  const form = page.getByRole('form', { name: 'Versicherungscheck buchen' });
  await expectOneRequiredPattern(form);
  const submit = page.getByRole('button', { name: 'Absenden' });
  await expectSubmitPlace(form, submit);
  await submit.click();
  await expect(page.getByLabel('Vorname')).toBeFocused();
  await expectNoAxeViolations(page);
  await shoot(page, 'kontakt-leer-abgesendet');

  await fillContact(page, uniqueEmail('kontakt-muster'));
  await page.getByLabel('Geburtsdatum').fill('1980-05-17');
  await page.getByRole('button', { name: 'Absenden' }).click();
  await expectThankYou(page, callbackSent);
  await expectNoAxeViolations(page);
  await shoot(page, 'kontakt-danke');
});

test('PKV: title on the first question only, optional marks, one hint, the birth year', async ({
  page,
}) => {
  await page.goto('/pkv');
  const title = page.getByRole('heading', { level: 1, name: 'Private Krankenversicherung (PKV)' });
  const firstQuestion = page.getByRole('heading', { name: 'Wie sind Sie derzeit beschäftigt?' });
  await expect(firstQuestion).toBeVisible();
  await expect(page.getByText(/Ein paar Fragen zu Ihrer Situation/)).toBeInViewport();
  await expectNoAxeViolations(page);
  await shoot(page, 'pkv-frage-1');

  await page.getByRole('button', { name: 'Selbstständig oder freiberuflich' }).click();
  const second = page.getByRole('heading', { name: 'Wie sind Sie aktuell krankenversichert?' });
  await expect(second).toBeFocused();
  // The title stays for screen readers only; the question is at the top of the screen.
  await expect(title).toBeAttached();
  expect(await pageHeaderHeight(title)).toBeLessThanOrEqual(1);
  expect((await second.boundingBox())!.y).toBeLessThan(200);
  await expectNoAxeViolations(page);
  await shoot(page, 'pkv-frage-2');

  await page.getByRole('button', { name: 'Gesetzlich freiwillig versichert' }).click();
  await expect(
    page.getByRole('heading', {
      name: 'Welche Leistungen sind Ihnen besonders wichtig? (optional)',
    }),
  ).toBeVisible();
  await expect(page.getByText('Mehrfachauswahl möglich.')).toHaveCount(1);
  await shoot(page, 'pkv-frage-3');
  await page.getByLabel('Chefarztbehandlung').check();
  await page.getByRole('button', { name: 'Weiter' }).click();
  await page.getByRole('button', { name: 'Bis 1.000 €' }).click();

  const year = page.getByRole('textbox', { name: 'In welchem Jahr sind Sie geboren?' });
  await expect(year).toHaveAttribute('inputmode', 'numeric');
  await year.fill('Test');
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(year).toBeFocused();
  await expect(year).toHaveAccessibleDescription(
    'Bitte das Geburtsjahr mit vier Ziffern angeben, zum Beispiel 1985.',
  );
  await expectNoAxeViolations(page);
  await shoot(page, 'pkv-geburtsjahr-fehler');
  await year.fill('1984');
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(
    page.getByRole('heading', { name: 'Ab wann wünschen Sie Versicherungsschutz?' }),
  ).toBeFocused();
});

test('questionnaire contact step and thank-you: the same card, focus and way back', async ({
  page,
}) => {
  await page.goto('/tiptoptabaluga');
  await page.getByRole('button', { name: 'Eins' }).click();
  await page.getByRole('button', { name: 'Weiter' }).click();
  await page.getByRole('button', { name: '150 €', exact: true }).click();
  const contact = page.getByRole('region', { name: /Wohin dürfen wir Ihr Angebot schicken/ });
  await expectOneRequiredPattern(contact);
  await page.getByRole('button', { name: 'Angebot anfordern' }).click();
  await expect(page.getByLabel('Vorname')).toBeFocused();
  await expectNoAxeViolations(page);
  await shoot(page, 'fragebogen-kontakt-leer-abgesendet');

  await page.goto('/tiptoptabaluga');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await answerTabaluga(page, uniqueEmail('tabaluga-muster'));
  await expectThankYou(page, /Wir haben Ihre Angaben erhalten/);
  // The start text is gone from the screen.
  expect(await pageHeaderHeight(page.getByRole('heading', { level: 1 }))).toBeLessThanOrEqual(1);
  await expectNoAxeViolations(page);
  await shoot(page, 'fragebogen-danke');
});

test("the phone header shows the agent's number, a tap calls it", async ({ page }) => {
  await page.goto('/universa');
  const header = page.locator('body > div header').first();
  const call = header.getByRole('link', { name: /Telefon: 030 123456789/ });
  await expect(call).toBeVisible();
  await expect(call).toHaveAttribute('href', 'tel:+4930123456789');
  await expect(call.getByText('030 123456789')).toBeVisible();
  const box = (await call.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await shoot(page, 'kopf-telefon', header);
});

test.describe('first visit', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("the cookie banner in the site's colours, its buttons apart", async ({ page }) => {
    await page.goto('/universa');
    const dialog = page.getByRole('dialog', { name: 'Ihre Privatsphäre' });
    const buttons = ['Alle akzeptieren', 'Alle ablehnen', 'Einstellungen'].map((name) =>
      dialog.getByRole('button', { name }),
    );
    for (const button of buttons) await expect(button).toBeVisible();
    const background = (el: Element) => getComputedStyle(el).backgroundColor;
    // brand-700, as the site's primary buttons; not the tool's grey.
    expect(await buttons[0]!.evaluate(background)).toBe('rgb(35, 69, 105)');
    expect(await buttons[1]!.evaluate(background)).toBe('rgb(35, 69, 105)');
    expect(await buttons[2]!.evaluate(background)).toBe('rgb(255, 255, 255)');
    const boxes = await Promise.all(buttons.map((b) => b.boundingBox()));
    const [accept, reject, settings] = boxes.map((b) => b!);
    expect(reject!.x - (accept!.x + accept!.width)).toBeGreaterThanOrEqual(7.5);
    expect(settings!.x - (reject!.x + reject!.width)).toBeGreaterThanOrEqual(7.5);
    await expectNoAxeViolations(page);
    await shoot(page, 'cookie-banner', dialog);
  });
});
