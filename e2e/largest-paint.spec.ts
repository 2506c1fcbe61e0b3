import { expect, test, type Page } from '@playwright/test';

// The first paint is the page: on a first visit, with the consent banner showing, the largest
// contentful paint is the page's own prerendered content, never the banner, the banner leaves the
// heading and the page's first action visible.

// A first visit: no consent choice, so the banner shows (the config's default state has one).
// No service worker: a first visit gets the prerendered HTML, not the app shell.
test.use({ storageState: { cookies: [], origins: [] }, serviceWorkers: 'block' });

const pages = ['/universa', '/tiptoptabaluga'];
const screens = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 720 } },
];

interface PaintReport {
  /** Where the last largest-contentful-paint entry's element is; null if it has none. */
  lcp: { tag: string; inBanner: boolean; inMain: boolean; text: string } | null;
  entries: number;
}

/** The buffered LCP entries of the page so far, read in the page. */
function readPaints(page: Page): Promise<PaintReport> {
  return page.evaluate(async () => {
    const buffered = (type: string) =>
      new Promise<PerformanceEntry[]>((resolve) => {
        const observer = new PerformanceObserver((list) => {
          observer.disconnect();
          resolve(list.getEntries());
        });
        observer.observe({ type, buffered: true });
        // No entry of this type at all: the observer is never called.
        setTimeout(() => {
          observer.disconnect();
          resolve([]);
        }, 500);
      });
    const lcpEntries = (await buffered('largest-contentful-paint')) as (PerformanceEntry & {
      element: Element | null;
    })[];
    const element = lcpEntries.at(-1)?.element ?? null;
    return {
      lcp: element && {
        tag: element.tagName.toLowerCase(),
        inBanner: Boolean(element.closest('#cc-main')),
        inMain: Boolean(element.closest('main')),
        text: (element.textContent ?? '').slice(0, 60),
      },
      entries: lcpEntries.length,
    };
  });
}

for (const screen of screens) {
  test.describe(`on a ${screen.name}`, () => {
    test.use({ viewport: screen.viewport });

    for (const url of pages) {
      test(`${url}: the largest paint is the page, not the consent banner`, async ({ page }) => {
        await page.goto(url);
        const banner = page.getByRole('dialog', { name: 'Ihre Privatsphäre' });
        await expect(banner.getByRole('button', { name: 'Alle ablehnen' })).toBeVisible();
        // The banner slides in: wait until it stands still, then one more frame, so a paint of
        // its text would be among the entries.
        await page.waitForFunction(() =>
          document.getAnimations().every((animation) => animation.playState !== 'running'),
        );
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))),
        );

        const report = await readPaints(page);
        expect(report.entries).toBeGreaterThan(0);
        expect(report.lcp, 'LCP-Element').not.toBeNull();
        expect(report.lcp!.inBanner, `LCP im Banner: ${report.lcp!.text}`).toBe(false);
        expect(report.lcp!.inMain, `LCP außerhalb von main: ${report.lcp!.text}`).toBe(true);

        // The banner leaves the heading and the page's first action visible.
        const box = (await page.locator('#cc-main .cm').boundingBox())!;
        const firstAction = page
          .locator('main')
          .locator('a[href], button, input, select, textarea')
          .first();
        for (const target of [page.getByRole('heading', { level: 1 }), firstAction]) {
          const rect = (await target.boundingBox())!;
          const overlaps =
            rect.x < box.x + box.width &&
            box.x < rect.x + rect.width &&
            rect.y < box.y + box.height &&
            box.y < rect.y + rect.height;
          expect(
            overlaps,
            `Banner verdeckt ${await target.evaluate((e) => e.outerHTML.slice(0, 80))}`,
          ).toBe(false);
        }
      });
    }
  });
}
