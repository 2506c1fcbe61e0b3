// Size and isolation budget for what a visitor downloads for /universa.
//
// Run after `vite build`. Vite's build manifest (dist/.vite/manifest.json) names the chunk that
// index.html loads and every chunk's static imports; followed transitively they are what a
// browser fetches before the landing page can run (the modulepreload links of index.html list
// the same chunks). Every public page then loads a few modules itself once it has painted (the
// header's queue status, the device's background start, the update prompt): `startupModules`
// names them, and their static graphs count too. The check fails when
//   - the gzip total (zlib level 9) of that graph exceeds the budget, or
//   - a Survey Desk chunk is part of it. vite.config.ts names every chunk that contains a module
//     of src/desk (or the desk layout) `desk-*.js`; at least one such chunk must exist, otherwise
//     the naming stopped working and this check would pass without proving anything, or
//   - it contains Dexie, zod or react-hook-form (issue 14: a page without a form loads none of
//     them; strings of their own that minification keeps give them away). The consent tool is
//     loaded by src/ui/cookie-consent.ts, not from this graph; e2e/landing-chunks.spec.ts checks
//     all four in a browser.
// Other dynamic `import()`s are not followed: that code is only fetched when its route is
// visited or the visitor acts.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// Issue 14: 176.3 KB before (Dexie, zod and the outbox came with the header's status), 114.7 KB
// after; the budget is that figure plus 10 %.
const BUDGET_BYTES = 127 * 1024;
const DESK_CHUNK = /^desk-.*\.js$/;
/** Loaded by src/app/public-layout.tsx on every public page after the first paint. */
const startupModules = [
  'src/app/device-status.tsx',
  'src/app/pwa-notices.tsx',
  'src/app/start-app.ts',
];
const libraryMarkers = {
  Dexie: ['DatabaseClosedError', 'Dexie SchemaDiff'],
  zod: ['$ZodType', 'ZodError'],
  'react-hook-form': ['shouldUseNativeValidation', 'reValidateMode'],
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

/** Absolute file path -> { file, raw, gzip, importedBy } for every JS file in the static graph. */
const graph = new Map();
const cssFiles = new Map();
const queue = entry ? [{ key: entryKey, importedBy: 'index.html' }] : [];
for (const key of startupModules)
  queue.push({ key, importedBy: 'public-layout.tsx (nach dem ersten Zeichnen)' });

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
  for (const [library, markers] of Object.entries(libraryMarkers)) {
    if (markers.some((marker) => text.includes(marker))) {
      failures.push(
        `${library} im Code für /universa: ${relative(file)} (geladen von ${importedBy}).`,
      );
    }
  }
  for (const css of chunk.css ?? []) {
    const cssFile = path.join(dist, css);
    if (existsSync(cssFile)) {
      cssFiles.set(cssFile, { file: cssFile, ...sizes(readFileSync(cssFile)), importedBy });
    }
  }
  for (const imported of chunk.imports ?? []) {
    queue.push({ key: imported, importedBy: relative(file) });
  }
}

const jsFiles = [...graph.values()];
const total = jsFiles.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), {
  raw: 0,
  gzip: 0,
});

printTable(
  'JavaScript für /universa (Einstieg und Start-Module, statisch gefolgt)',
  jsFiles,
  total,
);
if (cssFiles.size > 0) printTable('CSS (nicht im Budget)', [...cssFiles.values()]);

if (total.gzip > BUDGET_BYTES) {
  failures.push(
    `JavaScript für /universa ist ${kb(total.gzip)} gzip groß, erlaubt sind ${kb(BUDGET_BYTES)}.`,
  );
}

const staticDeskChunks = jsFiles.filter((f) => DESK_CHUNK.test(path.basename(f.file)));
for (const chunk of staticDeskChunks) {
  failures.push(
    `Survey-Desk-Code im Einstieg: ${relative(chunk.file)} wird statisch von ${chunk.importedBy} geladen.`,
  );
}

const allDeskChunks = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter(
  (file) => DESK_CHUNK.test(path.basename(file)),
);
if (allDeskChunks.length === 0) {
  failures.push(
    'Keine desk-*.js-Chunks im Build gefunden: die Benennung in vite.config.ts greift nicht, ' +
      'die Trennung von Survey Desk ist damit nicht nachweisbar.',
  );
}

console.log(
  `\nSurvey-Desk-Chunks: ${allDeskChunks.length} im Build, ${staticDeskChunks.length} statisch erreichbar.`,
);
console.log(`Budget: ${kb(total.gzip)} von ${kb(BUDGET_BYTES)} gzip.`);

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
