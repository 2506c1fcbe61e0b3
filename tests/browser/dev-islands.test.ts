import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../scripts/chromium.ts';

// `npm run dev` serves a public page as the build writes it: prerendered by the same renderer,
// with the same loader and islands entry (scripts/vite-plugins/island-pages.ts), the modules
// from Vite. Here Vite's dev server runs with the project's config, without the Node server
// behind it (its API answers do not matter to the page's HTML and islands).

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run dev', () => {
  let server: ViteDevServer;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    server = await createServer({
      root,
      logLevel: 'error',
      server: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    await server.listen();
    const address = server.httpServer!.address();
    if (!address || typeof address === 'string') throw new Error('Kein Port.');
    base = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch(chromiumLaunchOptions);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const page = (address: string) =>
    fetch(`${base}${address}`, { headers: { accept: 'text/html' } });

  it('answers a public address with the prerendered page and its loader', async () => {
    const response = await page('/impressum');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h1');
    expect(html).toContain('Impressum');
    expect(html).toContain('data-island="device-status"');
    expect(html).toContain('<script type="module" src="/src/islands/load-after-paint.ts">');
    expect(html).toContain('"entry":"/src/islands.tsx"');
    // The shell's entry is not loaded: the page is not hydrated as a whole.
    expect(html).not.toContain('/src/main.tsx');
  });

  it('answers an unknown address with the 404 page and the shell addresses with the shell', async () => {
    const missing = await page('/gibt-es-nicht');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('data-island="not-found-meta"');
    const shell = await (await page('/surveydesk')).text();
    expect(shell).toContain('/src/main.tsx');
    expect(shell).not.toContain('data-island');
  });

  it('runs the islands in the browser and leaves the rest of the page static', async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`${base}/kontakt`);
    const islandRoots = () =>
      tab.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[data-island]')]
          .filter((element) =>
            Object.keys(element).some((key) => key.startsWith('__reactContainer$')),
          )
          .map((element) => element.dataset['island']),
      );
    /** The islands that run (src/islands/start-islands.ts marks them), React or plain DOM. */
    const running = () =>
      tab.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[data-island-running]')].map(
          (element) => element.dataset['island'],
        ),
      );
    // Vite may optimise dependencies on the first visit and reload the page once.
    await expect.poll(running, { timeout: 60_000 }).toEqual(['device-status', 'pwa-notices']);
    // The status and the notices are plain DOM: no React root until the form starts.
    expect(await islandRoots()).toEqual([]);
    // The form starts at its first use.
    await tab.getByLabel('Vorname').focus();
    await expect.poll(islandRoots, { timeout: 30_000 }).toEqual(['contact-form']);
    const mainOwnedByReact = await tab.evaluate(() =>
      Object.keys(document.querySelector('main')!).some((key) => key.startsWith('__react')),
    );
    expect(mainOwnedByReact).toBe(false);
    expect(errors).toEqual([]);
    await tab.close();
  }, 120_000);
});
