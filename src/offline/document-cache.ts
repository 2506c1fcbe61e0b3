/** The service worker's cache of offer documents (cache first: an address never changes). */
export const documentCacheName = 'dokumente';

/**
 * Puts a form's document into the worker's document cache unless it is there, so the finish
 * screen's PDF opens at the fair without a connection even if nobody clicked it online. Best
 * effort: a browser without the Cache API, or a failed download, just leaves it uncached.
 */
export async function keepDocumentOffline(url: string): Promise<void> {
  if (!('caches' in globalThis)) return;
  const cache = await caches.open(documentCacheName);
  if (await cache.match(url)) return;
  const response = await fetch(url);
  if (response.status === 200) await cache.put(url, response);
}
