// Writes the HTML of each public page into the files the build made for it (vite.config.ts puts
// the page's metadata into their heads), so a phone paints the page before its JavaScript runs.
// Run after `vite build`; main.tsx hydrates what is here.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { publicPageAddresses } from '../src/config/page-meta.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = path.join(root, 'dist');
const emptyRoot = '<div id="root"></div>';
// The app's one stylesheet as Vite links it. A linked stylesheet blocks the first paint for
// another round trip, on a phone's network the longest wait before the page shows; inlined
// (about 7 KB compressed) the prerendered page paints with the HTML. The app shell (index.html,
// which the service worker and Survey Desk use) keeps the link and the cacheable file.
const stylesheetLink = /<link rel="stylesheet" crossorigin href="(\/assets\/index-[\w-]+\.css)">/;

/**
 * The prerendered page needs no script to paint, so its code is fetched at low priority: on a
 * phone's slow link the document and its images come first, and the code after them.
 */
function lowPriorityScripts(html: string): string {
  return html.replace(
    /<(script type="module"|link rel="modulepreload") crossorigin /g,
    '<$1 fetchpriority="low" crossorigin ',
  );
}

async function inlineStylesheet(html: string, file: string): Promise<string> {
  const match = stylesheetLink.exec(html);
  if (!match) throw new Error(`${file}: Stylesheet-Link der App fehlt.`);
  const css = await readFile(path.join(dist, match[1]!), 'utf8');
  if (css.includes('</')) throw new Error(`${match[1]}: lässt sich nicht in <style> einbetten.`);
  return html.replace(match[0], () => `<style>${css.trim()}</style>`);
}

const vite = await createServer({
  root,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { renderPage } = (await vite.ssrLoadModule('/src/app/render-page.tsx')) as {
    renderPage: (path: string) => Promise<string>;
  };
  const pages = [
    ...publicPageAddresses.map(({ path: address }) => ({
      address,
      file: path.join(dist, address, 'index.html'),
    })),
    // Every unknown address shows the same 404 page.
    { address: '/404', file: path.join(dist, '404.html') },
  ];
  for (const { address, file } of pages) {
    const html = await readFile(file, 'utf8');
    if (!html.includes(emptyRoot)) throw new Error(`${file}: ${emptyRoot} fehlt.`);
    const body = await renderPage(address);
    const page = html.replace(emptyRoot, () => `<div id="root">${body}</div>`);
    await writeFile(file, lowPriorityScripts(await inlineStylesheet(page, file)));
  }
  console.log(`Vorgerendert: ${pages.map((p) => p.address).join(', ')}`);
} finally {
  await vite.close();
}
