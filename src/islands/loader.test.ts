// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  heldClickAttribute,
  holdFirstClicks,
  islandCodeElementId,
  islandRunningAttribute,
  loadAfterPaint,
  paintWaitMs,
  type IslandCode,
} from './loader.ts';

const code: IslandCode = {
  entry: '/assets/islands-1.js',
  preloads: ['/assets/react-1.js', '/assets/runtime-1.js'],
  onIdle: ['/assets/contact-page-1.js', '/assets/react-1.js', '/assets/zod-1.js'],
};

/** A window whose frames and load event the test hands out. */
function fakeWindow() {
  const frames: FrameRequestCallback[] = [];
  const events = new EventTarget();
  const win = {
    requestAnimationFrame: (callback: FrameRequestCallback) => frames.push(callback),
    setTimeout: (handler: () => void, ms?: number) => window.setTimeout(handler, ms),
    addEventListener: events.addEventListener.bind(events),
  } as unknown as Parameters<typeof loadAfterPaint>[1];
  return {
    win,
    paint: () => frames.splice(0).forEach((frame) => frame(0)),
    load: () => events.dispatchEvent(new Event('load')),
  };
}

const scripts = () =>
  [...document.head.querySelectorAll<HTMLScriptElement>('script[src]')].map((s) => s.src);
const links = (rel: string) =>
  [...document.head.querySelectorAll<HTMLLinkElement>(`link[rel="${rel}"]`)].map((link) => {
    expect(link.crossOrigin).toBe('anonymous');
    return new URL(link.href).pathname;
  });
const preloads = () => links('modulepreload');
const prefetches = () => links('prefetch');

beforeEach(() => {
  vi.useFakeTimers();
  document.head.innerHTML = `<script type="application/json" id="${islandCodeElementId}">${JSON.stringify(code)}</script>`;
  // jsdom has finished loading before the test runs; the loader waits for `load` otherwise.
  Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
});

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'readyState');
});

describe('the loader of a prerendered page', () => {
  it('adds the islands entry and its imports once the page has painted, once', () => {
    const { win, paint } = fakeWindow();
    loadAfterPaint(document, win);
    expect(scripts()).toEqual([]);

    paint();
    expect(scripts()).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(scripts()).toEqual([new URL(code.entry, location.href).href]);
    expect(document.head.querySelector('script[src]')).toHaveProperty('type', 'module');
    expect(preloads()).toEqual(code.preloads);

    // The fallback for a page that paints no frame finds the entry there already.
    vi.advanceTimersByTime(paintWaitMs);
    expect(scripts()).toHaveLength(1);
    expect(preloads()).toEqual(code.preloads);
  });

  it('adds the entry after a second in a tab that paints no frame', () => {
    const { win } = fakeWindow();
    loadAfterPaint(document, win);
    vi.advanceTimersByTime(paintWaitMs - 1);
    expect(scripts()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(scripts()).toHaveLength(1);
  });

  it('prefetches the code of first-use islands once the page has loaded, each file once', () => {
    const { win, paint, load } = fakeWindow();
    loadAfterPaint(document, win);
    paint();
    vi.advanceTimersByTime(0);
    expect(prefetches()).toEqual([]);

    load();
    // Low priority and not run: prefetched, not modulepreloaded (what the entry needs is).
    expect(preloads()).toEqual(code.preloads);
    expect(prefetches()).toEqual(['/assets/contact-page-1.js', '/assets/zod-1.js']);
    load();
    expect(prefetches()).toHaveLength(2);
  });

  it('does nothing on a page without island code', () => {
    document.head.innerHTML = '';
    const { win, paint } = fakeWindow();
    loadAfterPaint(document, win);
    paint();
    vi.advanceTimersByTime(paintWaitMs);
    expect(scripts()).toEqual([]);
  });

  it('marks the first tap on a button of each island that does not run yet', () => {
    document.body.innerHTML =
      '<div data-island="a"><button type="button">Eins</button><button type="button">Zwei</button>' +
      '<button type="submit">Senden</button></div>' +
      `<div data-island="b" ${islandRunningAttribute}=""><button type="button">Drei</button></div>` +
      '<button type="button">Außerhalb</button>';
    holdFirstClicks(document);
    const button = (text: string) =>
      [...document.querySelectorAll('button')].find((b) => b.textContent === text)!;
    const held = () =>
      [...document.querySelectorAll(`[${heldClickAttribute}]`)].map((b) => b.textContent);

    // A submit button's tap is the form's (held as a submit by the starter), not a held tap.
    button('Senden').click();
    button('Außerhalb').click();
    button('Drei').click();
    expect(held()).toEqual([]);
    button('Zwei').click();
    button('Eins').click();
    expect(held()).toEqual(['Zwei']);
    document.body.innerHTML = '';
  });
});
