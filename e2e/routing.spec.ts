import { expect, test } from '@playwright/test';
import { isDeskOnlyFile } from './helpers/desk-files.ts';

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

test('a visitor of /universa downloads no Survey Desk code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/universa');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter(isDeskOnlyFile)).toEqual([]);
});

test('a screen whose code cannot be loaded shows a German error, not a blank page', async ({
  page,
}) => {
  await page.route(isDeskOnlyFile, (route) => route.abort());
  await page.goto('/surveydesk/signin');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Es ist ein Fehler aufgetreten' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Seite neu laden' })).toBeVisible();
});
