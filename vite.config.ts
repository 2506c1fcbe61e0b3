import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { islandPages } from './scripts/vite-plugins/island-pages.ts';
import { serverPathRoots } from './src/domain/routes.ts';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`;

// The Node server owns these prefixes (hub API and the Supabase-compatible gateway), so the dev
// server and `vite preview` hand them over instead of answering with index.html.
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  serverPathRoots.map((prefix) => [prefix, { target: apiTarget }]),
);

// Survey Desk code must never reach a visitor of the public pages. Every chunk that contains a
// module of the desk (its screens or its layout) gets a `desk-` prefix, whatever rolldown decides
// to merge, so scripts/check-size.mjs can prove by file name that no such chunk is loaded
// statically for /universa.
const deskModule = /\/src\/desk\//;
// Libraries only Survey Desk uses: a chunk rolldown splits off for them alone must not be
// precached for visitors either (Headless UI's was, as `open-closed-*.js`).
const deskLibrary = /\/node_modules\/(@headlessui|@floating-ui|@react-aria|@tanstack|@supabase)\//;

interface ChunkInfo {
  moduleIds: readonly string[];
}

function containsDeskCode(chunk: ChunkInfo): boolean {
  return chunk.moduleIds.some((id) => {
    const path = id.replaceAll('\\', '/');
    return deskModule.test(path) || deskLibrary.test(path);
  });
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

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The prerendered public pages (before VitePWA, whose precache then lists them) and, in
    // `npm run dev`, the same pages per request.
    ...islandPages(),
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
        // The prerendered pages are precached: the worker answers a navigation to a public
        // page with its prerendered file (sw/sw.ts), whose islands run without the app shell.
        globIgnores: ['**/desk-*.js', 'screenshots/**', 'surveydesk.webmanifest', 'icons/desk-*'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: scripts/check-size.mjs reads the chunk graph from it. It is build
    // information, not part of the app: the precache globs skip dot folders, and the static site
    // does not serve dotfiles.
    manifest: true,
    rolldownOptions: {
      // index.html: the app shell (Survey Desk, questionnaires by address, offline fallback).
      // The prerendered pages' entries come from islandPages().
      input: { index: 'index.html' },
      output: {
        entryFileNames: (chunk) =>
          containsDeskCode(chunk) ? 'assets/desk-[name]-[hash].js' : 'assets/[name]-[hash].js',
        chunkFileNames: (chunk) =>
          containsDeskCode(chunk) ? 'assets/desk-[name]-[hash].js' : 'assets/[name]-[hash].js',
      },
    },
  },
  // The only worker the page starts is the desk's XLSX writer (src/desk/api/export-worker.ts).
  worker: {
    format: 'es',
    rolldownOptions: { output: { entryFileNames: 'assets/desk-[name]-[hash].js' } },
  },
  server: { proxy },
  preview: { proxy },
});
