import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { deskPaths } from '../src/domain/routes.ts';
import {
  confirmationLink,
  createStaffAccount,
  signInAs,
  signUp,
  type Credentials,
} from './helpers/desk.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';

// Issue 24: 'Passwort vergessen?' through the mailed link, and the change in Einstellungen,
// against the built server and its gateway; every new screen and error state passes axe.

/** The newest recovery link mailed to `email` (DATA_DIR/mail, as e2e/serve.mjs tells where). */
async function recoveryLink(email: string, other?: string): Promise<string> {
  const dataDirFile = path.resolve(`.tmp/e2e-data-dir-${process.env.E2E_PORT}`);
  const folder = path.join((await readFile(dataDirFile, 'utf8')).trim(), 'mail');
  let link: string | undefined;
  await expect
    .poll(async () => {
      link = undefined;
      for (const file of (await readdir(folder).catch(() => [])).sort()) {
        const mail = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as {
          to: string;
          text: string;
        };
        if (mail.to !== email) continue;
        link = /https?:\/\/\S+\/surveydesk\/passwort-neu\S*/.exec(mail.text)?.[0] ?? link;
      }
      return link !== undefined && link !== other;
    })
    .toBe(true);
  return link!;
}

/** A confirmed account through registration and its mailed link. */
async function confirmedAccount(page: Page, credentials: Credentials) {
  await signUp(page, credentials);
  await expect(page.getByText('Vielen Dank für Ihre Registrierung!')).toBeVisible();
  await page.goto(await confirmationLink(credentials.email));
  await expect(page).toHaveURL(/\/surveydesk\/signin\?bestaetigt=1$/);
}

test('a forgotten password is reset through the mailed link, once', async ({ page }) => {
  const account = { email: `vergessen-${Date.now()}@example.de`, password: 'Altes-Passwort-1' };
  const newPassword = 'Neues-Passwort-2';
  await confirmedAccount(page, account);

  await page.goto(deskPaths.signin);
  await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
  await expect(page).toHaveURL(deskPaths.passwordForgotten);
  await expect(page.getByRole('heading', { level: 1, name: 'Passwort vergessen' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Link anfordern' }).click();
  await expect(page.getByLabel('E-Mail-Adresse')).toHaveAccessibleDescription(
    'Bitte gib deine E-Mail-Adresse ein.',
  );
  await expectNoAxeViolations(page);

  await page.getByLabel('E-Mail-Adresse').fill(account.email);
  await page.getByRole('button', { name: 'Link anfordern' }).click();
  await expect(page.getByRole('status')).toContainText(
    'Wenn ein Konto mit dieser Adresse besteht, haben wir einen Link geschickt.',
  );
  await expectNoAxeViolations(page);

  const link = await recoveryLink(account.email);
  await page.goto(link);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Neues Passwort festlegen' }),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel('Neues Passwort', { exact: true }).fill(newPassword);
  await page.getByLabel('Neues Passwort wiederholen').fill('Vertippt-3');
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page.getByLabel('Neues Passwort wiederholen')).toHaveAccessibleDescription(
    'Die Passwörter stimmen nicht überein.',
  );
  await expectNoAxeViolations(page);

  await page.getByLabel('Neues Passwort wiederholen').fill(newPassword);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page).toHaveURL(/\/surveydesk\/signin\?passwort=neu$/);
  await expect(page.getByRole('status')).toContainText('Passwort geändert');
  await expectNoAxeViolations(page);

  // The link worked once.
  await page.goto(link);
  await page.getByLabel('Neues Passwort', { exact: true }).fill('Drittes-Passwort-4');
  await page.getByLabel('Neues Passwort wiederholen').fill('Drittes-Passwort-4');
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page.getByRole('alert')).toContainText('Dieser Link ist ungültig oder abgelaufen.');
  await expect(page.getByRole('link', { name: 'Neuen Link anfordern' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto(deskPaths.signin);
  await page.getByLabel('E-Mail-Adresse').fill(account.email);
  await page.getByLabel('Passwort', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toContainText('Login fehlgeschlagen');
  await signInAs(page, { email: account.email, password: newPassword });
});

test('name and password are changed in Einstellungen', async ({ page }) => {
  const account = { email: `aendern-${Date.now()}@example.de`, password: 'Altes-Passwort-1' };
  const newPassword = 'Neues-Passwort-2';
  // Einstellungen is a staff screen: a pending account sees the approval notice instead.
  await createStaffAccount(page, account);
  await signInAs(page, account);

  await page.goto(deskPaths.settings);
  await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible();
  await expect(page.getByLabel('Anzeigename')).toBeEnabled();
  await expectNoAxeViolations(page);

  await page.getByLabel('Anzeigename').fill('Erika Muster');
  await page.getByRole('button', { name: 'Name speichern' }).click();
  await expect(page.getByText('Name gespeichert.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Anzeigename')).toHaveValue('Erika Muster');

  const form = page.getByRole('form', { name: 'Passwort ändern' });
  await form.getByLabel('Aktuelles Passwort').fill('Falsches-Passwort-9');
  await form.getByLabel('Neues Passwort', { exact: true }).fill(newPassword);
  await form.getByLabel('Neues Passwort wiederholen').fill(newPassword);
  await form.getByRole('button', { name: 'Passwort ändern' }).click();
  await expect(form.getByLabel('Aktuelles Passwort')).toHaveAccessibleDescription(
    'Das aktuelle Passwort stimmt nicht.',
  );
  await expectNoAxeViolations(page);

  await form.getByLabel('Aktuelles Passwort').fill(account.password);
  await form.getByLabel('Neues Passwort', { exact: true }).fill(account.password);
  await form.getByLabel('Neues Passwort wiederholen').fill(account.password);
  await form.getByRole('button', { name: 'Passwort ändern' }).click();
  await expect(form.getByLabel('Neues Passwort', { exact: true })).toHaveAccessibleDescription(
    'Das neue Passwort muss sich vom alten unterscheiden.',
  );

  await form.getByLabel('Neues Passwort', { exact: true }).fill(newPassword);
  await form.getByLabel('Neues Passwort wiederholen').fill(newPassword);
  await form.getByRole('button', { name: 'Passwort ändern' }).click();
  await expect(form.getByRole('status')).toContainText('Passwort geändert.');
  await expectNoAxeViolations(page);

  await signInAs(page, { email: account.email, password: newPassword });
});
