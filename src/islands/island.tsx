import { createContext, useContext, type ComponentType, type ReactNode } from 'react';

/**
 * When an island's code runs on a prerendered page: right after the first paint (`load`: the
 * header's status, a questionnaire that still has to load its questions), or once the visitor
 * uses it (`interaction`: a form whose fields are in the HTML already; its code is fetched ahead
 * when the page is idle, see src/islands/load-after-paint.ts).
 */
export type IslandStart = 'load' | 'interaction';

/** One island as the registry (src/island-registry.ts) declares it. */
export interface IslandDefinition {
  start: IslandStart;
  /** The island's component: the same one the page renders inside the `<Island>`, no props. */
  code: () => Promise<ComponentType>;
}

/**
 * The islands src/island-registry.ts declares, one key per island name. The registry fills this
 * interface in (declaration merging), so `<Island name>` takes only registered names while this
 * module imports nothing above it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the registry
export interface RegisteredIslands {}

/** The name of a registered island. */
export type IslandName = keyof RegisteredIslands & string;

/** Checks the registry's shape while keeping its names as the keys' literal types. */
export function defineIslands<const T extends Record<string, IslandDefinition>>(islands: T): T {
  return islands;
}

/**
 * Told the name of every island a page renders (the prerender's renderer provides it): the
 * build fetches ahead only the code of the islands a page has.
 */
export const IslandsRendered = createContext<((name: IslandName) => void) | undefined>(undefined);

/**
 * Marks an interactive part of a public page. A prerendered page is never hydrated as a whole:
 * src/islands.tsx gives each marked element its own React root, with the same component the
 * page renders here as `children` (hydrated when the HTML has it, rendered when the slot is
 * empty); everything outside stays static HTML. In the app shell (index.html, main.tsx) the
 * mark is a wrapper without a box (`display: contents`) and the children render as usual.
 */
export function Island({ name, children }: { name: IslandName; children: ReactNode }) {
  useContext(IslandsRendered)?.(name);
  return (
    <div data-island={name} className="contents">
      {children}
    </div>
  );
}
