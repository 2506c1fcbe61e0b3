import { createContext, useContext, type ReactNode } from 'react';
import type { IslandName } from './island-definition.ts';

export type { IslandName } from './island-definition.ts';

/**
 * Told the name of every island a page renders (the prerender's renderer provides it): the
 * build fetches ahead only the code of the islands a page has.
 */
export const IslandsRendered = createContext<((name: IslandName) => void) | undefined>(undefined);

/**
 * Marks an interactive part of a public page. A prerendered page is never hydrated as a whole:
 * src/islands.tsx starts each marked element on its own (src/islands/start-islands.ts): a React
 * island gets its own root with the same component the page renders here as `children`
 * (hydrated when the HTML has it, rendered when the slot is empty), a DOM island takes over the
 * HTML the build wrote; everything outside stays static HTML. In the app shell (index.html,
 * main.tsx) the mark is a wrapper without a box (`display: contents`) and the children render as
 * usual.
 */
export function Island({ name, children }: { name: IslandName; children: ReactNode }) {
  useContext(IslandsRendered)?.(name);
  return (
    <div data-island={name} className="contents">
      {children}
    </div>
  );
}
