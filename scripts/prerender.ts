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
    await writeFile(file, html.replace(emptyRoot, `<div id="root">${body}</div>`));
  }
  console.log(`Vorgerendert: ${pages.map((p) => p.address).join(', ')}`);
} finally {
  await vite.close();
}
