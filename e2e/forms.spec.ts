import { expect, test, type Page } from '@playwright/test';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { expectNoAxeViolations, responsesFor } from './helpers/hub.ts';
import { expectNothingWaiting, waitingCount } from './helpers/journeys.ts';

const successText =
  'Erfolgreich gesendet. Unser Team meldet sich in den nächsten Tagen bei Ihnen für eine kostenlose Beratung.';
const terms = /^Ich akzeptiere die AGB/;
const privacy = /^Ich willige in die Verarbeitung meiner Daten ein/;

async function expectMessages(page: Page, expected: [string | RegExp, string][]) {
  for (const [label, message] of expected) {
    const field = page.getByLabel(label);
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(message);
  }
}

function trackPosts(page: Page) {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/')) posts.push(r.url());
  });
  return posts;
}

async function fillKfz(page: Page, email: string) {
  await page.getByLabel('Vorname').fill('Zoë');
  await page.getByLabel('Nachname').fill("O'Brien-Müller");
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Telefonnummer').fill('+49 171 / 1234-567');
  await page.getByLabel('Gewünschte Rückrufzeit').selectOption('Nachmittags');
  await page.getByLabel(terms).check();
  await page.getByLabel(privacy).check();
}

test.describe('KFZ callback', () => {
  test('submitted empty: exactly the spec messages, only after the attempt, nothing sent', async ({
    page,
  }) => {
    const posts = trackPosts(page);
    await page.goto('/universa/kfz');
    await page.getByLabel('Vorname').fill('x');
    await page.getByLabel('Vorname').fill('');
    await page.getByLabel('Nachname').focus();
    await expect(page.getByLabel('Vorname')).not.toHaveAttribute('aria-invalid');

    await page.getByRole('button', { name: 'Absenden' }).click();
    await expectMessages(page, [
      ['Vorname', 'Bitte einen gültigen Vornamen eingeben.'],
      ['Nachname', 'Bitte einen gültigen Nachnamen eingeben.'],
      ['E-Mail', 'E\u2011Mail ist erforderlich.'],
      ['Telefonnummer', 'Bitte eine gültige Telefonnummer eingeben.'],
      [terms, 'Bitte AGB akzeptieren.'],
      [privacy, 'Bitte Datenschutzhinweise bestätigen.'],
    ]);
    await expect(page.getByLabel('Gewünschte Rückrufzeit')).not.toHaveAttribute('aria-invalid');
    await expectNoAxeViolations(page);
    expect(posts).toEqual([]);
  });

  test('a valid request online shows the success text and is stored with offer_info', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('kfz');
    await page.goto('/universa/kfz');
    await fillKfz(page, email);
    await page.getByRole('button', { name: 'Absenden' }).click();
    await expect(page.getByText(successText)).toBeVisible();
    await expect(page.getByLabel('Vorname')).toHaveCount(0);
    await expectNoAxeViolations(page);

    const [stored, ...more] = await responsesFor(request, email);
    expect(more).toEqual([]);
    expect(stored).toMatchObject({
      form_id: 1,
      source: 'kfz',
      first_name: 'Zoë',
      last_name: "O'Brien-Müller",
      phone: '+49 171 / 1234-567',
      call_time: 'Nachmittags',
      offer_info: true,
      terms_accepted: true,
      data_processing_consent: true,
      cookie_consent: 'necessary',
      cookie_consent_version: '2026-11-22',
      answers: [],
    });
    // The form starts empty for the next request.
    await page.getByRole('button', { name: 'Weitere Anfrage stellen' }).click();
    await expect(page.getByLabel('Vorname')).toHaveValue('');
    await expect(page.getByLabel(terms)).not.toBeChecked();
  });

  test('offline the request is queued, then sent after reconnecting', async ({
    context,
    page,
    request,
  }) => {
    const email = uniqueEmail('kfz-offline');
    await page.goto('/universa/kfz');
    await expect(waitingCount(page)).toBeAttached();
    await context.setOffline(true);
    await fillKfz(page, email);
    await page.getByRole('button', { name: 'Absenden' }).click();
    await expect(page.getByText(/auf diesem Gerät gespeichert/)).toBeVisible();
    await expect(waitingCount(page)).toHaveText('· 1 Anfrage wartet');
    await context.setOffline(false);
    await expectNothingWaiting(page);
    expect(await responsesFor(request, email)).toHaveLength(1);
  });

  test('a filled honeypot looks sent to the bot and stores nothing', async ({ page, request }) => {
    const email = uniqueEmail('bot');
    const posts = trackPosts(page);
    await page.goto('/universa/kfz');
    await fillKfz(page, email);
    await page.locator('input[name="website"]').fill('https://spam.example', { force: true });
    await page.getByRole('button', { name: 'Absenden' }).click();
    await expect(page.getByText(successText)).toBeVisible();
    expect(posts).toEqual([]);
    expect(await responsesFor(request, email)).toEqual([]);
  });
});

