// Writes the HTML of each public page into the files the build made for it (vite.config.ts puts
// the page's metadata into their heads), so a phone paints the page before its JavaScript runs.
// Run after `vite build`; main.tsx hydrates what is here.
import { createHash } from 'node:crypto';
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

// The prerendered page needs no script to paint. As Vite links it, the app's code (the entry
// and its modulepreloads) is fetched together with the HTML and competes with it on a phone's
// slow link. Instead a small classic script (no inline script: the CSP allows only our own files)
// adds the same tags once the page has painted; the code then loads exactly as before, a frame
// later. The app shell (index.html) keeps the tags: it has nothing to paint without its code.
const entryScript = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>\s*/;
const modulePreload = /<link rel="modulepreload" crossorigin href="(\/assets\/[\w.-]+\.js)">\s*/g;

/** The loader's source: the entry and its modulepreloads, added after the first paint. */
function codeLoader(entry: string, preloads: string[]): string {
  return `// Written by scripts/prerender.ts: loads the app's code once the prerendered page has painted.
(function () {
  var done = false;
  function load() {
    if (done) return;
    done = true;
    ${JSON.stringify(preloads)}.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = 'anonymous';
      link.href = href;
      document.head.appendChild(link);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = 'anonymous';
    script.src = ${JSON.stringify(entry)};
    document.head.appendChild(script);
  }
  // After the next frame has been painted; a page in a background tab paints no frames.
  requestAnimationFrame(function () { setTimeout(load, 0); });
  setTimeout(load, 1000);
})();
`;
}

let loaderPath: string | undefined;

/** Replaces the app's script tags by the loader, written once into dist/assets/. */
async function loadCodeAfterPaint(html: string, file: string): Promise<string> {
  const entry = entryScript.exec(html);
  if (!entry) throw new Error(`${file}: Einstiegsskript der App fehlt.`);
  const preloads = [...html.matchAll(modulePreload)].map((match) => match[1]!);
  if (!loaderPath) {
    const source = codeLoader(entry[1]!, preloads);
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
    loaderPath = `/assets/load-after-paint-${hash}.js`;
    await writeFile(path.join(dist, loaderPath), source);
  }
  return html
    .replace(entryScript, `<script defer src="${loaderPath}"></script>\n    `)
    .replace(modulePreload, '');
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
    await writeFile(file, await loadCodeAfterPaint(await inlineStylesheet(page, file), file));
  }
  console.log(`Vorgerendert: ${pages.map((p) => p.address).join(', ')}`);
} finally {
  await vite.close();
}
