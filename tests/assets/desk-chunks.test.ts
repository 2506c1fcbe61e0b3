import { describe, expect, it } from 'vitest';
import {
  deskEntry,
  deskOnlyFiles,
  findDeskLeaks,
  precacheList,
  type ChunkGraph,
} from '../../scripts/desk-chunks.mjs';

// A small build as Vite's manifest describes it: the app shell and the islands entry, a public
// page loaded on demand, the desk's entry with its layout and a screen, and chunks both share.
function build(): ChunkGraph {
  return {
    'index.html': {
      file: 'assets/index.js',
      src: 'index.html',
      isEntry: true,
      imports: ['_react.js'],
      dynamicImports: ['src/site/kfz/kfz-page.tsx', deskEntry],
    },
    'src/islands.tsx': {
      file: 'assets/islands.js',
      src: 'src/islands.tsx',
      isEntry: true,
      imports: ['_react.js'],
      dynamicImports: ['src/site/kfz/kfz-page.tsx'],
    },
    'src/site/kfz/kfz-page.tsx': {
      file: 'assets/kfz-page.js',
      src: 'src/site/kfz/kfz-page.tsx',
      isDynamicEntry: true,
      imports: ['_react.js', '_button.js'],
    },
    [deskEntry]: {
      file: 'assets/desk-entry.js',
      src: deskEntry,
      isDynamicEntry: true,
      dynamicImports: ['src/desk/layout/desk-layout.tsx', 'src/desk/customers/customers-page.tsx'],
    },
    'src/desk/layout/desk-layout.tsx': {
      file: 'assets/desk-layout.js',
      src: 'src/desk/layout/desk-layout.tsx',
      isDynamicEntry: true,
      imports: ['_react.js', '_menu.js', '_button.js'],
      css: ['assets/desk-layout.css'],
    },
    'src/desk/customers/customers-page.tsx': {
      file: 'assets/customers-page.js',
      src: 'src/desk/customers/customers-page.tsx',
      isDynamicEntry: true,
      imports: ['_react.js', '_session.js', '_button.js'],
      dynamicImports: ['src/desk/api/xlsx-stream.ts'],
      assets: ['assets/export-worker.js'],
    },
    'src/desk/api/xlsx-stream.ts': {
      file: 'assets/xlsx-stream.js',
      src: 'src/desk/api/xlsx-stream.ts',
      isDynamicEntry: true,
    },
    '_react.js': { file: 'assets/react.js' },
    '_button.js': { file: 'assets/button.js' },
    '_menu.js': { file: 'assets/menu.js' },
    '_session.js': { file: 'assets/session.js' },
  };
}

const publicFiles = ['assets/index.js', 'assets/islands.js', 'assets/kfz-page.js'];
const sharedFiles = ['assets/react.js', 'assets/button.js'];
const deskFiles = [
  'assets/desk-entry.js',
  'assets/desk-layout.js',
  'assets/desk-layout.css',
  'assets/menu.js',
  'assets/customers-page.js',
  'assets/session.js',
  'assets/export-worker.js',
  'assets/xlsx-stream.js',
];

const page = (...files: string[]) =>
  `<!doctype html><script type="module" src="/assets/islands.js"></script>${files
    .map((file) => `<link rel="modulepreload" href="/${file}">`)
    .join('')}`;

describe('files only Survey Desk loads, by the chunk graph', () => {
  it('are what the entries reach only through the desk entry, with their CSS and worker', () => {
    const { deskOnly, problems } = deskOnlyFiles(build());
    expect(problems).toEqual([]);
    expect([...deskOnly].sort()).toEqual([...deskFiles].sort());
  });

  it('leave a clean build alone: public and shared files precached, pages loading them', () => {
    const { problems } = findDeskLeaks({
      graph: build(),
      precached: ['index.html', ...publicFiles, ...sharedFiles],
      pages: [{ name: 'universa/index.html', html: page(...sharedFiles) }],
    });
    expect(problems).toEqual([]);
  });

  it('report a desk-only file in the precache list', () => {
    for (const file of deskFiles) {
      const { problems } = findDeskLeaks({
        graph: build(),
        precached: [...publicFiles, ...sharedFiles, file],
        pages: [],
      });
      expect(problems, file).toEqual([`${file} gehört nur Survey Desk und ist im Precache.`]);
    }
  });

  it('report a public page that loads a desk-only file', () => {
    const { problems } = findDeskLeaks({
      graph: build(),
      precached: [],
      pages: [
        { name: 'universa/index.html', html: page('assets/react.js', 'assets/menu.js') },
        { name: 'impressum/index.html', html: page() },
      ],
    });
    expect(problems).toEqual(['universa/index.html lädt assets/menu.js (nur Survey Desk).']);
  });

  it('allow a chunk the desk shares with a public page to be precached and loaded', () => {
    const graph = build();
    graph['src/site/kfz/kfz-page.tsx']!.imports!.push('_menu.js');
    const { deskOnly, problems } = findDeskLeaks({
      graph,
      precached: ['assets/menu.js'],
      pages: [{ name: 'universa/kfz/index.html', html: page('assets/menu.js') }],
    });
    expect(problems).toEqual([]);
    expect(deskOnly.has('assets/menu.js')).toBe(false);
  });

  it('report a public page that imports a module of src/desk past the entry', () => {
    const graph = build();
    graph['src/site/kfz/kfz-page.tsx']!.dynamicImports = ['src/desk/api/xlsx-stream.ts'];
    expect(deskOnlyFiles(graph).problems).toEqual([
      'src/desk/api/xlsx-stream.ts (Survey Desk) ist ohne src/desk/desk-entry.ts erreichbar: ' +
        'öffentlicher Code lädt assets/xlsx-stream.js.',
    ]);
  });

  it('report a module of src/desk inside a public chunk, when the graph lists modules', () => {
    const graph = build();
    graph['src/site/kfz/kfz-page.tsx']!.modules = [
      'src/site/kfz/kfz-page.tsx',
      'src/desk/api/session.ts',
    ];
    expect(deskOnlyFiles(graph).problems).toEqual([
      'src/desk/api/session.ts (Survey Desk) ist ohne src/desk/desk-entry.ts erreichbar: ' +
        'öffentlicher Code lädt assets/kfz-page.js.',
    ]);
  });

  it('report the desk entry loaded statically, as an entry, or missing', () => {
    const statically = build();
    statically['src/site/kfz/kfz-page.tsx']!.imports!.push(deskEntry);
    expect(deskOnlyFiles(statically).problems).toEqual([
      'assets/kfz-page.js lädt den Einstieg von Survey Desk (src/desk/desk-entry.ts) statisch.',
    ]);

    const asEntry = build();
    asEntry[deskEntry]!.isEntry = true;
    expect(deskOnlyFiles(asEntry).problems).toEqual([
      'src/desk/desk-entry.ts ist ein Einstieg des Builds; der Router lädt ihn nur mit import().',
    ]);

    const missing = build();
    delete missing[deskEntry];
    expect(deskOnlyFiles(missing).problems).toEqual([
      'Der Einstieg von Survey Desk (src/desk/desk-entry.ts) ist kein Chunk des Builds.',
    ]);
  });

  it('reads the precache list of a service worker', () => {
    const sw = 'e([{"revision":"1","url":"index.html"},{"revision":null,"url":"assets/a.js"}])';
    expect(precacheList(sw)).toEqual(['index.html', 'assets/a.js']);
  });
});
