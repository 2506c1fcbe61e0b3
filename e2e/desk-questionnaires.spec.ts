import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { deskPaths, deskQuestionnairePath } from '../src/domain/routes.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { openSignedIn } from './helpers/desk.ts';

// The questionnaire list and the editor's form details against the built server and its gateway,
// signed in as the admin that server/db/setup.ts seeds with the password e2e/serve.mjs passes in.

/** A title no earlier run has used: the database keeps titles unique. */
const uniqueTitle = () =>
  `Hausrat ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A 1×1 PNG. */
const pixelPng =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Today as the desk shows it: the browser runs in Berlin (playwright.config.ts), the runner maybe not. */
const today = () =>
  new Date().toLocaleDateString('de-DE', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'Europe/Berlin',
  });

test('a questionnaire made in the sidebar shows in the list and is edited with its offer PDF', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSignedIn(page, deskPaths.questionnaires);
  await expect(page.getByRole('heading', { level: 1, name: 'Fragebogen' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Tabaluga', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Hinzufügen' }).click();
  const sidebar = page.getByRole('dialog', { name: 'Fragebogen hinzufügen' });
  const title = sidebar.getByLabel('Titel');
  const description = sidebar.getByLabel('Beschreibung');
  await title.fill('ab');
  await description.fill('zu kurz');
  await sidebar.getByRole('button', { name: 'Speichern' }).click();
  await expect(title).toHaveAccessibleDescription('Der Titel muss mindestens 3 Zeichen lang sein.');
  await expect(description).toHaveAccessibleDescription(
    'Die Beschreibung muss mindestens 10 Zeichen lang sein.',
  );
  await expectNoAxeViolations(page);

  await title.fill('Tabaluga');
  await description.fill('Ein zweiter Fragebogen unter einem vergebenen Titel.');
  await sidebar.getByRole('button', { name: 'Speichern' }).click();
  await expect(title).toHaveAccessibleDescription(
    'Diesen Titel gibt es schon. Bitte wähle einen anderen.',
  );

  const name = uniqueTitle();
  await title.fill(name);
  await sidebar.getByRole('button', { name: 'Speichern' }).click();
  await expect(sidebar.getByRole('status')).toContainText(`„${name}“ wurde angelegt`);
  await expect(title).toHaveValue('');
  await sidebar.getByRole('button', { name: 'Schließen' }).click();
  await expect(sidebar).toBeHidden();

  const card = page.getByRole('article', { name, exact: true });
  await expect(card).toContainText('Ein zweiter Fragebogen unter einem vergebenen Titel.');
  await expect(card).toContainText('0 Antworten');
  await expect(card).toContainText(today());
  const publicLink = card.getByRole('link', { name: /^\/fragebogen\/\d+/ });
  const publicPath = (await publicLink.getAttribute('href'))!;
  expect(publicPath).toMatch(/^\/fragebogen\/\d+$/);
  await card.getByRole('button', { name: 'Link kopieren' }).click();
  await expect(card.getByRole('status')).toHaveText('Link kopiert');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    new URL(publicPath, page.url()).href,
  );

  await card.getByRole('link', { name: `Fragebogen ${name} bearbeiten` }).click();
  await expect(page).toHaveURL(deskQuestionnairePath(name));
  await expect(
    page.getByRole('heading', { level: 1, name: 'Fragebogen bearbeiten' }),
  ).toBeVisible();
  const details = page.getByRole('form', { name: 'Angaben zum Fragebogen' });
  await expect(details.getByLabel('Titel')).toHaveValue(name);
  await expect(page.getByRole('link', { name: new RegExp(`^${publicPath}`) })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Angebot herunterladen' })).toHaveCount(0);

  await details.getByLabel('Bild-URL').fill('ftp://bilder.example/a.png');
  await details.getByRole('button', { name: 'Speichern' }).click();
  await expect(details.getByLabel('Bild-URL')).toHaveAccessibleDescription(
    /Bitte gib eine Bild-URL ein, die mit http:\/\/ oder https:\/\/ beginnt\./,
  );
  await details.getByLabel('Bild-URL').fill('');

  const changed = 'Hausrat, Glas und Fahrrad: in fünf Fragen zum passenden Schutz.';
  await details.getByLabel('Beschreibung').fill(changed);
  await details.getByRole('button', { name: 'Speichern' }).click();
  const status = details.getByRole('status').filter({ hasText: /gespeichert/ });
  await expect(status).toHaveText('Daten wurden erfolgreich gespeichert!');
  const shownAt = Date.now();
  await expectNoAxeViolations(page);
  await expect(details.getByText('Daten wurden erfolgreich gespeichert!')).toHaveCount(0, {
    timeout: 6000,
  });
  expect(Date.now() - shownAt).toBeGreaterThan(2000);

  // An uploaded image lands in the Bild-URL field as its public address and shows in the preview.
  await details.getByLabel('Bild hochladen').setInputFiles({
    name: 'pixel.png',
    mimeType: 'image/png',
    buffer: Buffer.from(pixelPng, 'base64'),
  });
  await expect(details.getByLabel('Bild-URL')).toHaveValue(
    /^http:\/\/127\.0\.0\.1:\d+\/storage\/v1\/object\/public\/documents\/forms\/\d+\/[0-9a-f-]{36}-pixel\.png$/,
  );
  const preview = page.getByRole('img', { name: 'Vorschau des Fragebogenbilds' });
  await expect
    .poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(1);

  const pdf = await readFile('public/universa/pkv/info.pdf');
  await details.getByLabel('Angebot (PDF)').setInputFiles({
    name: 'Angebot Hausrat.pdf',
    mimeType: 'application/pdf',
    buffer: pdf,
  });
  await expect(details.getByText('Dokument: Angebot_Hausrat.pdf')).toBeVisible();
  await details.getByRole('button', { name: 'Speichern' }).click();
  await expect(details.getByText('Daten wurden erfolgreich gespeichert!')).toBeVisible();

  await page.reload();
  await expect(details.getByLabel('Beschreibung')).toHaveValue(changed);
  await expect(details.getByLabel('Bild-URL')).toHaveValue(/-pixel\.png$/);
  await expect(details.getByText('Dokument: Angebot_Hausrat.pdf')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Angebot herunterladen' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${name}.pdf`);
  expect(Buffer.compare(await readFile(await download.path()), pdf)).toBe(0);

  // The address names the title, so a renamed form moves to its new address.
  const renamed = `${name} neu`;
  await details.getByLabel('Titel').fill(renamed);
  await details.getByRole('button', { name: 'Speichern' }).click();
  await expect(page).toHaveURL(deskQuestionnairePath(renamed));
  await expect(details.getByText('Daten wurden erfolgreich gespeichert!')).toBeVisible();
  await expect(details.getByLabel('Titel')).toHaveValue(renamed);
});

