// The loader of a prerendered public page (src/islands/load-after-paint.ts is its entry, the
// page's one script tag). The page needs no script to paint; as Vite links an entry, its code
// would be fetched together with the HTML and compete with it on a phone's slow link. Instead the
// loader adds the islands entry and its static imports once the page has painted; then, once the
// page has loaded, prefetches of the code of the page's islands that run at the visitor's first use:
// fetched at low priority into the HTTP cache (the assets are immutable), neither compiled nor
// run, so a form's code is on hand when the connection is gone before it was used (after the
// first visit the service worker's precache holds it too). A prefetch, unlike a modulepreload,
// is no script to the browser's bookkeeping: Lighthouse does not count it as the page's
// JavaScript. It is requested in the mode the module's own request uses (`crossorigin`), so that
// the latter finds it in the cache. The build writes the addresses into the page as data
// (scripts/vite-plugins/island-pages.ts), so this code stays the same for every page and build.

/** The addresses a page's loader needs, written by the build as JSON into the page. */
export interface IslandCode {
  /** The islands entry (src/islands.tsx). */
  entry: string;
  /** The modules the entry imports statically, preloaded with it. */
  preloads: string[];
  /** The code of the page's islands that start at first use: prefetched once the page has loaded. */
  onIdle: string[];
}

/** The id of the `<script type="application/json">` element that holds the page's `IslandCode`. */
export const islandCodeElementId = 'island-code';

/** The page's `IslandCode`, or undefined when the page has none. */
export function readIslandCode(document: Document): IslandCode | undefined {
  const text = document.getElementById(islandCodeElementId)?.textContent;
  return text ? (JSON.parse(text) as IslandCode) : undefined;
}

/** The window functions the loader uses (a test passes fakes). */
export type LoaderWindow = Pick<
  Window,
  'requestAnimationFrame' | 'setTimeout' | 'addEventListener'
>;

/**
 * Marks the button of an island's first tap before its code runs (src/islands/start-islands.ts
 * takes the mark and repeats the tap once the island runs). An island runs from the moment the
 * starter sets `islandRunningAttribute` on it; its own code hears every tap from then on.
 */
export const heldClickAttribute = 'data-held-click';
export const islandRunningAttribute = 'data-island-running';

/**
 * Keeps a visitor's first tap on a button of an island that does not run yet (a questionnaire's
 * answer on a slow phone): a button without a form does nothing without its code, and the tap
 * would be lost. Listening from the HTML's parse on, before any island code has arrived.
 */
export function holdFirstClicks(document: Document): void {
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      const button = target.closest('button[type="button"]');
      const island = button?.closest('[data-island]');
      if (!button || !island || island.hasAttribute(islandRunningAttribute)) return;
      if (island.querySelector(`[${heldClickAttribute}]`)) return;
      button.setAttribute(heldClickAttribute, '');
    },
    true,
  );
}

/** How long the loader waits for a painted frame (a page in a background tab paints none). */
export const paintWaitMs = 1000;

/** Loads the page's islands after the first paint and prefetches its first-use code after load. */
export function loadAfterPaint(document: Document, window: LoaderWindow): void {
  const code = readIslandCode(document);
  if (!code) return;
  holdFirstClicks(document);
  const added = new Set<string>();
  const link = (rel: 'modulepreload' | 'prefetch') => (href: string) => {
    if (added.has(href)) return;
    added.add(href);
    const element = document.createElement('link');
    element.rel = rel;
    element.crossOrigin = 'anonymous';
    element.href = href;
    document.head.append(element);
  };
  const preload = link('modulepreload');

  let loaded = false;
  const load = () => {
    if (loaded) return;
    loaded = true;
    code.preloads.forEach(preload);
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = 'anonymous';
    script.src = code.entry;
    document.head.append(script);
  };
  // After the next frame has been painted.
  window.requestAnimationFrame(() => window.setTimeout(load, 0));
  window.setTimeout(load, paintWaitMs);

  // Once the page has loaded, not later: a visitor who loses the connection soon after the page
  // showed still has the form's code. A prefetch is the browser's lowest priority, so nothing
  // the page needs waits for it.
  const prefetchIslands = () => code.onIdle.forEach(link('prefetch'));
  if (document.readyState === 'complete') prefetchIslands();
  else window.addEventListener('load', prefetchIslands, { once: true });
}
