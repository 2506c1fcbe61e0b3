import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { routes } from './router.tsx';

/**
 * A public page rendered to HTML at build time (scripts/prerender.ts), so a phone paints the page
 * before any JavaScript has arrived; it is never hydrated as a whole, src/islands.tsx runs its
 * interactive parts (src/app/island.tsx) with the same components. No hydration data is embedded
 * (it would be an inline script).
 */
export async function renderPage(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) {
    throw new Error(`${path} leitet weiter (${context.status}) und wird nicht vorgerendert.`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
}