test.describe('contact page', () => {
  test('submitted empty: exactly the spec messages under the right fields, nothing sent', async ({
    page,
  }) => {
    const posts = trackPosts(page);
    await page.goto('/kontakt');
    await page.getByRole('button', { name: 'Absenden' }).click();
    await expectMessages(page, [
      ['Geburtsdatum', 'Geburtsdatum ist erforderlich.'],
      ['Vorname', 'Bitte einen gültigen Vornamen eingeben.'],
      ['Nachname', 'Bitte einen gültigen Nachnamen eingeben.'],
      ['E-Mail', 'E\u2011Mail ist erforderlich.'],
      ['Telefonnummer', 'Bitte eine gültige Telefonnummer eingeben.'],
      [terms, 'Bitte AGB akzeptieren.'],
      [privacy, 'Bitte Datenschutzhinweise bestätigen.'],
    ]);
    for (const optional of [
      'Anrede',
      'Titel',
      'Straße und Hausnummer',
      'PLZ',
      'Ort',
      'Nachricht',
    ]) {
      await expect(page.getByLabel(optional)).not.toHaveAttribute('aria-invalid');
    }
    await expectNoAxeViolations(page);
    expect(posts).toEqual([]);
  });

  test('the birthdate has its bounds and speaks up once touched', async ({ page }) => {
    await page.clock.setFixedTime(new Date('2026-03-15T10:00:00'));
    await page.goto('/universa/kontakt');
    const birthdate = page.getByLabel('Geburtsdatum');
    // The form runs at the visitor's first use (src/islands.tsx); then the limits are set.
    await birthdate.focus();
    await expect(birthdate).toHaveAttribute('max', '2008-03-15');
    await expect(birthdate).toHaveAttribute('min', '1906-03-15');
    await birthdate.fill('2010-01-01');
    await birthdate.blur();
    await expect(birthdate).toHaveAccessibleDescription('Sie müssen mindestens 18 Jahre alt sein.');
    // Other fields wait for the submit.
    await page.getByLabel('Vorname').fill('1');
    await page.getByLabel('Vorname').blur();
    await expect(page.getByLabel('Vorname')).not.toHaveAttribute('aria-invalid');
  });

  test('every field the spec used to drop is stored with the lead', async ({ page, request }) => {
    const email = uniqueEmail('kontakt');
    await page.goto('/kontakt');
    await page.getByLabel('Anrede').selectOption('Frau');
    await page.getByLabel('Titel').fill('Dr.');
    await page.getByLabel('Vorname').fill('Änne');
    await page.getByLabel('Nachname').fill('Groß');
    await page.getByLabel('Geburtsdatum').fill('1980-02-29');
    await page.getByLabel('Straße und Hausnummer').fill('Am Markt 3');
    await page.getByLabel('PLZ').fill('04109');
    await page.getByLabel('Ort').fill('Leipzig');
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Telefonnummer').fill('0341 123456');
    await page.getByLabel('Gewünschte Rückrufzeit').selectOption('Morgens');
    await page.getByLabel('Bereits Kunde').check();
    await page.getByLabel('Nachricht').fill('Bitte rufen Sie mich vor 10 Uhr an.');
    await page.getByLabel(terms).check();
    await page.getByLabel(privacy).check();
    await page.getByRole('button', { name: 'Absenden' }).click();
    await expect(page.getByText(successText)).toBeVisible();

    const [stored] = await responsesFor(request, email);
    expect(stored).toMatchObject({
      form_id: 1,
      source: 'contact',
      salutation: 'Frau',
      title: 'Dr.',
      first_name: 'Änne',
      last_name: 'Groß',
      birthdate: '1980-02-29',
      adress: 'Am Markt 3',
      postcode: '04109',
      city: 'Leipzig',
      call_time: 'Morgens',
      existing_customer: true,
      message: 'Bitte rufen Sie mich vor 10 Uhr an.',
      offer_info: true,
    });
  });

  test('a failed send keeps the form filled and says why', async ({ page }) => {
    await page.addInitScript(() => {
      IDBObjectStore.prototype.add = function () {
        throw new DOMException('voll', 'QuotaExceededError');
      };
    });
    await page.goto('/kontakt');
    await page.getByLabel('Vorname').fill('Anna');
    await page.getByLabel('Nachname').fill('Berg');
    await page.getByLabel('Geburtsdatum').fill('1990-05-05');
    await page.getByLabel('E-Mail').fill(uniqueEmail('voll'));
    await page.getByLabel('Telefonnummer').fill('0341 123456');
    await page.getByLabel(terms).check();
    await page.getByLabel(privacy).check();
    await page.getByRole('button', { name: 'Absenden' }).click();
    await expect(page.getByRole('alert')).toContainText('nicht gespeichert werden');
    await expect(page.getByLabel('Vorname')).toHaveValue('Anna');
    await expect(page.getByRole('button', { name: 'Absenden' })).toBeEnabled();
  });
});
