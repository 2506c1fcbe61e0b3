// Writes the HTML of each public page into the files the build made for it (vite.config.ts puts
// the page's metadata into their heads), so a phone paints the page before its JavaScript runs.
// Run after `vite build`. The page is not hydrated: after the first paint it loads the islands
// entry (src/islands.tsx), which runs only the page's interactive parts. The app shell
// (index.html, main.tsx) is left as it is.
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
// adds the islands entry and its static imports once the page has painted. The app shell
// (index.html) keeps its tags: it has nothing to paint without its code.
const entryScript = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>\s*/;
const modulePreload = /<link rel="modulepreload" crossorigin href="(\/assets\/[\w.-]+\.js)">\s*/g;

/**
 * The loader's source: the islands entry and its modulepreloads, added after the first paint;
 * then, once the page is idle, modulepreloads of the code of the page's islands that run at the
 * visitor's first use (`idlePreloads`, by island name): fetched and compiled, not run, so a form
 * starts at once and still works when the connection is gone before it was used.
 */
function codeLoader(entry: string, preloads: string[], idlePreloads: Record<string, string[]>) {
  return `// Written by scripts/prerender.ts: loads the app's code once the prerendered page has painted.
(function () {
  var done = false;
  var added = {};
  function preload(href) {
    if (added[href]) return;
    added[href] = true;
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = 'anonymous';
    link.href = href;
    document.head.appendChild(link);
  }
  function load() {
    if (done) return;
    done = true;
    ${JSON.stringify(preloads)}.forEach(preload);
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = 'anonymous';
    script.src = ${JSON.stringify(entry)};
    document.head.appendChild(script);
  }
  var onIdle = ${JSON.stringify(idlePreloads)};
  function preloadIslands() {
    document.querySelectorAll('[data-island-start="interaction"]').forEach(function (island) {
      (onIdle[island.getAttribute('data-island')] || []).forEach(preload);
    });
  }
  // After the next frame has been painted; a page in a background tab paints no frames.
  requestAnimationFrame(function () { setTimeout(load, 0); });
  setTimeout(load, 1000);
  window.addEventListener('load', function () {
    if (window.requestIdleCallback) requestIdleCallback(preloadIslands, { timeout: 4000 });
    else setTimeout(preloadIslands, 1000);
  });
})();
`;
}

/** The source module of each island that starts at first use (src/islands.tsx loads the same). */
const interactionIslands: Record<string, string> = {
  'kfz-form': 'src/site/kfz/kfz-page.tsx',
  'contact-form': 'src/site/contact/contact-page.tsx',
};

const islandsEntry = 'src/islands.tsx';

type Manifest = Record<string, { file: string; imports?: string[] }>;

/** A chunk's file and every chunk it imports statically, as addresses. */
function staticFiles(manifest: Manifest, key: string): string[] {
  const seen = new Set<string>();
  const queue = [key];
  while (queue.length > 0) {
    const chunk = manifest[queue.shift()!];
    if (!chunk) throw new Error(`${key}: fehlt im Build-Manifest.`);
    if (seen.has(chunk.file)) continue;
    seen.add(chunk.file);
    queue.push(...(chunk.imports ?? []));
  }
  return [...seen].map((file) => `/${file}`);
}

/** The islands entry's file, the chunks it imports and those of each first-use island. */
async function islandsCode() {
  const manifest = JSON.parse(
    await readFile(path.join(dist, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const [entry, ...preloads] = staticFiles(manifest, islandsEntry);
  const idlePreloads = Object.fromEntries(
    Object.entries(interactionIslands).map(([name, key]) => [
      name,
      staticFiles(manifest, key).filter((file) => !preloads.includes(file)),
    ]),
  );
  return { entry: entry!, preloads, idlePreloads };
}

let loaderPath: string | undefined;

/** Replaces the app's script tags by the loader, written once into dist/assets/. */
async function loadCodeAfterPaint(html: string, file: string): Promise<string> {
  if (!entryScript.test(html)) throw new Error(`${file}: Einstiegsskript der App fehlt.`);
  for (const [, name] of html.matchAll(/data-island="([\w-]+)" data-island-start="interaction"/g)) {
    if (!interactionIslands[name!])
      throw new Error(`${file}: Insel ${name} fehlt in interactionIslands.`);
  }
  if (!loaderPath) {
    const { entry, preloads, idlePreloads } = await islandsCode();
    const source = codeLoader(entry, preloads, idlePreloads);
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
    loaderPath = `/assets/load-after-paint-${hash}.js`;
    await writeFile(path.join(dist, loaderPath), source);
  }
  return html
    .replace(entryScript, `<script defer src="${loaderPath}"></script>\n    `)
    .replace(modulePreload, '');
}

/**
 * The service worker precaches every prerendered page (it answers their navigations offline),
 * but its list was made by `vite build`, before the pages got their content and the loader
 * existed: the pages' revisions are corrected here and the loader is added, so an update of a
 * page's text reaches installed devices and the page runs its islands offline.
 */
async function updatePrecache(files: string[]): Promise<void> {
  const swFile = path.join(dist, 'sw.js');
  let sw = await readFile(swFile, 'utf8');
  const md5 = async (file: string) =>
    createHash('md5')
      .update(await readFile(file))
      .digest('hex');
  const entry = (url: string, revision: string) => `{"revision":"${revision}","url":"${url}"}`;
  for (const file of files) {
    const url = path.relative(dist, file).split(path.sep).join('/');
    const pattern = new RegExp(
      `\\{"revision":"[0-9a-f]+","url":"${url.replaceAll('.', '\\.')}"\\}`,
    );
    if (!pattern.test(sw)) throw new Error(`dist/sw.js: ${url} fehlt in der Precache-Liste.`);
    const revision = await md5(file);
    sw = sw.replace(pattern, () => entry(url, revision));
  }
  if (!loaderPath) throw new Error('Kein Ladeskript geschrieben.');
  const shell = /\{"revision":"[0-9a-f]+","url":"index\.html"\}/;
  if (!shell.test(sw)) throw new Error('dist/sw.js: index.html fehlt in der Precache-Liste.');
  const loaderUrl = loaderPath.slice(1);
  const loaderEntry = entry(loaderUrl, await md5(path.join(dist, loaderUrl)));
  sw = sw.replace(shell, (match) => `${match},${loaderEntry}`);
  await writeFile(swFile, sw);
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
  await updatePrecache(pages.map(({ file }) => file));
  console.log(`Vorgerendert: ${pages.map((p) => p.address).join(', ')}`);
} finally {
  await vite.close();
}
