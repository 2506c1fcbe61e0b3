import { expect, test, type Locator, type Page } from '@playwright/test';
import { deskPaths } from '../src/domain/routes.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { admin, openSignedIn, submitTabalugaLead } from './helpers/desk.ts';

// The dashboard's live cards and the support screen against the built server and its gateway,
// signed in as the admin that server/db/setup.ts seeds with the password e2e/serve.mjs passes in.

/** Waits until no card is loading any more. */
async function dashboardLoaded(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Willkommen' })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

const figure = async (values: Locator) =>
  Number((await values.innerText()).replace(/\./g, '').trim());

async function readFigures(page: Page) {
  const leads = page.getByRole('region', { name: 'Neue Leads', exact: true }).locator('dd');
  const perForm = page
    .getByRole('region', { name: 'Leads je Fragebogen (30 Tage)', exact: true })
    .locator('dd');
  let lastMonth = 0;
  for (const value of await perForm.all()) lastMonth += await figure(value);
  return {
    today: await figure(leads.nth(0)),
    lastWeek: await figure(leads.nth(1)),
    customers: await figure(
      page.getByRole('region', { name: 'Kunden', exact: true }).locator('dd'),
    ),
    lastMonth,
  };
}

test('a lead sent on the public site shows among the newest leads and in the counts', async ({
  page,
  context,
}) => {
  await openSignedIn(page, deskPaths.dashboard);
  await dashboardLoaded(page);
  const before = await readFigures(page);
  await expectNoAxeViolations(page);

  const lastName = `Dashboard${Math.random()
    .toString(36)
    .replace(/[^a-z]/g, '')
    .slice(0, 6)}`;
  const visitor = await context.newPage();
  await submitTabalugaLead(visitor, lastName, 'dashboard');
  await visitor.close();

  await page.reload();
  await dashboardLoaded(page);
  const newest = page.getByRole('region', { name: 'Neueste Leads', exact: true });
  const lead = newest.getByRole('link', { name: `Jürgen ${lastName}` });
  await expect(lead).toBeVisible();
  await expect(lead).toHaveAttribute('href', /\/surveydesk\/customer\?id=\d+$/);
  await expect(newest.getByRole('listitem').first()).toContainText(lastName);
  expect(await readFigures(page)).toEqual({
    today: before.today + 1,
    lastWeek: before.lastWeek + 1,
    customers: before.customers + 1,
    lastMonth: before.lastMonth + 1,
  });
});

test('support: FAQ tabs and accordions, and the form stores the message', async ({ page }) => {
  await openSignedIn(page, deskPaths.support);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support & Dokumentation');
  await expect(page.getByRole('tab', { name: 'Kunden' })).toHaveAttribute('aria-selected', 'true');
  await expectNoAxeViolations(page);

  await page.getByRole('tab', { name: 'Analyse' }).click();
  const question = page.getByRole('button', { name: 'Ab wann gibt es Auswertungen?' });
  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText('Aussagekräftig werden die Zahlen nach rund 30 Tagen')).toBeVisible();
  // Nothing is "unlocked via support" any more: export is explained where it is.
  await page
    .getByRole('button', { name: 'Kann ich die Daten in Excel weiterverarbeiten?' })
    .click();
  await expect(
    page.getByText(/lädt die Anfragen der aktuellen Auswahl als CSV-Datei/),
  ).toBeVisible();
  await expect(
    page.getByText(/über den Support freigeschaltet|schaltet der Support frei/),
  ).toHaveCount(0);
  await expectNoAxeViolations(page);

  const form = page.getByRole('form', { name: 'Nachricht an den Support' });
  await form.getByRole('button', { name: 'Senden' }).click();
  await expect(form.getByLabel('Nachricht')).toHaveAccessibleDescription(
    'Bitte gib deine Nachricht ein.',
  );

  await expect(form.getByLabel('E-Mail-Adresse')).toHaveValue(admin.email);
  await form.getByLabel('Nachricht').fill('Wie exportiere ich nur die Messe-Leads?');
  await form.getByRole('button', { name: 'Senden' }).click();
  await expect(form.getByRole('status')).toHaveText('Vielen Dank! Ihre Nachricht wurde gesendet.');
  await expect(form.getByLabel('Nachricht')).toHaveValue('');
});

test('support with the mobile menu open at 375 px has no axe violations', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await openSignedIn(page, deskPaths.support);
  await page.getByRole('button', { name: 'Menü öffnen' }).click();
  await expect(page.getByRole('button', { name: 'Menü schließen' })).toBeVisible();
  await expectNoAxeViolations(page);
});
