import type { ReactNode } from 'react';

/** The interactive parts of a prerendered public page; src/islands.tsx knows each one's code. */
export type IslandName =
  | 'device-status'
  | 'pwa-notices'
  | 'cookie-settings'
  | 'tabaluga'
  | 'pkv'
  | 'kfz-form'
  | 'contact-form'
  | 'not-found-meta';

/**
 * When an island's code runs on a prerendered page: right after the first paint (`load`: the
 * header's status, a questionnaire that still has to load its questions), or once the visitor
 * uses it (`interaction`: a form whose fields are in the HTML already; its code is fetched
 * ahead when the page is idle, see scripts/prerender.ts).
 */
export type IslandStart = 'load' | 'interaction';

/**
 * Marks an interactive part of a public page. A prerendered page is never hydrated as a whole:
 * src/islands.tsx gives each marked element its own React root, with the same component the
 * page renders here as `children` (hydrated when the HTML has it, rendered when the slot is
 * empty); everything outside stays static HTML. In the app shell (index.html, main.tsx) the
 * mark is a wrapper without a box (`display: contents`) and the children render as usual.
 */
export function Island({
  name,
  start,
  children,
}: {
  name: IslandName;
  start: IslandStart;
  children: ReactNode;
}) {
  return (
    <div data-island={name} data-island-start={start} className="contents">
      {children}
    </div>
  );
}
