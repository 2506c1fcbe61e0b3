import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { IslandsRendered, type IslandName } from '../islands/island.tsx';
import { routes } from './router.tsx';

/** A public page as HTML, and the islands it marks. */
export interface RenderedPage {
  html: string;
  islands: IslandName[];
}

/**
 * A public page rendered to HTML (at build time, and by `npm run dev` per request:
 * scripts/vite-plugins/island-pages.ts), so a phone paints the page before any JavaScript has
 * arrived; it is never hydrated as a whole, src/islands.tsx runs its interactive parts
 * (src/islands/island.tsx) with the same components. No hydration data is embedded (it would be
 * an inline script).
 */
export async function renderPage(path: string): Promise<RenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) {
    throw new Error(`${path} leitet weiter (${context.status}) und wird nicht vorgerendert.`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const islands = new Set<IslandName>();
  const html = renderToString(
    <StrictMode>
      <IslandsRendered value={(name) => islands.add(name)}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </IslandsRendered>
    </StrictMode>,
  );
  return { html, islands: [...islands] };
}
