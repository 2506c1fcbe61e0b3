import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { deskOnlyFiles, graphOfBundle } from './scripts/desk-chunks.mjs';
import { renderPageHtml } from './scripts/page-html.ts';
import { notFoundPage, publicPageAddresses } from './src/config/page-meta.ts';
import { serverPathRoots } from './src/domain/routes.ts';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`;

// The Node server owns these prefixes (hub API and the Supabase-compatible gateway), so the dev
// server and `vite preview` hand them over instead of answering with index.html.
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  serverPathRoots.map((prefix) => [prefix, { target: apiTarget }]),
);

/**
 * Survey Desk's code never reaches a visitor: the files the build's entries reach only through the
 * desk's entry (src/desk/desk-entry.ts), found in the bundle's chunk graph by
 * scripts/desk-chunks.mjs, stay out of the precache list. The build fails when a module of
 * src/desk lands in a chunk public code loads. Filled when the bundle is generated, read when
 * vite-plugin-pwa writes the precache list after the bundle is written.
 */
const deskOnly = new Set<string>();
const deskProblems: string[] = [];

function deskChunks(): Plugin {
  let root = process.cwd();
  return {
    name: 'universa:desk-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_, bundle) {
      const found = deskOnlyFiles(graphOfBundle(bundle, root));
      deskProblems.splice(0, Infinity, ...found.problems);
      deskOnly.clear();
      for (const file of found.deskOnly) deskOnly.add(file);
      if (deskProblems.length > 0) this.error(deskProblems.join('\n'));
    },
  };
}

// The lead-capture app visitors and the fair tablet install. Survey Desk is a second identity
// with its own manifest (public/surveydesk.webmanifest), linked by the desk layout.
export const publicManifest = {
  id: '/universa',
  name: 'Versicherungsagentur – Angebote und Beratung',
  short_name: 'Angebote',
  description:
    'Kostenlose Angebote und Beratung: Fragebögen zu Kinder-Vorsorge und privater Krankenversicherung, KFZ-Rückruf und Versicherungscheck. Funktioniert auch ohne Internetverbindung.',
  lang: 'de',
  dir: 'ltr' as const,
  start_url: '/universa',
  scope: '/',
  display: 'standalone' as const,
  orientation: 'any' as const,
  theme_color: '#1e3a5f',
  background_color: '#f8fafc',
  icons: [
    { src: '/icons/app-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/app-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    {
      src: '/icons/app-maskable-512.png',
      sizes: '512x512',
      type: 'image/png',
      purpose: 'maskable',
    },
  ],
  screenshots: [
    {
      src: '/screenshots/app-narrow.png',
      sizes: '390x844',
      type: 'image/png',
      form_factor: 'narrow' as const,
      label: 'Fragebogen auf dem Smartphone',
    },
    {
      src: '/screenshots/app-wide.png',
      sizes: '1280x800',
      type: 'image/png',
      form_factor: 'wide' as const,
      label: 'Startseite mit allen Angeboten',
    },
  ],
};

/**
 * One HTML file per public address (`tiptoptabaluga/index.html`, ...) with that page's title,
 * description and social tags, and `404.html` for every other address: any static host (and the
 * Node server) serves them, so link previews and crawlers that run no JavaScript see the page.
 * The app itself is the same in all of them.
 */
function pageHtmlFiles(): Plugin {
  return {
    name: 'universa:page-html',
    apply: 'build',
    enforce: 'post',
    generateBundle(_, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('index.html fehlt im Build.');
      const html = String(index.source);
      for (const { path, meta } of publicPageAddresses) {
        this.emitFile({
          type: 'asset',
          fileName: `${path.slice(1)}/index.html`,
          source: renderPageHtml(html, meta),
        });
      }
      this.emitFile({
        type: 'asset',
        fileName: '404.html',
        source: renderPageHtml(html, notFoundPage('/404'), { noindex: true }),
      });
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    pageHtmlFiles(),
    deskChunks(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // An update is offered, never forced: an automatic reload could lose what a visitor typed.
      registerType: 'prompt',
      injectRegister: false,
      manifest: publicManifest,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,pdf,webmanifest}'],
        // Staff code and the store screenshots are nothing a visitor's device should carry.
        // The per-address HTML files are precached: the worker answers a navigation to a public
        // page with its prerendered file (sw/sw.ts), whose islands run without the app shell.
        // scripts/prerender.ts writes their content after this list was made and corrects
        // their revisions in dist/sw.js.
        globIgnores: ['screenshots/**', 'surveydesk.webmanifest', 'icons/desk-*'],
        manifestTransforms: [
          (entries) => {
            // The service worker is built even when the bundle failed: it must not pass.
            if (deskProblems.length > 0) throw new Error(deskProblems.join('\n'));
            if (deskOnly.size === 0) throw new Error('Die Dateien von Survey Desk sind unbekannt.');
            return { manifest: entries.filter((entry) => !deskOnly.has(entry.url)), warnings: [] };
          },
        ],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: scripts/check-size.mjs and check-pwa.mjs read the chunk graph from it. It is build
    // information, not part of the app: the precache globs skip dot folders, and the static site
    // does not serve dotfiles.
    manifest: true,
    rolldownOptions: {
      // index.html: the app shell (Survey Desk, questionnaires by address, offline fallback).
      // src/islands.tsx: what a prerendered public page runs instead (scripts/prerender.ts).
      input: { index: 'index.html', islands: 'src/islands.tsx' },
    },
  },
  // The only worker the page starts is the desk's XLSX writer (src/desk/api/export-worker.ts).
  worker: { format: 'es' },
  server: { proxy },
  preview: { proxy },
});
