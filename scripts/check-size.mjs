// Size and isolation budget for what a new visitor downloads for /universa, the legal pages and
// the form pages before interacting.
//
// Run after `vite build` (which prerenders the public pages). A prerendered page is not hydrated:
// its one script (src/islands/load-after-paint.ts) loads the islands entry (src/islands.tsx)
// after its first paint, and that entry at once loads the modules of the page's islands and of
// what no element shows (`startupModules`: the device's background start, the consent tool for
// a visitor who has not chosen yet and the service worker's registration). On these pages every
// island is plain DOM (`domIslands`: the header's status, the notices, the cookie button): React
// comes only when the visitor opens the status's panel.
// Vite's build manifest (dist/.vite/manifest.json) names every chunk's static imports; followed
// transitively from these they are what the page fetches before the visitor does anything.
// The check fails, for each page of `pages` and `formPages`, when
//   - the gzip total (zlib level 9) of that graph exceeds the budget (40 KB; 100 KB, Lighthouse's
//     count, on a form page), or
//   - the page has an island that is not plain DOM (but a form page's form), or a form page's
//     form code is not among the loader's prefetches, or
//   - a file that only Survey Desk loads is part of it or of the app shell's static graph
//     (index.html), or the chunk graph from the desk's entry is wrong: the entry loaded
//     statically, a module of src/desk reachable without it, no desk file at all
//     (scripts/desk-chunks.mjs, shared with check-pwa.mjs), or
//   - it contains React, Dexie, zod, react-hook-form or React Router (issue 37: no React before
//     the first interaction; issue 14: a page without a form loads none of Dexie, zod and
//     react-hook-form; issue 25: a prerendered page has no router). Strings of their own that
//     minification keeps give them away. e2e/landing-chunks.spec.ts and e2e/islands.spec.ts
//     check the same in a browser.
// Other dynamic `import()`s are not followed: that code is only fetched when the visitor uses a
// form, opens the status panel, or visits another page.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { deskOnlyFiles } from './desk-chunks.mjs';

// Issue 14: 176.3 KB before (Dexie, zod and the outbox came with the header's status), 114.7 KB
// after. Issue 25: 127.5 KB in 14 files while the whole page hydrated (main.tsx with the router);
// 93.7 KB with islands, the consent tool and the service worker's registration included, React's
// runtime (react, react-dom's client, scheduler) about 62 KB of it for the header's status alone.
// Issue 37: the status, the notices and the cookie button in plain DOM; the goal is 40 KB.
const BUDGET_BYTES = 40 * 1024;
const islandsEntry = 'src/islands.tsx';
/** The prerendered page's one script: it adds the islands entry after the first paint. */
const loaderEntry = 'src/islands/load-after-paint.ts';
/** Loaded by src/islands.tsx on every prerendered page for a new visitor, after the first paint. */
const startupModules = [
  'src/app/start-app.ts',
  /vanilla-cookieconsent\/dist\/cookieconsent\.esm\.js$/,
  /workbox-window\/build\/workbox-window\.prod\.es5\.mjs$/,
];
/** The plain DOM islands (src/island-registry.ts, `kind: 'dom'`) and their modules. */
const domIslands = {
  'device-status': 'src/app/device-status-dom.ts',
  'pwa-notices': 'src/app/pwa-notices-dom.ts',
  'cookie-settings': 'src/ui/cookie-settings-dom.ts',
};
/** The pages checked: no React before the first interaction, within the budget. */
const pages = ['universa', 'impressum', 'datenschutz', 'agb', 'cookies'];
/**
 * The form pages: the same start, no React before the first interaction either; the form's code
 * (React, react-hook-form, zod, Dexie) runs at the visitor's first use and is fetched before as a
 * low-priority prefetch (src/islands/loader.ts), which Lighthouse does not count as the page's
 * JavaScript. Their budget is Lighthouse's goal for a form page (issue 37).
 */
