import { StrictMode, useEffect, type ComponentType, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

// React's part of starting an island (src/islands/start-islands.ts imports it with the first
// React island's code): a page whose islands are all plain DOM never loads React.

/** Calls `onCommit` once the island's first render is in the document (effects run last). */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [onCommit]);
  return children;
}

/**
 * Gives `element` its own React root with `Component`: hydrated when the build prerendered it,
 * rendered when the slot is empty. `onCommit` runs once the first render is in the document.
 */
export function mountReact(element: HTMLElement, Component: ComponentType, onCommit: () => void) {
  const island = (
    <StrictMode>
      <Committed onCommit={onCommit}>
        <Component />
      </Committed>
    </StrictMode>
  );
  if (element.firstChild) hydrateRoot(element, island);
  else createRoot(element).render(island);
}
