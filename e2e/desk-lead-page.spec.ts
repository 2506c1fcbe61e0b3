import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { addDays, berlinInstant, berlinToday, weekStart } from '../src/domain/calendar.ts';
import { deskCustomerAnswersPath } from '../src/domain/routes.ts';
import { kfzLead, questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { admin, openSignedIn } from './helpers/desk.ts';
import { expectNoAxeViolations, serviceRoleHeaders } from './helpers/hub.ts';

// The lead page at the office's screen size against the built server: two columns, the answers
// at the top; a follow-up from a quick choice shows in 'Wiedervorlagen' and 'Verlauf' without a
// reload; a past date is refused at its field; the status changes with a note in one step; a
// fresh note is deleted after a question; colleagues appear by name; the questionnaire's box for
// further offers is named as what it is and a KFZ lead shows none. Screenshots are artefacts.

test.use({ viewport: { width: 1366, height: 900 } });

const displayName = 'Anna Admin';

const uniqueLetters = () =>
  Array.from(
    { length: 8 },
    () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)],
  ).join('');

/** The whole page, or (with a dialog open) the window as staff see it. */
async function shoot(page: Page, name: string, fullPage = true) {
  const path = test.info().outputPath(`${name}.png`);
  // From the top: scrolled, the sticky header would sit in the middle of a full-page shot.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/** Sends a lead as the public site does and answers its customer's id. */
async function sendLead(request: APIRequestContext, lead: { email: string }): Promise<number> {
  const sent = await request.post('/api/responses', { data: lead });
  expect(sent.ok(), await sent.text()).toBe(true);
  const found = await request.get(
    `/rest/v1/users?select=id&email=eq.${encodeURIComponent(lead.email)}`,
    { headers: await serviceRoleHeaders() },
  );
  const [customer] = (await found.json()) as { id: number }[];
  return customer!.id;
}

/** The admin's display name (null: none, the address is shown), as the service role. */
async function setAdminName(request: APIRequestContext, name: string | null) {
  const saved = await request.patch(`/rest/v1/staff?email=eq.${encodeURIComponent(admin.email)}`, {
    headers: await serviceRoleHeaders(),
    data: { display_name: name },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
}

// Whatever happens in the test (a timeout closes its request context), the admin is shown by
// address again afterwards, as the other journeys expect.
test.afterAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
  });
  await setAdminName(request, null);
  await request.dispose();
});

