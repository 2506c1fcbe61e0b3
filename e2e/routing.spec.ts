import { expect, test } from '@playwright/test';

test('the bare address lands on the landing page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/universa$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Willkommen bei Ihrer Versicherungsagentur' }),
  ).toBeVisible();
});

test('an unknown address shows the German 404 page with a way back', async ({ page }) => {
  await page.goto('/gibt-es-nicht');
  await expect(page.getByRole('heading', { level: 1, name: 'Seite nicht gefunden' })).toBeVisible();

  await page.getByRole('link', { name: 'Zur Startseite' }).click();
  await expect(page).toHaveURL(/\/universa$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Willkommen bei Ihrer Versicherungsagentur' }),
  ).toBeVisible();
});

test('/login leads to the Survey Desk sign-in', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveURL(/\/surveydesk\/signin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
});
