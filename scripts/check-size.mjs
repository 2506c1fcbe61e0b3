// Size and isolation budget for what a visitor downloads for /universa.
//
// Run after `vite build`. Starting from dist/index.html (entry scripts and modulepreload links),
// it follows the static imports of the built chunks, the same graph a browser fetches before
// the landing page can run, and fails when
//   - the gzip total (zlib level 9) of that graph exceeds the budget, or
//   - a Survey Desk chunk is part of it. vite.config.ts names every chunk that contains a module
//     of src/desk (or the desk layout) `desk-*.js`; at least one such chunk must exist, otherwise
//     the naming stopped working and this check would pass without proving anything.
// Dynamic `import()` is not followed: that code is only fetched when its route is visited.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 130 * 1024;
const DESK_CHUNK = /^desk-.*\.js$/;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const indexHtml = path.join(dist, 'index.html');

const failures = [];

if (!existsSync(indexHtml)) {
  console.error('dist/index.html fehlt: zuerst `npx vite build` ausführen.');
  process.exit(1);
}

const html = readFileSync(indexHtml, 'utf8');
const entryUrls = [
  ...htmlAttributes(html, 'script', 'src', (tag) => /\btype\s*=\s*["']?module/i.test(tag)),
  ...htmlAttributes(html, 'link', 'href', (tag) => /\brel\s*=\s*["']?modulepreload/i.test(tag)),
];
const stylesheetUrls = htmlAttributes(html, 'link', 'href', (tag) =>
  /\brel\s*=\s*["']?stylesheet/i.test(tag),
);

if (entryUrls.length === 0) failures.push('dist/index.html lädt kein Modul-Skript.');

/** Absolute file path -> { file, raw, gzip, importedBy } for every JS file in the static graph. */
const graph = new Map();
const queue = entryUrls.map((url) => ({ file: fromSiteUrl(url), importedBy: 'index.html' }));

while (queue.length > 0) {
  const { file, importedBy } = queue.shift();
  if (graph.has(file)) continue;
  if (!existsSync(file)) {
    failures.push(`${relative(file)} (geladen von ${importedBy}) existiert nicht.`);
    continue;
  }
  const source = readFileSync(file);
  graph.set(file, { file, ...sizes(source), importedBy });
  for (const specifier of staticImports(source.toString('utf8'))) {
    if (!/^(\.{1,2})?\//.test(specifier)) continue; // bare specifiers cannot occur in a build
    const target = specifier.startsWith('/')
      ? fromSiteUrl(specifier)
      : path.resolve(path.dirname(file), specifier.split(/[?#]/)[0]);
    queue.push({ file: target, importedBy: relative(file) });
  }
}

const jsFiles = [...graph.values()];
const cssFiles = stylesheetUrls
  .map(fromSiteUrl)
  .filter((file) => existsSync(file))
  .map((file) => ({ file, ...sizes(readFileSync(file)), importedBy: 'index.html' }));

const total = jsFiles.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), {
  raw: 0,
  gzip: 0,
});

printTable('JavaScript für /universa (statischer Modulgraph)', jsFiles, total);
if (cssFiles.length > 0) printTable('CSS (nicht im Budget)', cssFiles);

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

const allDeskChunks = listFiles(dist).filter((file) => DESK_CHUNK.test(path.basename(file)));
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

/** Values of `attribute` on every `<tag>` that `accept` lets through. */
function htmlAttributes(source, tag, attribute, accept) {
  const values = [];
  for (const [element] of source.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'gi'))) {
    if (!accept(element)) continue;
    const value = new RegExp(
      `\\b${attribute}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`,
      'i',
    ).exec(element);
    const url = value && (value[1] ?? value[2] ?? value[3]);
    if (url && !/^[a-z]+:\/\//i.test(url)) values.push(url);
  }
  return values;
}

/**
 * Specifiers of `import … from "x"`, `import "x"` and `export … from "x"` statements. A dynamic
 * `import("x")` has a parenthesis where these forms have a quote or a binding, so it never
 * matches. The statement must start the file or follow `;`, `}`, `)`, a line break or the end
 * of a banner comment, which is where a bundler puts them; text inside strings rarely looks
 * like that, and a false match only makes the check stricter.
 */
function staticImports(code) {
  const statement =
    /(?:^|[;})\n]|\*\/)\s*(?:import|export)\s*(?:(?:[\w$]+\s*,?\s*)?(?:\*\s*as\s*[\w$]+|\*|\{[^}]*\})?\s*from\s*)?["']([^"'\n]+)["']/g;
  return [...code.matchAll(statement)].map((match) => match[1]);
}

function sizes(buffer) {
  return { raw: buffer.length, gzip: gzipSync(buffer, { level: 9 }).length };
}

function fromSiteUrl(url) {
  const pathname = url.split(/[?#]/)[0].replace(/^\.?\//, '');
  return path.join(dist, pathname);
}

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
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
