import type { ComponentType } from 'react';

// What the registry (src/island-registry.ts) declares and the islands' starter reads. Nothing
// here imports React at run time: the islands entry of a prerendered page loads this module, and
// React comes only with the first React island that starts (src/islands/mount-react.tsx).

/**
 * When an island's code runs on a prerendered page: right after the first paint (`load`: the
 * header's status, a questionnaire that still has to load its questions), or once the visitor
 * uses it (`interaction`: a form whose fields are in the HTML already; its code is fetched ahead
 * once the page has loaded, see src/islands/loader.ts).
 */
export type IslandStart = 'load' | 'interaction';

/** A React island: the component the page renders inside the `<Island>`, without props. */
export interface ReactIslandDefinition {
  start: IslandStart;
  kind?: 'react';
  code: () => Promise<ComponentType>;
}

/**
 * A plain DOM island: a function that takes over the element the build prerendered (the
 * header's status), for parts small enough that React's runtime would be most of their code.
 */
export interface DomIslandDefinition {
  start: IslandStart;
  kind: 'dom';
  code: () => Promise<(element: HTMLElement) => void>;
}

/** One island as the registry declares it. */
export type IslandDefinition = ReactIslandDefinition | DomIslandDefinition;

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
