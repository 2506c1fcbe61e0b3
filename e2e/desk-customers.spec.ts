import { expect, test, type Page } from '@playwright/test';
import { deskPaths } from '../src/domain/routes.ts';
import { kfzLead, questionnaireLead, uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { openSignedIn, submitTabalugaLead } from './helpers/desk.ts';

// 'Kunden Daten', the sidebar 'Kunden Details' and a customer's answers against the built server,
// signed in as the admin that server/db/setup.ts seeds with the password e2e/serve.mjs passes in.

/** Letters only: the public forms refuse digits in names. */
const uniqueLetters = () =>
  Array.from(
    { length: 8 },
    () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)],
  ).join('');

const table = (page: Page) => page.getByRole('table');
const dataRows = (page: Page) => table(page).locator('tbody tr');
const lastNames = (page: Page) => dataRows(page).locator('td:nth-child(2)').allInnerTexts();

test('search by part of a surname, edit the city in the sidebar, reload, read the answers', async ({
  page,
  context,
}) => {
  const lastName = `Kundin${uniqueLetters()}`;
  const visitor = await context.newPage();
  await submitTabalugaLead(visitor, lastName, 'kunden');
  await visitor.close();

  await openSignedIn(page, deskPaths.customers);
  await expect(page.getByRole('heading', { level: 1, name: 'Kunden Daten' })).toBeVisible();
  // Part of the surname, in other case and with spaces: the search trims and lower-cases.
  const term = lastName.slice(3).toLowerCase();
  await page.getByLabel('Suche').fill(`  ${lastName.slice(3).toUpperCase()} `);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${term}(&|$)`));
  await expect(dataRows(page)).toHaveCount(1);
  const row = dataRows(page).first();
  await expect(row).toContainText(lastName);
  await expect(row).toContainText('Berlin');

  await row.getByRole('link', { name: `Details zu Jürgen ${lastName}` }).click();
  await expect(page).toHaveURL(/[?&]id=\d+/);
  const sidebar = page.getByRole('dialog', { name: 'Kunden Details' });
  await expect(sidebar.getByLabel('Ort')).toHaveValue('Berlin');
  await expect(sidebar.getByLabel('Angelegt am')).toBeDisabled();

  // A rule of the public forms, told at its field, keeps the input and saves nothing.
  await sidebar.getByLabel('PLZ').fill('123');
  await sidebar.getByRole('button', { name: 'Speichern' }).click();
  await expect(sidebar.getByLabel('PLZ')).toHaveAccessibleDescription(
    'Bitte eine gültige PLZ mit 5 Ziffern eingeben.',
  );
  await sidebar.getByLabel('PLZ').fill('14467');
  await sidebar.getByLabel('Ort').fill('Potsdam');
  await sidebar.getByRole('button', { name: 'Speichern' }).click();
  await expect(sidebar.getByRole('status')).toHaveText('Daten wurden erfolgreich gespeichert!');
  await expectNoAxeViolations(page);

  // Unsaved changes ask before the sidebar closes.
  await sidebar.getByLabel('Ort').fill('Cottbus');
  await sidebar.getByRole('button', { name: 'Schließen' }).click();
  const discard = page.getByRole('alertdialog', { name: 'Änderungen verwerfen?' });
  await expect(discard.getByRole('button', { name: 'Weiter bearbeiten' })).toBeVisible();
  await expectNoAxeViolations(page);
  await discard.getByRole('button', { name: 'Änderungen verwerfen' }).click();
  await expect(sidebar).toHaveCount(0);
  await expect(page).not.toHaveURL(/[?&]id=/);

  await page.reload();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${term}(&|$)`));
  await expect(page.getByLabel('Suche')).toHaveValue(term);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText('Potsdam');

  await dataRows(page)
    .first()
    .getByRole('link', { name: `Details zu Jürgen ${lastName}` })
    .click();
  await sidebar.getByRole('button', { name: 'Antworten' }).click();
  await expect(page).toHaveURL(/\/surveydesk\/customer\/\d+\/antworten$/);
  await expect(
    page.getByRole('heading', { level: 1, name: `Antworten von Jürgen ${lastName}` }),
  ).toBeVisible();
  const response = page.getByRole('region', { name: /^Tabaluga vom/ });
  await expect(response).toHaveCount(1);
  const answerTo = (question: string) =>
    response.locator('dt', { hasText: question }).locator('xpath=following-sibling::dd[1]');
  await expect(answerTo('Wie viele Kinder möchten Sie absichern?')).toHaveText('Eins');
  await expect(answerTo('Wann sind Ihre Kinder geboren?')).toHaveText('03.03.2020');
  await expect(answerTo('Welchen monatlichen Betrag möchten Sie pro Kind sparen?')).toHaveText(
    '100 €',
  );
  await expect(answerTo('Quelle')).toHaveText('Fragebogen');
  await expect(answerTo('AGB akzeptiert')).toHaveText('Ja');
  await expectNoAxeViolations(page);

  // The way back restores the search.
  await page.getByRole('link', { name: /Zurück zu den Kunden/ }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${term}(&|$)`));
  await expect(dataRows(page)).toHaveCount(1);
});

test('sorting by a header and the page size are kept in the address and shown in the rows', async ({
  page,
  request,
}) => {
  const family = `Sort${uniqueLetters()}`;
  // Created in this order: the default view shows the newest first.
  const suffixes = ['dorn', 'adler', 'fink', 'christ', 'eich', 'berg'];
  for (const suffix of suffixes) {
    const lead = kfzLead({ last_name: `${family}${suffix}` });
    const sent = await request.post('/api/responses', { data: lead });
    expect(sent.ok(), await sent.text()).toBe(true);
  }
  const names = (order: string[]) => order.map((suffix) => `${family}${suffix}`);

  await openSignedIn(page, `${deskPaths.customers}?q=${family.toLowerCase()}&anzahl=5`);
  await expect(page.getByLabel('Suche')).toHaveValue(family.toLowerCase());
  await expect(page.getByText('Seite 1 von 2 · 6 Kunden')).toBeVisible();
  expect(await lastNames(page)).toEqual(names(['berg', 'eich', 'christ', 'fink', 'adler']));

  const header = page.getByRole('columnheader', { name: 'Nachname' });
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sortierung=last_name\.asc(&|$)/);
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect
    .poll(() => lastNames(page))
    .toEqual(names(['adler', 'berg', 'christ', 'dorn', 'eich']));

  await page.getByRole('button', { name: 'Nächste Seite' }).click();
  await expect(page).toHaveURL(/[?&]seite=2(&|$)/);
  await expect(page.getByText('Seite 2 von 2 · 6 Kunden')).toBeVisible();
  await expect.poll(() => lastNames(page)).toEqual(names(['fink']));

  await header.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sortierung=last_name\.desc(&|$)/);
  await expect(page).not.toHaveURL(/[?&]seite=/);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect
    .poll(() => lastNames(page))
    .toEqual(names(['fink', 'eich', 'dorn', 'christ', 'berg']));

  await page.getByLabel('Einträge pro Seite').selectOption('20');
  await expect(page).toHaveURL(/[?&]anzahl=20(&|$)/);
  await expect(page.getByText('Seite 1 von 1 · 6 Kunden')).toBeVisible();
  await expect
    .poll(() => lastNames(page))
    .toEqual(names(['fink', 'eich', 'dorn', 'christ', 'berg', 'adler']));

  // The third click removes the order: newest first again.
  await header.getByRole('button').click();
  await expect(page).not.toHaveURL(/[?&]sortierung=/);
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await expect
    .poll(() => lastNames(page))
    .toEqual(names(['berg', 'eich', 'christ', 'fink', 'adler', 'dorn']));

  // A reload of the shared address shows the same view.
  await page.reload();
  await expect(page.getByLabel('Einträge pro Seite')).toHaveValue('20');
  await expect.poll(() => lastNames(page)).toHaveLength(6);
});

test('a search without matches says so', async ({ page }) => {
  await openSignedIn(page, deskPaths.customers);
  await page.getByLabel('Suche').fill(`niemand${uniqueLetters()}`);
  await expect(page.getByText('Keine Kunden gefunden')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
});

test('a lead with another name for a known customer is shown in the sidebar and taken over on one click', async ({
  page,
  request,
}) => {
  const lastName = `Bestand${uniqueLetters()}`;
  const first = kfzLead({ last_name: lastName });
  expect((await request.post('/api/responses', { data: first })).ok()).toBe(true);
  // The same address again, with another first name: the customer record keeps the first one.
  const later = kfzLead({
    email: first.email,
    last_name: lastName,
    first_name: 'Malte',
    captured_at: new Date().toISOString(),
  });
  expect((await request.post('/api/responses', { data: later })).ok()).toBe(true);

  await openSignedIn(page, `${deskPaths.customers}?q=${lastName.toLowerCase()}`);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText('Jürgen');
  await dataRows(page)
    .first()
    .getByRole('link', { name: `Details zu Jürgen ${lastName}` })
    .click();
  const sidebar = page.getByRole('dialog', { name: 'Kunden Details' });
  const notice = sidebar.getByRole('region', {
    name: /^Neue Angaben aus der Anfrage vom \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/,
  });
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('listitem')).toHaveCount(1);
  await expect(notice.getByRole('listitem')).toContainText('Vorname: Jürgen');
  await expect(notice.getByRole('listitem')).toContainText('Malte');
  await expect(sidebar.getByLabel('Vorname')).toHaveValue('Jürgen');
  await expectNoAxeViolations(page);

  await notice.getByRole('button', { name: 'Angaben übernehmen' }).click();
  await expect(sidebar.getByLabel('Vorname')).toHaveValue('Malte');
  await expect(sidebar.getByLabel('Vorname')).toBeFocused();
  await sidebar.getByRole('button', { name: 'Speichern' }).click();
  await expect(sidebar.getByRole('status')).toHaveText('Daten wurden erfolgreich gespeichert!');
  await expect(notice).toHaveCount(0);

  // Each lead keeps what was typed with it.
  await sidebar.getByRole('button', { name: 'Antworten' }).click();
  const leads = page.getByRole('region', { name: /^KFZ-Rückruf vom/ });
  await expect(leads).toHaveCount(2);
  const firstNameOf = (index: number) =>
    leads
      .nth(index)
      .locator('dt', { hasText: 'Vorname' })
      .locator('xpath=following-sibling::dd[1]');
  await expect(firstNameOf(0)).toHaveText('Malte');
  await expect(firstNameOf(1)).toHaveText('Jürgen');

  // The list shows the customer as saved.
  await page.getByRole('link', { name: /Zurück zu den Kunden/ }).click();
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText('Malte');
});

test('a customer whose lead was typed on the questionnaire saves unchanged, whatever the contact page would refuse', async ({
  page,
  request,
}) => {
  const lastName = `Oder${uniqueLetters()}`;
  // Values the questionnaire's contact step accepts and the contact page's rules would refuse.
  const lead = questionnaireLead({
    first_name: 'Dr. Anna',
    last_name: lastName,
    email: uniqueEmail('frankfurt-oder'),
    adress: 'Musterweg 12/3',
    city: 'Frankfurt (Oder)',
    postcode: '15230',
    phone: '12345',
  });
  expect((await request.post('/api/responses', { data: lead })).ok()).toBe(true);

  await openSignedIn(page, `${deskPaths.customers}?q=${lastName.toLowerCase()}`);
  await dataRows(page)
    .first()
    .getByRole('link', { name: `Details zu Dr. Anna ${lastName}` })
    .click();
  const sidebar = page.getByRole('dialog', { name: 'Kunden Details' });
  await sidebar.getByLabel('PLZ').fill('15232');
  await sidebar.getByRole('button', { name: 'Speichern' }).click();
  await expect(sidebar.getByRole('status')).toHaveText('Daten wurden erfolgreich gespeichert!');
  await expect(sidebar.getByLabel('Ort')).toHaveValue('Frankfurt (Oder)');
  await expect(sidebar.getByLabel('Straße und Hausnummer')).toHaveValue('Musterweg 12/3');
  await expect(sidebar.getByLabel('Telefonnummer')).toHaveValue('12345');

  // A value no public form takes is still refused, tied to its field.
  await sidebar.getByLabel('PLZ').fill('152');
  await sidebar.getByRole('button', { name: 'Speichern' }).click();
  await expect(sidebar.getByLabel('PLZ')).toHaveAccessibleDescription(
    'Bitte eine gültige PLZ mit 5 Ziffern eingeben.',
  );
  await expectNoAxeViolations(page);
});
