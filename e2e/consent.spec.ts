import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './helpers/hub.ts';

// A first visit: no consent choice yet.
test.use({ storageState: { cookies: [], origins: [] } });

const publicRoutes = [
  '/universa',
  '/tiptoptabaluga',
  '/pkv',
  '/universa/kfz',
  '/kontakt',
  '/impressum',
  '/datenschutz',
  '/agb',
  '/cookies',
];

test('before a consent choice nothing but strictly necessary storage exists', async ({
  context,
  page,
}) => {
  for (const route of publicRoutes) {
    await page.goto(route);
    await expect(page.getByRole('button', { name: 'Alle ablehnen' })).toBeVisible();
  }
  // Give lazy work (warm-up of the offline store) time to happen.
  await page.waitForTimeout(1_000);
  expect(await context.cookies()).toEqual([]);
  const stored = await page.evaluate(async () => ({
    local: Object.keys(localStorage),
    session: Object.keys(sessionStorage),
    databases: (await indexedDB.databases()).map((d) => d.name),
  }));
  // The offline store holds the questionnaires for offline use and leads until sent: strictly
  // necessary for the service asked for (§ 25 Abs. 2 Nr. 2 TDDDG), stated on /datenschutz.
  expect(stored).toEqual({ local: [], session: [], databases: ['universa-offline'] });
});

test('the first layer offers "Alle ablehnen" as prominently as "Alle akzeptieren"', async ({
  context,
  page,
}) => {
  await page.goto('/universa');
  const dialog = page.getByRole('dialog', { name: 'Ihre Privatsphäre' });
  const accept = dialog.getByRole('button', { name: 'Alle akzeptieren' });
  const reject = dialog.getByRole('button', { name: 'Alle ablehnen' });
  await expect(accept).toBeVisible();
  await expect(reject).toBeVisible();
  const [a, r] = [await accept.boundingBox(), await reject.boundingBox()];
  expect(r!.width).toBeCloseTo(a!.width, 0);
  expect(r!.height).toBeCloseTo(a!.height, 0);
  const style = (el: Element) => {
    const s = getComputedStyle(el);
    return [s.backgroundColor, s.color, s.fontSize, s.fontWeight];
  };
  expect(await reject.evaluate(style)).toEqual(await accept.evaluate(style));
  await expectNoAxeViolations(page);

  await reject.click();
  await expect(dialog).toBeHidden();
  const cookie = (await context.cookies()).find((c) => c.name === 'cc_cookie');
  expect(JSON.parse(decodeURIComponent(cookie!.value)).categories).toEqual(['necessary']);
});

test('"Cookie-Einstellungen öffnen" on /cookies opens the second layer', async ({ page }) => {
  await page.goto('/cookies');
  await page
    .getByRole('dialog', { name: 'Ihre Privatsphäre' })
    .getByRole('button', { name: 'Alle ablehnen' })
    .click();
  await page.getByRole('button', { name: 'Cookie-Einstellungen öffnen' }).click();
  const settings = page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
  await expect(settings).toBeVisible();
  await expect(settings.getByRole('button', { name: 'Unbedingt erforderlich' })).toBeVisible();
  await expectNoAxeViolations(page);
});
