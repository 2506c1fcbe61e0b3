import { expect, type Page } from '@playwright/test';
import { sitePaths } from '../../src/domain/routes.ts';
import { uniqueEmail } from '../../src/testing/lead-fixtures.ts';
import { answerTabaluga, expectNothingWaiting, waitingCount } from './journeys.ts';

/** The admin that server/db/setup.ts seeds, with the password e2e/serve.mjs passes in. */
export const admin = { email: 'admin@example.de', password: 'e2e-Admin-Passwort-1' };

/** Opens a Survey Desk screen: the guard shows the sign-in, the admin signs in and is sent back. */
export async function openSignedIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByLabel('E-Mail-Adresse').fill(admin.email);
  await page.getByLabel('Passwort', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(path);
}

/** A Tabaluga lead sent on the public site under `lastName`: one child born 3 March 2020, 100 €. */
export async function submitTabalugaLead(page: Page, lastName: string, emailPrefix: string) {
  await page.goto(sitePaths.tabaluga);
  await expect(waitingCount(page)).toBeAttached();
  await answerTabaluga(page, uniqueEmail(emailPrefix), { lastName });
  await expectNothingWaiting(page);
}
