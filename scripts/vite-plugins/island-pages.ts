// The prerendered public pages with their islands, in `vite build` and in `npm run dev`.
//
// Build: in `generateBundle`, before vite-plugin-pwa lists the precache (its `closeBundle`), each
// public page is rendered with the app's own renderer (src/app/render-page.tsx) and emitted as
// `<address>/index.html` and `404.html`: the page's metadata in the head, the app's stylesheet
// inlined, one script (src/islands/load-after-paint.ts) and the addresses it loads, read from the
// bundle. The service worker's precache lists the finished pages and the loader like any file.
// Dev: the same renderer and loader answer a public address per request (see `islandPagesDev`).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createServer,
  parseAst,
  type Plugin,
  type ResolvedConfig,
  type Rollup,
  type ViteDevServer,
} from 'vite';
import type { RenderedPage } from '../../src/app/render-page.tsx';
import { notFoundPage, publicPageAddresses, type PageMeta } from '../../src/config/page-meta.ts';
import { isAppShellAddress, isServerPath } from '../../src/domain/routes.ts';
import type { islandRegistry } from '../../src/island-registry.ts';
import type { IslandDefinition } from '../../src/islands/island-definition.ts';
import { islandCodeElementId, type IslandCode } from '../../src/islands/loader.ts';
import { prerenderedPageHtml } from '../page-html.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const source = (file: string) => path.join(root, file);

/** The modules this plugin knows by path; the registry lists everything else. */
const files = {
  registry: 'src/island-registry.ts',
  renderer: 'src/app/render-page.tsx',
  islandsEntry: 'src/islands.tsx',
  /** React's part of starting an island, imported with the first React island's code. */
  mountReact: 'src/islands/mount-react.tsx',
  loader: 'src/islands/load-after-paint.ts',
  shellEntry: 'src/main.tsx',
  stylesheet: 'src/index.css',
} as const;

type Registry = Record<string, IslandDefinition>;

/** Every prerendered page: the public addresses, and 404.html for every unknown address. */
const pages: { address: string; file: string; meta: PageMeta; noindex?: boolean }[] = [
  ...publicPageAddresses.map(({ path: address, meta }) => ({
    address,
    file: `${address.slice(1)}/index.html`,
    meta,
  })),
  { address: '/404', file: '404.html', meta: notFoundPage('/404'), noindex: true },
];

/** The renderer and the registry, loaded through a Vite server (SSR: the app's own modules). */
async function loadApp(server: ViteDevServer) {
  const { renderPage } = (await server.ssrLoadModule(`/${files.renderer}`)) as {
    renderPage: (address: string) => Promise<RenderedPage>;
  };
  const registered = (await server.ssrLoadModule(`/${files.registry}`)) as {
    islandRegistry: typeof islandRegistry;
  };
  // Read by name from a page's HTML: any string, each entry one of the two kinds.
  const registry: Registry = registered.islandRegistry;
  return { renderPage, registry };
}

/** The JSON the loader reads; `<` escaped so that no text can end the element. */
function islandCodeTag(code: IslandCode): string {
  const json = JSON.stringify(code).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${islandCodeElementId}">${json}</script>`;
}

interface Node {
  type: string;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/**
 * The module each island's code imports (`import('./site/kfz/kfz-page.tsx')`), by island name:
 * the properties of the object passed to `defineIslands` in the registry's source.
 */
function islandImports(code: string): Map<string, string> {
  const imports = new Map<string, string>();
  const visit = (node: unknown, island: string | undefined): void => {
    if (Array.isArray(node)) return node.forEach((child) => visit(child, island));
    if (!isNode(node)) return;
    const callee = node['callee'];
    const [argument] = (node['arguments'] as unknown[] | undefined) ?? [];
    if (
      node.type === 'CallExpression' &&
      isNode(callee) &&
      callee['name'] === 'defineIslands' &&
      isNode(argument) &&
      argument.type === 'ObjectExpression'
    ) {
      for (const property of argument['properties'] as Node[]) {
        const key = property['key'] as Node;
        visit(property['value'], String(key['name'] ?? key['value']));
      }
      return;
    }
    const specifier = node['source'];
    if (node.type === 'ImportExpression' && island !== undefined && isNode(specifier)) {
      if (imports.has(island)) throw new Error(`${files.registry}: ${island} lädt zwei Module.`);
      imports.set(island, String(specifier['value']));
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'type') visit(value, island);
  };
  visit(parseAst(code, { lang: 'ts' }), undefined);
  return imports;
}

/** A chunk's file and every chunk it imports statically, as addresses, the chunk's first. */
function staticFiles(bundle: Rollup.OutputBundle, chunk: Rollup.OutputChunk): string[] {
  const seen = new Set<string>();
  const queue = [chunk.fileName];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const next = bundle[file];
    if (next?.type === 'chunk') queue.push(...next.imports);
  }
  return [...seen].map((file) => `/${file}`);
}

