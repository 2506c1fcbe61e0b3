import { expect, test, type Page } from '@playwright/test';
import { deskPaths } from '../src/domain/routes.ts';
import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { admin, confirmationLink, signInAs, signUp } from './helpers/desk.ts';

// Registration, confirmation and approval of a staff account against the built server and its
// gateway. The admin is seeded by server/db/setup.ts with the password e2e/serve.mjs passes in;
// serve.mjs also writes where the server keeps its data (the mails land in DATA_DIR/mail/).

const roleOf = (page: Page, email: string) =>
  page.getByRole('combobox', { name: `Rolle für ${email}` });

const thanks = 'Vielen Dank für Ihre Registrierung!';

test.describe('registration', () => {
  test('shows the spec fields and passes axe', async ({ page }) => {
    await page.goto(deskPaths.signup);
    await expect(page.getByRole('heading', { level: 1, name: 'Registrieren' })).toBeVisible();
    const password = page.getByLabel('Passwort', { exact: true });
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Passwörter anzeigen' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(page.getByLabel('Passwort bestätigen')).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Passwörter verbergen' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await expectNoAxeViolations(page);
  });

  test('different passwords are named without a call', async ({ page }) => {
    let calls = 0;
    await page.route('**/auth/v1/signup', (route) => {
      calls += 1;
      return route.continue();
    });
    await signUp(page, {
      email: 'vertipper@example.de',
      password: 'Langes-Passwort-1',
      repeat: 'Langes-Passwort-2',
    });
    await expect(page.getByLabel('Passwort bestätigen')).toHaveAccessibleDescription(
      'Die Passwörter stimmen nicht überein.',
    );
    await expectNoAxeViolations(page);
    expect(calls).toBe(0);
  });

  test('a weak password gets a German message', async ({ page }) => {
    await signUp(page, { email: 'kurz@example.de', password: 'kurz' });
    await expect(page.getByRole('alert')).toHaveText(/Das Passwort ist zu schwach/);
    await expect(page.getByText(thanks)).toHaveCount(0);
  });

  test('an address that already has an account gets the same thank-you', async ({ page }) => {
    await signUp(page, { email: admin.email, password: 'Irgendein-Passwort-1' });
    await expect(page.getByText(thanks)).toBeVisible();
    await expect(
      page.getByText(
        'Bitte überprüfen Sie Ihre E-Mail-Adresse und bestätigen Sie diese, um Ihr Konto zu aktivieren.',
      ),
    ).toBeVisible();
    await expect(page.getByText('Wir freuen uns, Sie an Bord zu haben.')).toBeVisible();
  });
});

test.describe('retention', () => {
  test('the admin sees what the daily run removes, when it last ran, and keeps a customer', async ({
    page,
    request,
  }) => {
    const lead = questionnaireLead({ last_name: 'Aufbewahrt' });
    expect((await request.post('/api/responses', { data: lead })).status()).toBe(201);
    await signInAs(page, admin);
    await page.goto(deskPaths.staff);
    const section = page.getByRole('region', { name: 'Aufbewahrung und Löschung' });
    await expect(section).toBeVisible();
    // The server ran the job at its start; nothing here is five years old.
    await expect(section.getByText('Nichts fällig: Der nächste Lauf löscht nichts.')).toBeVisible();
    await expect(
      section.getByText(/^Letzter Lauf: \d\d\.\d\d\.\d{4}, \d\d:\d\d, \d+ entfernt$/),
    ).toBeVisible();
    await expect(section.getByText('Keine Aufbewahrungssperren.')).toBeVisible();

    const email = section.getByLabel('E-Mail-Adresse des Kunden');
    await email.fill('niemand@example.de');
    await section.getByLabel('Grund').fill('Vertrag 4711');
    await section.getByRole('button', { name: 'Sperre anlegen' }).click();
    await expect(email).toHaveAccessibleDescription(
      'Zu dieser E-Mail-Adresse gibt es keinen Kunden.',
    );
    await expectNoAxeViolations(page);

    await email.fill(lead.email);
    await section.getByRole('button', { name: 'Sperre anlegen' }).click();
    await expect(section.getByRole('status').filter({ hasText: 'Gespeichert' })).toHaveText(
      `Gespeichert: Die Daten zu ${lead.email} werden nicht automatisch gelöscht.`,
    );
    const row = section.getByRole('row', { name: /Aufbewahrt/ });
    await expect(row).toContainText('Vertrag 4711');
    await expect(row).toContainText('unbefristet');
    await expectNoAxeViolations(page);
    await row.getByRole('button', { name: /^Sperre für .* aufheben$/ }).click();
    await expect(section.getByText('Keine Aufbewahrungssperren.')).toBeVisible();
  });
});