test('the lead page: two columns, follow-up, status and note, all current without a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const lastName = `Leadseite${uniqueLetters()}`;
  // Requested an offer without ticking the optional box for further offers.
  const customerId = await sendLead(
    request,
    questionnaireLead({ last_name: lastName, offer_info: false }),
  );
  await setAdminName(request, displayName);
  await openSignedIn(page, deskCustomerAnswersPath(customerId));
  const lead = page.getByRole('region', { name: /^Tabaluga vom/ });
  const contact = page.getByRole('region', { name: 'Kontaktdaten', exact: true });
  const status = page.getByRole('region', { name: 'Status', exact: true });
  const followUps = page.getByRole('region', { name: 'Wiedervorlagen', exact: true });
  const notes = page.getByRole('region', { name: 'Notizen', exact: true });
  const history = page.getByRole('region', { name: 'Verlauf', exact: true });
  await expect(history.getByRole('listitem').first()).toContainText('Eingang');
  await expect(notes).toContainText('Noch keine Notizen.');

  // Two columns: the visitor's side on the left, the office's on the right, both from the top;
  // the answers begin on the first screen.
  const box = async (region: Locator) => (await region.boundingBox())!;
  const [contactBox, leadBox, statusBox] = [await box(contact), await box(lead), await box(status)];
  expect(statusBox.x).toBeGreaterThanOrEqual(contactBox.x + contactBox.width);
  expect(Math.abs(statusBox.y - contactBox.y)).toBeLessThan(5);
  const answers = lead.getByRole('heading', { name: 'Antworten', level: 3 });
  expect((await answers.boundingBox())!.y).toBeLessThan(900);
  expect(leadBox.x).toBe(contactBox.x);

  // The questionnaire's box, named as what it is.
  const offers = lead.locator('dt', { hasText: 'Weitere Angebote erwünscht (freiwillig)' });
  await expect(offers.locator('xpath=following-sibling::dd')).toHaveText('Nein');
  await expect(lead).not.toContainText('Angebot gewünscht');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shoot(page, 'leadseite-1366');

  // A follow-up: quick choices, the working-hours default, a past day refused.
  await followUps.getByRole('button', { name: 'Wiedervorlage anlegen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Wiedervorlage anlegen' });
  const choices = dialog.getByRole('group', { name: 'Schnellauswahl' });
  const now = new Date();
  const today = berlinToday(now);
  const beforeFour = Date.parse(berlinInstant(today, '16:00')) > now.getTime();
  await expect(choices.getByRole('button')).toHaveText([
    ...(beforeFour ? ['Heute 16 Uhr'] : []),
    'Morgen 9 Uhr',
    'In 3 Tagen',
    'Nächste Woche',
  ]);
  const day = dialog.getByLabel('Datum (Berlin)');
  const time = dialog.getByLabel('Uhrzeit (Berlin)');
  const defaultHour = Number((await time.inputValue()).slice(0, 2));
  expect(defaultHour).toBeGreaterThanOrEqual(9);
  expect(defaultHour).toBeLessThanOrEqual(17);
  await expect(dialog.getByLabel('Zuständig')).toHaveValue(/.+/);
  await expect(dialog.getByLabel('Zuständig').locator('option:checked')).toHaveText(
    `${displayName} (ich)`,
  );
  await expectNoAxeViolations(page);
  await shoot(page, 'wiedervorlage-dialog-1366', false);

  await day.fill(addDays(today, -1));
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(day).toHaveAccessibleDescription(
    'Das Datum liegt in der Vergangenheit. Bitte ein späteres wählen.',
  );
  await expect(day).toHaveAttribute('aria-invalid', 'true');
  await shoot(page, 'wiedervorlage-vergangenheit-1366', false);

  const monday = addDays(weekStart(today), 7);
  await choices.getByRole('button', { name: 'Nächste Woche' }).click();
  await expect(day).toHaveValue(monday);
  await expect(time).toHaveValue('09:00');
  await expect(choices.getByRole('button', { name: 'Nächste Woche' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await dialog.getByLabel('Text').fill('Angebot nachfassen');
  // No reload from here on: a marker on the window would be gone after one.
  await page.evaluate(() => ((window as { stillHere?: boolean }).stillHere = true));
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog).toBeHidden();
  const made = followUps.getByRole('listitem').filter({ hasText: 'Angebot nachfassen' });
  await expect(made).toContainText(`Zuständig: ${displayName}`);
  await expect(history).toContainText(
    new RegExp(`Wiedervorlage angelegt – [^–]+ – ${displayName}Angebot nachfassen`),
  );

  // The status with a note, in one step.
  await status.getByRole('radio', { name: 'Termin vereinbart', exact: true }).check();
  await status.getByLabel('Notiz zur Statusänderung (optional)').fill('Termin am Freitag');
  await status.getByRole('button', { name: 'Status ändern' }).click();
  await expect(status.getByText(/^Aktueller Status:/)).toHaveText(
    'Aktueller Status: Termin vereinbart',
  );
  await expect(status.getByRole('status')).toHaveText('Status auf „Termin vereinbart“ gesetzt.');
  await expect(status.getByRole('radio', { name: 'Termin vereinbart (aktuell)' })).toBeChecked();
  await expect(history).toContainText(
    new RegExp(`Termin vereinbart – [^–]+ – ${displayName}Notiz: Termin am Freitag`),
  );

  // A note written by mistake, deleted after a question.
  await notes.getByLabel('Neue Notiz').fill('Falsch zugeordnet');
  await notes.getByRole('button', { name: 'Notiz hinzufügen' }).click();
  const note = notes.getByRole('listitem').filter({ hasText: 'Falsch zugeordnet' });
  await expect(note).toContainText(displayName);
  await note.getByRole('button', { name: 'Notiz löschen: Falsch zugeordnet' }).click();
  const question = page.getByRole('alertdialog', { name: 'Notiz löschen?' });
  await expect(question.getByRole('button', { name: 'Abbrechen' })).toBeFocused();
  await expectNoAxeViolations(page);
  await shoot(page, 'notiz-loeschen-1366', false);
  await question.getByRole('button', { name: 'Löschen' }).click();
  await expect(question).toBeHidden();
  await expect(notes).toContainText('Noch keine Notizen.');

  // Names, not addresses, anywhere on the page; and all of it without a reload.
  await expect(page.getByRole('main')).not.toContainText(admin.email);
  expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true);
  await expectNoAxeViolations(page);
  await shoot(page, 'leadseite-nach-aenderungen-1366');

  // Kept: after a reload the page says the same.
  await page.reload();
  await expect(status.getByText(/^Aktueller Status:/)).toHaveText(
    'Aktueller Status: Termin vereinbart',
  );
  await expect(made).toContainText(`Zuständig: ${displayName}`);
  await expect(notes).toContainText('Noch keine Notizen.');
});

test('a KFZ lead shows no box for further offers: its form has none', async ({ page, request }) => {
  const customerId = await sendLead(
    request,
    kfzLead({ first_name: 'Karl', last_name: `Kfzlabel${uniqueLetters()}` }),
  );
  await openSignedIn(page, deskCustomerAnswersPath(customerId));
  const lead = page.getByRole('region', { name: /^KFZ-Rückruf vom/ });
  await expect(lead.getByRole('heading', { name: 'Angaben zur Anfrage' })).toBeVisible();
  await expect(lead).toContainText('Nachmittags');
  await expect(lead).not.toContainText('Weitere Angebote');
  await expect(lead).not.toContainText('Angebot gewünscht');
  await expect(page.getByRole('region', { name: 'Verlauf', exact: true })).toContainText(
    'Rückruf gewünscht: Nachmittags',
  );
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shoot(page, 'leadseite-kfz-1366');
});