function chunkOf(bundle: Rollup.OutputBundle, id: string): Rollup.OutputChunk {
  const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
  const chunk =
    chunks.find((item) => item.facadeModuleId === id) ??
    chunks.find((item) => item.moduleIds.includes(id));
  if (!chunk) throw new Error(`${path.relative(root, id)}: kein Chunk im Build.`);
  return chunk;
}

/** vite-plugin-pwa's `<link rel="manifest">`, which it adds to index.html only. */
function manifestLink(config: ResolvedConfig): string | undefined {
  const pwa = config.plugins.find((plugin) => plugin.name === 'vite-plugin-pwa') as
    { api?: { webManifestData(): { toLinkTag(): string } | undefined } } | undefined;
  return pwa?.api?.webManifestData()?.toLinkTag();
}

function islandPagesBuild(): Plugin {
  let config: ResolvedConfig;
  /** Island name -> the resolved module its code imports. */
  let islandModules: Map<string, string> | undefined;
  return {
    name: 'universa:island-pages',
    apply: 'build',
    enforce: 'post',
    config: () => ({
      build: {
        rolldownOptions: {
          // src/islands.tsx: what a prerendered public page runs instead of the app shell;
          // its loader: the page's one script tag.
          input: { islands: files.islandsEntry, 'load-after-paint': files.loader },
        },
      },
    }),
    configResolved(resolved) {
      config = resolved;
    },
    async transform(code, id) {
      if (id !== source(files.registry)) return;
      islandModules = new Map();
      for (const [name, specifier] of islandImports(code)) {
        const resolved = await this.resolve(specifier, id);
        if (!resolved) throw new Error(`${files.registry}: ${specifier} nicht gefunden.`);
        islandModules.set(name, resolved.id);
      }
    },
    async generateBundle(_, bundle) {
      if (!islandModules) throw new Error(`${files.registry} fehlt im Build.`);
      const [entry, ...preloads] = staticFiles(bundle, chunkOf(bundle, source(files.islandsEntry)));
      const loader = chunkOf(bundle, source(files.loader));
      if (loader.imports.length > 0 || loader.dynamicImports.length > 0) {
        throw new Error(`${files.loader} darf nichts importieren: ${loader.imports.join(', ')}`);
      }
      const shellCss = [
        ...(chunkOf(bundle, source(files.shellEntry)).viteMetadata?.importedCss ?? []),
      ];
      const stylesheet = bundle[shellCss[0] ?? ''];
      if (shellCss.length !== 1 || stylesheet?.type !== 'asset') {
        throw new Error(
          `${files.shellEntry}: erwartet genau ein Stylesheet, gefunden ${shellCss}.`,
        );
      }
      // Inlined, the page paints with the HTML: a linked stylesheet blocks the first paint for
      // another round trip, on a phone's network the longest wait before the page shows.
      const css = String(stylesheet.source).trim();
      if (css.includes('</'))
        throw new Error(`${stylesheet.fileName}: nicht in <style> einbettbar.`);
      const indexHtml = await readFile(source('index.html'), 'utf8');
      const pwaManifest = manifestLink(config);
      if (!pwaManifest) throw new Error('vite-plugin-pwa liefert keinen Manifest-Link.');

      const server = await createServer({
        root,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderPage, registry } = await loadApp(server);
        const names = Object.keys(registry).sort().join(', ');
        if (names !== [...islandModules.keys()].sort().join(', ')) {
          throw new Error(`${files.registry}: jede Insel braucht genau ein import() (${names}).`);
        }
        const mountReact = staticFiles(bundle, chunkOf(bundle, source(files.mountReact)));
        /**
         * The code a page's first-use islands need beyond what the islands entry loads: a React
         * island's own code and React's part of starting it.
         */
        const onIdle = (islands: string[]) => [
          ...new Set(
            islands
              .filter((name) => registry[name]?.start === 'interaction')
              .flatMap((name) => [
                ...staticFiles(bundle, chunkOf(bundle, islandModules!.get(name)!)),
                ...(registry[name]?.kind === 'dom' ? [] : mountReact),
              ])
              .filter((file) => file !== entry && !preloads.includes(file)),
          ),
        ];
        for (const page of pages) {
          const { html, islands } = await renderPage(page.address);
          const unknown = islands.filter((name) => !islandModules!.has(name));
          if (unknown.length > 0) {
            throw new Error(`${page.address}: ${unknown.join(', ')} fehlt in ${files.registry}.`);
          }
          const code: IslandCode = { entry: entry!, preloads, onIdle: onIdle(islands) };
          this.emitFile({
            type: 'asset',
            fileName: page.file,
            source: prerenderedPageHtml(indexHtml, {
              ...page,
              body: html,
              headTags: [
                `<script type="module" crossorigin src="/${loader.fileName}"></script>`,
                `<style>${css}</style>`,
                pwaManifest,
                // After the stylesheet: nothing the first paint needs waits for it.
                islandCodeTag(code),
              ],
            }),
          });
        }
        config.logger.info(`Vorgerendert: ${pages.map((page) => page.address).join(', ')}`);
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * `npm run dev`: a public address is answered like the build's file, rendered per request by the
 * same renderer with the same loader and islands entry, as Vite serves modules (`/src/...`). What
 * differs is printed at the start (`devDifferences`). The app shell's addresses keep Vite's
 * index.html; every other address gets the 404 page with status 404, as the Node server does.
 */
function islandPagesDev(): Plugin {
  return {
    name: 'universa:island-pages-dev',
    apply: 'serve',
    configureServer(server) {
      // Only a server of its own (not the build's renderer in middleware mode) says what differs.
      server.httpServer?.once('listening', () => {
        server.config.logger.info(devDifferences.map((line) => `  ${line}`).join('\n'));
      });
      // A page's static text is rendered on the server only: a change to it reloads the page
      // (an island's own module is the browser's too and updates in place).
      server.watcher.on('change', (file) => {
        const inPage = server.environments.ssr.moduleGraph.getModulesByFile(file)?.size;
        const inBrowser = server.environments.client.moduleGraph.getModulesByFile(file)?.size;
        if (inPage && !inBrowser) server.ws.send({ type: 'full-reload' });
      });
      // After Vite's own middlewares: its HTML fallback has turned every page address that is
      // no file into /index.html, keeping the address in `originalUrl`.
      return () => {
        server.middlewares.use((request, response, next) => {
          const address = (request.originalUrl ?? '/').split('?')[0]!.replace(/(.)\/$/, '$1');
          const isPageRequest = request.method === 'GET' || request.method === 'HEAD';
          if (
            !isPageRequest ||
            request.url !== '/index.html' ||
            address === '/index.html' ||
            isServerPath(address) ||
            isAppShellAddress(address)
          ) {
            return next();
          }
          const page = pages.find((candidate) => candidate.address === address) ?? pages.at(-1)!;
          devPage(server, page.address, page)
            .then((html) => {
              response.statusCode = page.file === '404.html' ? 404 : 200;
              response.setHeader('content-type', 'text/html; charset=utf-8');
              response.end(html);
            })
            .catch((error: unknown) => next(error));
        });
      };
    },
  };
}

/** What `npm run dev` serves differently from the build's page files. */
const devDifferences = [
  'Öffentliche Seiten: vorgerendert mit Inseln wie im Build (src/island-registry.ts). Anders als im Build:',
  `- das Stylesheet ist verlinkt (/${files.stylesheet}), nicht eingebettet;`,
  '- der Inselcode kommt als einzelne Module von Vite, nichts wird im Leerlauf vorgeladen;',
  '- Vites Client läuft mit: eine Insel lädt sich neu, eine Änderung am Seitentext lädt die Seite;',
  '- kein Service Worker und kein Web-App-Manifest (wie bei der App-Hülle im Dev-Modus).',
];

async function devPage(
  server: ViteDevServer,
  address: string,
  page: { meta: PageMeta; noindex?: boolean },
): Promise<string> {
  const { renderPage } = await loadApp(server);
  const { html } = await renderPage(address);
  const code: IslandCode = { entry: `/${files.islandsEntry}`, preloads: [], onIdle: [] };
  const indexHtml = await readFile(source('index.html'), 'utf8');
  const document = prerenderedPageHtml(indexHtml, {
    ...page,
    body: html,
    headTags: [
      `<script type="module" src="/${files.loader}"></script>`,
      `<link rel="stylesheet" href="/${files.stylesheet}">`,
      islandCodeTag(code),
    ],
  });
  // Vite's client and React's refresh runtime, as for index.html.
  return server.transformIndexHtml(address, document);
}

/** The prerendered public pages and their islands, for `vite build` and the dev server. */
export function islandPages(): Plugin[] {
  return [islandPagesBuild(), islandPagesDev()];
}