const formPages = {
  'universa/kfz': { island: 'kfz-form', module: 'src/site/kfz/kfz-page.tsx' },
  kontakt: { island: 'contact-form', module: 'src/site/contact/contact-page.tsx' },
};
const FORM_BUDGET_BYTES = 100 * 1024;
const libraryMarkers = {
  // The element symbol's name, in both `react` and `react-dom`.
  React: ['react.transitional.element'],
  Dexie: ['DatabaseClosedError', 'Dexie SchemaDiff'],
  zod: ['$ZodType', 'ZodError'],
  'react-hook-form': ['shouldUseNativeValidation', 'reValidateMode'],
  'React Router': [
    'useNavigate() may be used only',
    'You should call navigate() in a React.useEffect',
  ],
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const manifestFile = path.join(dist, '.vite', 'manifest.json');

const failures = [];

if (!existsSync(manifestFile)) {
  console.error('dist/.vite/manifest.json fehlt: zuerst `npm run build` ausführen.');
  process.exit(1);
}

/** @type {Record<string, { file: string, isEntry?: boolean, imports?: string[], css?: string[] }>} */
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const entryKey = 'index.html';
const entry = manifest[entryKey];
if (!entry?.isEntry) failures.push('Das Build-Manifest hat keinen Einstieg für index.html.');
else if (!readFileSync(path.join(dist, 'index.html'), 'utf8').includes(`/${entry.file}`)) {
  failures.push(
    `dist/index.html lädt ${entry.file} nicht: Manifest und Build passen nicht zusammen.`,
  );
}
const islands = manifest[islandsEntry];
const loader = manifest[loaderEntry];
if (!islands?.isEntry) failures.push(`Das Build-Manifest hat keinen Einstieg für ${islandsEntry}.`);
else if (!loader?.isEntry)
  failures.push(`Das Build-Manifest hat keinen Einstieg für ${loaderEntry}.`);
else {
  for (const name of [...pages, ...Object.keys(formPages)]) {
    // The page's one script is the loader; the data it reads names the islands entry.
    const page = readFileSync(path.join(dist, name, 'index.html'), 'utf8');
    if (!page.includes(`src="/${loader.file}"`)) {
      failures.push(`dist/${name}/index.html lädt das Ladeskript ${loader.file} nicht.`);
    }
    if (!page.includes(`"entry":"/${islands.file}"`)) {
      failures.push(`Das Ladeskript von /${name} lädt ${islands.file} nicht.`);
    }
  }
}

/** The island names in a page's HTML. */
function islandsOf(name) {
  const page = readFileSync(path.join(dist, name, 'index.html'), 'utf8');
  return [...new Set([...page.matchAll(/data-island="([^"]+)"/g)].map((match) => match[1]))];
}

/** The manifest key of a start module: its path, or the one key a pattern matches. */
function keyOf(module) {
  if (typeof module === 'string') return module;
  const keys = Object.keys(manifest).filter((key) => module.test(key));
  if (keys.length !== 1) failures.push(`${module} trifft ${keys.length} Einträge im Manifest.`);
  return keys[0] ?? String(module);
}

/**
 * Absolute file path -> { file, raw, gzip, importedBy } for every JS file in the static graph of
 * `roots`; `checkLibraries` also looks for the libraries a public page must not load.
 */
function staticGraph(roots, checkLibraries, pageName = 'universa') {
  const graph = new Map();
  const queue = [...roots];
  while (queue.length > 0) {
    const { key, importedBy } = queue.shift();
    const chunk = manifest[key];
    if (!chunk) {
      failures.push(`${key} (geladen von ${importedBy}) fehlt im Build-Manifest.`);
      continue;
    }
    const file = path.join(dist, chunk.file);
    if (graph.has(file)) continue;
    if (!existsSync(file)) {
      failures.push(`${relative(file)} (geladen von ${importedBy}) existiert nicht.`);
      continue;
    }
    const code = readFileSync(file);
    graph.set(file, { file, ...sizes(code), importedBy });
    const text = code.toString('utf8');
    for (const [library, markers] of Object.entries(checkLibraries ? libraryMarkers : {})) {
      if (markers.some((marker) => text.includes(marker))) {
        failures.push(
          `${library} im Code für /${pageName}: ${relative(file)} (geladen von ${importedBy}).`,
        );
      }
    }
    for (const imported of chunk.imports ?? []) {
      queue.push({ key: imported, importedBy: relative(file) });
    }
  }
  return graph;
}

/** The addresses the page's loader prefetches once the page has loaded (its `IslandCode`). */
function prefetchesOf(name) {
  const page = readFileSync(path.join(dist, name, 'index.html'), 'utf8');
  const data = /<script type="application\/json" id="island-code">(.*?)<\/script>/s.exec(page);
  if (!data) {
    failures.push(`dist/${name}/index.html hat keine Daten für das Ladeskript.`);
    return [];
  }
  return JSON.parse(data[1]).onIdle;
}

/**
 * What a new visitor's browser fetches for page `name` before interacting; `firstUse` is the
 * island whose code runs at the first use (a form), not counted.
 */
function pageGraph(name, firstUse) {
  const islandModules = islandsOf(name).flatMap((island) => {
    if (Object.hasOwn(domIslands, island)) return [domIslands[island]];
    if (island === firstUse) return [];
    failures.push(
      `/${name}: die Insel ${island} ist kein reines DOM (React vor der ersten Nutzung).`,
    );
    return [];
  });
  return staticGraph(
    [
      ...(loader ? [{ key: loaderEntry, importedBy: `dist/${name}/index.html` }] : []),
      ...(islands
        ? [{ key: islandsEntry, importedBy: 'Ladeskript (nach dem ersten Zeichnen)' }]
        : []),
      ...[...startupModules, ...islandModules].map((module) => ({
        key: keyOf(module),
        importedBy: islandsEntry,
      })),
    ],
    true,
    name,
  );
}

const shellGraph = staticGraph(entry ? [{ key: entryKey, importedBy: 'index.html' }] : [], false);

const pageFiles = [];
const totals = [];
for (const name of [...pages, ...Object.keys(formPages)]) {
  const form = formPages[name];
  const budget = form ? FORM_BUDGET_BYTES : BUDGET_BYTES;
  const jsFiles = [...pageGraph(name, form?.island).values()];
  pageFiles.push(...jsFiles);
  const total = jsFiles.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), {
    raw: 0,
    gzip: 0,
  });
  totals.push({ name, total, budget });
  printTable(
    `JavaScript für /${name}, neuer Besuch (Inseln, Start-Module, Cookie-Tool, statisch gefolgt)`,
    jsFiles,
    total,
  );
  if (total.gzip > budget) {
    failures.push(
      `JavaScript für /${name} ist ${kb(total.gzip)} gzip groß, erlaubt sind ${kb(budget)}.`,
    );
  }
  if (form) {
    // The form's own chunk is fetched ahead as a prefetch once the page has loaded: on hand when
    // the connection is gone before the visitor uses the form.
    const formFile = manifest[form.module]?.file;
    const prefetched = prefetchesOf(name);
    if (!formFile || !prefetched.includes(`/${formFile}`)) {
      failures.push(`/${name}: ${form.module} fehlt in den Prefetches des Ladeskripts.`);
    }
  }
}

const desk = deskOnlyFiles(manifest);
failures.push(...desk.problems);
const staticDeskChunks = [
  ...new Map([...pageFiles, ...shellGraph.values()].map((f) => [f.file, f])).values(),
].filter((f) => desk.deskOnly.has(path.relative(dist, f.file).split(path.sep).join('/')));
for (const chunk of staticDeskChunks) {
  failures.push(
    `Survey-Desk-Code im Einstieg: ${relative(chunk.file)} wird statisch von ${chunk.importedBy} geladen.`,
  );
}

console.log(
  `\nNur Survey Desk: ${desk.deskOnly.size} Dateien im Build, ${staticDeskChunks.length} statisch erreichbar.`,
);
for (const { name, total, budget } of totals) {
  console.log(`Budget /${name}: ${kb(total.gzip)} von ${kb(budget)} gzip.`);
}

if (failures.length > 0) {
  console.error('\nGrößenprüfung fehlgeschlagen:');
  for (const failure of failures) console.error(`  - ${failure}`);
  process.exit(1);
}
console.log('Größenprüfung bestanden.');

// --- helpers -----------------------------------------------------------------------------------

function sizes(buffer) {
  return { raw: buffer.length, gzip: gzipSync(buffer, { level: 9 }).length };
}

function relative(file) {
  return path.relative(root, file);
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function printTable(title, files, sum) {
  const nameWidth = Math.max(28, ...files.map((f) => relative(f.file).length));
  const row = (name, raw, gzip) =>
    `${name.padEnd(nameWidth)}  ${raw.padStart(10)}  ${gzip.padStart(10)}`;
  console.log(`\n${title}`);
  console.log(row('Datei', 'roh', 'gzip'));
  console.log('-'.repeat(nameWidth + 24));
  for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) {
    console.log(row(relative(f.file), kb(f.raw), kb(f.gzip)));
  }
  if (sum) {
    console.log('-'.repeat(nameWidth + 24));
    console.log(row('Summe', kb(sum.raw), kb(sum.gzip)));
  }
}