test.describe('approval', () => {
  test.describe.configure({ mode: 'serial' });

  const newcomer = { email: `neu-${Date.now()}@example.de`, password: 'Neues-Passwort-123' };

  test('a confirmed but pending account waits and sees no customer data', async ({ page }) => {
    await signUp(page, newcomer);
    await expect(page.getByText(thanks)).toBeVisible();

    await page.goto(await confirmationLink(newcomer.email));
    await expect(page).toHaveURL(/\/surveydesk\/signin\?bestaetigt=1$/);
    await expect(page.getByText('E-Mail bestätigt – bitte anmelden')).toBeVisible();

    await signInAs(page, newcomer);
    await expect(page.getByText('Dein Konto ist noch nicht freigeschaltet.')).toBeVisible();
    await page.goto(deskPaths.customers);
    await expect(page.getByText('Dein Konto ist noch nicht freigeschaltet.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Kunden Daten' })).toHaveCount(0);
  });

  test('the admin is told about it and enables it in Mitarbeiter', async ({ page }) => {
    await signInAs(page, admin);
    await page.getByRole('button', { name: 'Benachrichtigungen' }).click();
    const notifications = page.locator('#desk-notifications');
    await expect(notifications).toContainText(newcomer.email);
    await notifications.getByRole('link', { name: 'Zu den Mitarbeitern' }).click();
    await expect(page).toHaveURL(/\/surveydesk\/mitarbeiter$/);

    const row = page.getByRole('row', { name: new RegExp(newcomer.email) });
    await expect(row).toBeVisible();
    await expectNoAxeViolations(page);

    const role = roleOf(page, newcomer.email);
    await expect(role).toHaveValue('pending');
    await role.selectOption('staff');
    const saved = page.waitForResponse((response) =>
      response.url().includes('/rpc/set_staff_role'),
    );
    await page.getByRole('button', { name: `Rolle für ${newcomer.email} speichern` }).click();
    expect((await saved).ok()).toBe(true);
    // The list is read again: the saved role comes from the database.
    await page.reload();
    await expect(roleOf(page, newcomer.email)).toHaveValue('staff');

    await page.getByRole('button', { name: 'Benutzermenü' }).click();
    await expect(page.getByRole('menuitem', { name: 'Mitarbeiter' })).toBeVisible();
  });

  test('the enabled account sees the customers but not Mitarbeiter', async ({ page }) => {
    await signInAs(page, newcomer);
    await page.goto(deskPaths.customers);
    await expect(page.getByRole('heading', { level: 1, name: 'Kunden Daten' })).toBeVisible();

    await page.getByRole('button', { name: 'Benutzermenü' }).click();
    await expect(page.getByRole('menuitem', { name: 'Einstellungen' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Mitarbeiter' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.goto(deskPaths.staff);
    await expect(page.getByText('Diese Seite ist nur für Admins.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
  });

  test('the last admin cannot demote itself', async ({ page }) => {
    await signInAs(page, admin);
    await page.goto(deskPaths.staff);
    const role = roleOf(page, admin.email);
    await role.selectOption('staff');
    await page.getByRole('button', { name: `Rolle für ${admin.email} speichern` }).click();
    await expect(role).toHaveAccessibleDescription(
      /Der letzte Admin kann nicht entfernt oder herabgestuft werden\./,
    );
    await expectNoAxeViolations(page);
    await page.reload();
    await expect(roleOf(page, admin.email)).toHaveValue('admin');
  });
});
