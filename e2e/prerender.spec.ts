import { expect, test, type Page } from '@playwright/test';

// Public pages arrive as HTML (scripts/vite-plugins/island-pages.ts); only their islands run code
// (src/islands.tsx).
// That is a first visit: once the service worker controls the page, it answers navigations with
// the same prerendered files (e2e/islands.spec.ts).
test.use({ serviceWorkers: 'block' });
const prerendered = [
  { url: '/universa', heading: 'Willkommen bei Ihrer Versicherungsagentur' },
  { url: '/tiptoptabaluga', heading: 'Tabaluga – Vorsorge für Ihre Kinder' },
  { url: '/pkv', heading: 'Private Krankenversicherung (PKV)' },
  { url: '/universa/kfz', heading: 'KFZ-Versicherung: Rückruf anfordern' },
  { url: '/kontakt', heading: 'Kostenlosen Versicherungscheck buchen' },
  { url: '/universa/kontakt', heading: 'Kostenlosen Versicherungscheck buchen' },
  { url: '/impressum', heading: 'Impressum' },
  { url: '/datenschutz', heading: 'Datenschutzerklärung' },
  { url: '/agb', heading: 'Allgemeine Geschäftsbedingungen' },
  { url: '/cookies', heading: 'Cookie-Richtlinie' },
  { url: '/gibt-es-nicht', heading: 'Seite nicht gefunden' },
];

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const { url, heading } of prerendered) {
    test(`${url} shows its content`, async ({ page }) => {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(
        page.getByRole('contentinfo').getByRole('link', { name: 'Impressum' }),
      ).toBeVisible();
    });
  }

  // Issue 37: from the questionnaire the build knows (src/config/questionnaires-built.json).
  for (const { url, question, options } of [
    {
      url: '/tiptoptabaluga',
      question: 'Wie viele Kinder möchten Sie absichern?',
      options: ['Eins', 'Zwei', 'Drei oder mehr'],
    },
    {
      url: '/pkv',
      question: 'Wie sind Sie derzeit beschäftigt?',
      options: ['Selbstständig oder freiberuflich', 'Studierend'],
    },
  ]) {
    test(`${url} shows its first question with its progress, no loading line`, async ({ page }) => {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 2, name: question })).toBeVisible();
      await expect(
        page.getByRole('progressbar', { name: 'Fortschritt im Fragebogen' }),
      ).toHaveAttribute('aria-valuenow', '1');
      for (const name of options) await expect(page.getByRole('button', { name })).toBeVisible();
      await expect(page.getByText('Fragebogen wird geladen')).toHaveCount(0);
    });
  }
});

/** Console errors and uncaught exceptions: a hydration mismatch shows up as one. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    // The 404 page's own document comes with status 404, which Chromium reports as an error.
    if (message.type() === 'error' && !message.text().includes('status of 404')) {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('every prerendered page runs its islands without an error, keeping the HTML it got', async ({
  page,
}) => {
  const errors = collectErrors(page);
  // A mismatch makes React throw the server's HTML away and render anew: elements get removed.
  // Only elements of the server's HTML count: those present when parsing ends, before any script
  // runs. What the app adds itself after hydrating (the device status, Headless UI's helper
  // elements) may come and go.
  await page.addInitScript(() => {
    const removed: string[] = [];
    const fromServer = new WeakSet<Node>();
    (window as { removedElements?: string[] }).removedElements = removed;
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      for (const element of document.querySelectorAll('*')) fromServer.add(element);
    });
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (node instanceof Element && fromServer.has(node)) {
            removed.push(node.tagName.toLowerCase());
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  for (const { url, heading } of prerendered) {
    await test.step(url, async () => {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      // The device status appears once its island runs.
      await expect(page.getByTestId('verbindungsstatus')).toBeVisible();
      expect(errors).toEqual([]);
      const removed = () =>
        page.evaluate(() => (window as { removedElements?: string[] }).removedElements);
      // A questionnaire's first question is in the HTML too (issue 37): its island hydrates it,
      // nothing is replaced.
      expect(await removed()).toEqual([]);
    });
  }
});

test("the contact page's birthdate limits come from the visitor's day, not the build's", async ({
  page,
}) => {
  const html = await (await page.request.get('/kontakt')).text();
  expect(html).toContain('Geburtsdatum');
  expect(html).not.toMatch(/type="date"[^>]*\b(min|max)=/);

  await page.clock.setFixedTime(new Date('2031-06-15T10:00:00'));
  await page.goto('/kontakt');
  const birthdate = page.getByLabel('Geburtsdatum');
  // The form runs at the visitor's first use (src/islands.tsx); then the limits are set.
  await birthdate.focus();
  await expect(birthdate).toHaveAttribute('max', '2013-06-15');
  await expect(birthdate).toHaveAttribute('min', '1911-06-15');
});

test('a link between public pages is an ordinary navigation to the next prerendered page', async ({
  page,
}) => {
  await page.goto('/impressum');
  await expect(page.getByTestId('verbindungsstatus')).toBeVisible();
  await page.evaluate(() => ((window as { marker?: string }).marker = 'erster Aufruf'));

  await page.getByRole('contentinfo').getByRole('link', { name: 'Datenschutz' }).click();
  await expect(page).toHaveURL(/\/datenschutz$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Datenschutzerklärung' })).toBeVisible();
  // No client-side router: the new page is a new document, with its own islands running.
  expect(await page.evaluate(() => (window as { marker?: string }).marker)).toBeUndefined();
  await expect(page.getByTestId('verbindungsstatus')).toBeVisible();
});
