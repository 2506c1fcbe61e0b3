import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './helpers/hub.ts';

const publicRoutes: [string, string][] = [
  ['/universa', 'Willkommen bei Ihrer Versicherungsagentur'],
  ['/tiptoptabaluga', 'Tabaluga – Vorsorge für Ihre Kinder'],
  ['/pkv', 'Private Krankenversicherung (PKV)'],
  ['/universa/kfz', 'KFZ-Versicherung: Rückruf anfordern'],
  ['/kontakt', 'Kostenlosen Versicherungscheck buchen'],
  ['/universa/kontakt', 'Kostenlosen Versicherungscheck buchen'],
  ['/impressum', 'Impressum'],
  ['/datenschutz', 'Datenschutzerklärung'],
  ['/agb', 'Allgemeine Geschäftsbedingungen'],
  ['/cookies', 'Cookie-Richtlinie'],
  ['/fragebogen/2', 'Fragebogen'],
  ['/gibt-es-nicht', 'Seite nicht gefunden'],
];

for (const [route, heading] of publicRoutes) {
  test(`${route} has no WCAG 2.1 A/AA violations`, async ({ page }) => {
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // The status element arrives after the first paint; check the page as a visitor sees it.
    await expect(page.getByTestId('wartende-anfragen')).toBeAttached();
    await expectNoAxeViolations(page);
  });
}

test.describe('with the consent dialog open', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const [route] of publicRoutes.slice(0, 5)) {
    test(`${route} has no violations while the banner shows`, async ({ page }) => {
      await page.goto(route);
      await expect(page.getByRole('button', { name: 'Alle ablehnen' })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});