test('an unknown title shows a German not-found state with the way back', async ({ page }) => {
  await openSignedIn(page, deskQuestionnairePath('Gibt es nicht 404'));
  await expect(page.getByText('Diesen Fragebogen gibt es nicht.')).toBeVisible();
  await page.getByRole('link', { name: 'Zurück zur Übersicht der Fragebögen' }).click();
  await expect(page).toHaveURL(deskPaths.questionnaires);
  await expect(page.getByRole('heading', { level: 1, name: 'Fragebogen' })).toBeVisible();
});

test('typed input is never dropped without asking: the add sidebar and the editor', async ({
  page,
}) => {
  await openSignedIn(page, deskPaths.questionnaires);
  await page.getByRole('button', { name: 'Hinzufügen' }).click();
  const sidebar = page.getByRole('dialog', { name: 'Fragebogen hinzufügen' });
  await sidebar.getByLabel('Titel').fill('Halb getippt');
  await page.keyboard.press('Escape');
  const ask = page.getByRole('alertdialog', { name: 'Änderungen verwerfen?' });
  await expect(ask.getByRole('button', { name: 'Weiter bearbeiten' })).toBeFocused();
  await expectNoAxeViolations(page);
  await ask.getByRole('button', { name: 'Weiter bearbeiten' }).click();
  await expect(sidebar.getByLabel('Titel')).toHaveValue('Halb getippt');
  await sidebar.getByRole('button', { name: 'Schließen' }).click();
  await ask.getByRole('button', { name: 'Änderungen verwerfen' }).click();
  await expect(sidebar).toHaveCount(0);

  // The editor's details: leaving for another screen asks first.
  await page.goto(deskQuestionnairePath('PKV'));
  await page.getByLabel('Beschreibung').fill('Noch nicht gespeichert.');
  await page.getByRole('link', { name: 'Zurück zur Übersicht der Fragebögen' }).click();
  await expect(ask.getByRole('button', { name: 'Weiter bearbeiten' })).toBeFocused();
  await ask.getByRole('button', { name: 'Weiter bearbeiten' }).click();
  await expect(page).toHaveURL(deskQuestionnairePath('PKV'));
  await expect(page.getByLabel('Beschreibung')).toHaveValue('Noch nicht gespeichert.');
  await page.getByRole('link', { name: 'Zurück zur Übersicht der Fragebögen' }).click();
  await ask.getByRole('button', { name: 'Änderungen verwerfen' }).click();
  await expect(page).toHaveURL(deskPaths.questionnaires);
});
