/// <reference lib="webworker" />
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import type { RouteHandlerCallback } from 'workbox-core';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { hubConnection } from '../src/api/hub-connection.ts';
import {
  formQuestionsPathPattern,
  gatewayPrefixes,
  isServerPath,
  sitePaths,
} from '../src/domain/routes.ts';
import { outboxSyncTag } from '../src/offline/background-sync.ts';
import { documentCacheName } from '../src/offline/document-cache.ts';
import { openOfflineDb } from '../src/offline/outbox-db.ts';
import { sendOutboxFromWorker } from '../src/offline/worker-sync.ts';

declare const self: ServiceWorkerGlobalScope;

// The public shell, every public screen's code, the legal pages and the public PDFs. Survey Desk
// chunks are left out at build time (vite.config.ts): visitors never download staff code.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A public page is answered with its prerendered file, online and offline: its text needs no
// code, and its islands (src/islands.tsx) run from the precache. With or without a trailing
// slash, whatever the query. Every site path is prerendered (src/config/page-meta.ts lists the
// same addresses for the build); the precache would not start if one were missing.
const prerenderedPages = new Map(
  Object.values(sitePaths).map((path): [string, RouteHandlerCallback] => [
    path,
    createHandlerBoundToURL(`${path}/index.html`),
  ]),
);
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' && prerenderedPages.has(url.pathname.replace(/(.)\/$/, '$1')),
  (options) => prerenderedPages.get(options.url.pathname.replace(/(.)\/$/, '$1'))!(options),
);

// Every other client route (Survey Desk, a questionnaire by its address, an unknown address) is
// the app shell; the server's paths never get HTML (a JSON client would choke on it), and
// neither does a file path such as an offer PDF that is not in the precache.
const filePath = /\/[^/]+\.[a-z0-9]+$/i;
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' && !isServerPath(url.pathname) && !filePath.test(url.pathname),
  createHandlerBoundToURL('/index.html'),
);

/** Only a 200 with JSON is a questionnaire; a captive portal's page must never be cached. */
const jsonOnly = {
  cacheWillUpdate: async ({ response }: { response: Response }) =>
    response.status === 200 &&
    (response.headers.get('content-type') ?? '').includes('application/json')
      ? response
      : null,
};

registerRoute(
  ({ url }) => formQuestionsPathPattern.test(url.pathname),
  new NetworkFirst({
    cacheName: 'fragebogen-definitionen',
    networkTimeoutSeconds: 4,
    plugins: [jsonOnly],
  }),
);

// Offer documents (storage) and form images: they must open at the fair. Cache first is safe:
// every upload gets an object name of its own (documentObjectName), so an address never changes
// content. The page also warms a form's document into this cache (keepDocumentOffline).
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    (url.pathname.endsWith('.pdf') ||
      url.pathname.startsWith(`${gatewayPrefixes.storage}/object/public/`)) &&
    request.destination !== 'image',
  new CacheFirst({
    cacheName: documentCacheName,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 50, maxAgeSeconds: 30 * 24 * 60 * 60 }),
    ],
  }),
);
registerRoute(
  ({ request }) => request.destination === 'image',
  new StaleWhileRevalidate({
    cacheName: 'bilder',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 100, maxAgeSeconds: 30 * 24 * 60 * 60 }),
    ],
  }),
);

// Background Sync (Chromium only): the browser wakes the worker when the connection is back,
// even with every tab closed. The same outbox code as in the page, under the same lock, asking
// the same sending rule before every request ('Offline simulieren' holds the worker too).
self.addEventListener('sync', (event) => {
  if (event.tag !== outboxSyncTag) return;
  event.waitUntil(sendOutbox());
});

async function sendOutbox(): Promise<void> {
  const db = openOfflineDb();
  try {
    // The api layer, with the worker's own fetch: the same requests and judgement as the page's.
    // A rejection asks the browser to fire the sync event again later.
    await sendOutboxFromWorker({ ...hubConnection(self.fetch.bind(self)), db });
  } finally {
    db.close();
  }
}

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
