import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { deskPaths, sitePaths } from '../../src/domain/routes.ts';
import { uniqueEmail } from '../../src/testing/lead-fixtures.ts';
import { answerTabaluga, expectQuestionnaireSent, waitingCount } from './journeys.ts';

/** The admin that server/db/setup.ts seeds, with the password e2e/serve.mjs passes in. */
export const admin = { email: 'admin@example.de', password: 'e2e-Admin-Passwort-1' };

/** Opens a Survey Desk screen: the guard shows the sign-in, the admin signs in and is sent back. */
export async function openSignedIn(page: Page, screen: string) {
  await page.goto(screen);
  await page.getByLabel('E-Mail-Adresse').fill(admin.email);
  await page.getByLabel('Passwort', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(screen);
}

/** A Tabaluga lead sent on the public site under `lastName`: one child born 3 March 2020, 100 €. */
export async function submitTabalugaLead(page: Page, lastName: string, emailPrefix: string) {
  await page.goto(sitePaths.tabaluga);
  await expect(waitingCount(page)).toBeAttached();
  await answerTabaluga(page, uniqueEmail(emailPrefix), { lastName });
  await expectQuestionnaireSent(page);
}

export interface Credentials {
  email: string;
  password: string;
}

/** Signs in on the sign-in screen and lands on the dashboard. */
export async function signInAs(page: Page, credentials: Credentials) {
  await page.goto(deskPaths.signin);
  await page.getByLabel('E-Mail-Adresse').fill(credentials.email);
  await page.getByLabel('Passwort', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/surveydesk\/dashboard$/);
}

/** Fills and sends the registration form (`repeat` for a mismatching confirmation). */
export async function signUp(page: Page, values: Credentials & { repeat?: string }) {
  await page.goto(deskPaths.signup);
  await page.getByLabel('E-Mail-Adresse').fill(values.email);
  await page.getByLabel('Passwort', { exact: true }).fill(values.password);
  await page.getByLabel('Passwort bestätigen').fill(values.repeat ?? values.password);
  await page.getByRole('button', { name: 'Registrieren' }).click();
}

/**
 * The confirmation link of the mail the server wrote for `email`: e2e/serve.mjs writes where the
 * server keeps its data, and the mails land in DATA_DIR/mail/.
 */
export async function confirmationLink(email: string): Promise<string> {
  const dataDirFile = path.resolve(`.tmp/e2e-data-dir-${process.env.E2E_PORT}`);
  const folder = path.join((await readFile(dataDirFile, 'utf8')).trim(), 'mail');
  let link: string | undefined;
  await expect
    .poll(async () => {
      for (const file of await readdir(folder).catch(() => [])) {
        const mail = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as {
          to: string;
          text: string;
        };
        if (mail.to === email) link = /https?:\/\/\S+\/auth\/v1\/verify\S*/.exec(mail.text)?.[0];
      }
      return link;
    })
    .toBeTruthy();
  return link!;
}

/** A registered, confirmed account that the admin made staff (the steps desk-accounts tests). */
export async function createStaffAccount(page: Page, credentials: Credentials) {
  await signUp(page, credentials);
  await expect(page.getByText('Vielen Dank für Ihre Registrierung!')).toBeVisible();
  await page.goto(await confirmationLink(credentials.email));
  await expect(page).toHaveURL(/\/surveydesk\/signin\?bestaetigt=1$/);

  await openSignedIn(page, deskPaths.staff);
  const role = page.getByRole('combobox', { name: `Rolle für ${credentials.email}` });
  await role.selectOption('staff');
  // Reloaded only once the role is stored: a reload during the call would cancel it.
  const saved = page.waitForResponse((response) => response.url().includes('/rpc/set_staff_role'));
  await page.getByRole('button', { name: `Rolle für ${credentials.email} speichern` }).click();
  expect((await saved).ok()).toBe(true);
  await page.reload();
  await expect(role).toHaveValue('staff');
}
