// Which files of a build only Survey Desk loads, read from the chunk graph: Vite's build manifest
// (dist/.vite/manifest.json) for scripts/check-pwa.mjs and check-size.mjs, the bundle itself for
// vite.config.ts, which leaves these files out of the visitors' precache.
//
// The router loads the desk through one module, src/desk/desk-entry.ts, by `import()`
// (eslint.config.js allows no other way in). A chunk is the desk's when the build's entries reach
// it only through that entry's chunk; a chunk that public code reaches as well (React, src/ui, ...)
// is public. The files a desk chunk brings along (its CSS, the XLSX worker) are the desk's unless
// a public chunk brings them too. Which file is the desk's follows from the graph alone; the
// folder src/desk is checked against it: a module of src/desk in a chunk that public code reaches
// without the entry means public code imports the desk. The bundle names every module of a
// chunk; the manifest names only the module a chunk is loaded for (`src`), so the build
// (vite.config.ts) sees every such import and the scripts those of a desk screen or entry.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const deskEntry = 'src/desk/desk-entry.ts';
const deskFolder = 'src/desk/';

/**
 * @typedef {object} Chunk One chunk as Vite's build manifest describes it.
 * @property {string} file
 * @property {string} [src]
 * @property {boolean} [isEntry]
 * @property {boolean} [isDynamicEntry]
 * @property {string[]} [imports] keys of the chunks it imports statically
 * @property {string[]} [dynamicImports] keys of the chunks it loads by `import()`
 * @property {string[]} [css]
 * @property {string[]} [assets]
 * @property {string[]} [modules] every module in it; only a bundle says (the manifest names `src`)
 */

/** Keys of the chunks `roots` reach by static and dynamic imports, not entering `stop`. */
function reach(graph, roots, stop) {
  const seen = new Set();
  const queue = [...roots];
  while (queue.length > 0) {
    const key = queue.pop();
    if (key === stop || seen.has(key) || !graph[key]) continue;
    seen.add(key);
    queue.push(...(graph[key].imports ?? []), ...(graph[key].dynamicImports ?? []));
  }
  return seen;
}

function filesOf(graph, keys) {
  return new Set(
    [...keys].flatMap((key) => [
      graph[key].file,
      ...(graph[key].css ?? []),
      ...(graph[key].assets ?? []),
    ]),
  );
}

/**
 * The files only Survey Desk loads, and what is wrong with the graph: the desk entry missing,
 * loaded statically or as an entry of its own, a module of src/desk reachable without it, or no
 * desk file at all (then nothing is proved).
 * @param {Record<string, Chunk>} graph
 * @returns {{ deskOnly: Set<string>, problems: string[] }}
 */
export function deskOnlyFiles(graph, entry = deskEntry) {
  const problems = [];
  const deskKey = Object.keys(graph).find((key) => graph[key].src === entry);
  if (!deskKey) {
    return {
      deskOnly: new Set(),
      problems: [`Der Einstieg von Survey Desk (${entry}) ist kein Chunk des Builds.`],
    };
  }
  if (graph[deskKey].isEntry) {
    problems.push(`${entry} ist ein Einstieg des Builds; der Router lädt ihn nur mit import().`);
  }
  const entries = Object.keys(graph).filter((key) => graph[key].isEntry && key !== deskKey);
  const publicKeys = reach(graph, entries, deskKey);
  for (const key of publicKeys) {
    const chunk = graph[key];
    if (chunk.imports?.includes(deskKey)) {
      problems.push(`${chunk.file} lädt den Einstieg von Survey Desk (${entry}) statisch.`);
    }
    for (const module of chunk.modules ?? (chunk.src ? [chunk.src] : [])) {
      if (!module.startsWith(deskFolder)) continue;
      problems.push(
        `${module} (Survey Desk) ist ohne ${entry} erreichbar: öffentlicher Code lädt ${chunk.file}.`,
      );
    }
  }
  const publicFiles = filesOf(graph, publicKeys);
  const deskOnly = new Set(
    [...filesOf(graph, reach(graph, [deskKey]))].filter((file) => !publicFiles.has(file)),
  );
  if (deskOnly.size === 0) {
    problems.push(`Keine Datei des Builds gehört nur Survey Desk: ${entry} lädt nichts Eigenes.`);
  }
  return { deskOnly, problems };
}

/**
 * Survey Desk files a visitor would get: in the service worker's precache list or named by a
 * public page (every HTML file of the build: the app shell and the prerendered pages).
 * @param {{ graph: Record<string, Chunk>, precached: string[], pages: { name: string, html: string }[] }} build
 * @returns {{ deskOnly: Set<string>, problems: string[] }}
 */
export function findDeskLeaks({ graph, precached, pages }) {
  const { deskOnly, problems } = deskOnlyFiles(graph);
  for (const url of precached) {
    if (deskOnly.has(url)) problems.push(`${url} gehört nur Survey Desk und ist im Precache.`);
  }
  for (const { name, html } of pages) {
    for (const file of deskOnly) {
      if (html.includes(`/${file}`)) problems.push(`${name} lädt ${file} (nur Survey Desk).`);
    }
  }
  return { deskOnly, problems };
}

/** The URLs of dist/sw.js's precache list. */
export function precacheList(swSource) {
  return [...new Set([...swSource.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]))];
}

/** What findDeskLeaks reads from a build in `dist`. */
export function readBuild(dist) {
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} fehlt: zuerst bauen.`);
  const pages = readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.html') && !name.startsWith('.'))
    .map((name) => ({ name, html: readFileSync(path.join(dist, name), 'utf8') }));
  return {
    graph: JSON.parse(readFileSync(manifestFile, 'utf8')),
    precached: precacheList(readFileSync(path.join(dist, 'sw.js'), 'utf8')),
    pages,
  };
}

const relativeTo = (root, id) => path.relative(root, id).split(path.sep).join('/');

/**
 * The same graph from a Rolldown bundle (`generateBundle`), keyed by file name; `src` is the
 * chunk's facade module relative to `root`, as in the build manifest.
 * @param {Record<string, any>} bundle
 * @param {string} root
 * @returns {Record<string, Chunk>}
 */
export function graphOfBundle(bundle, root) {
  const graph = {};
  for (const chunk of Object.values(bundle)) {
    if (chunk.type !== 'chunk') continue;
    graph[chunk.fileName] = {
      file: chunk.fileName,
      src: chunk.facadeModuleId ? relativeTo(root, chunk.facadeModuleId) : undefined,
      isEntry: chunk.isEntry,
      isDynamicEntry: chunk.isDynamicEntry,
      imports: chunk.imports,
      dynamicImports: chunk.dynamicImports,
      css: [...(chunk.viteMetadata?.importedCss ?? [])],
      assets: [...(chunk.viteMetadata?.importedAssets ?? [])],
      modules: chunk.moduleIds.map((id) => relativeTo(root, id)),
    };
  }
  return graph;
}
