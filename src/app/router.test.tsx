import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { routes } from './router.tsx';

// Runs in Node without a DOM: public pages must stay renderable at build time (DESIGN 4), so
// importing the route table or rendering a public page must not touch `window` or `document`.
async function renderPath(path: string) {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) return context;
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} />);
}

describe('route table', () => {
  it('renders the landing page without a browser', async () => {
    const html = await renderPath('/universa');
    expect(html).toContain('Willkommen bei Ihrer Versicherungsagentur');
    expect(html).toContain('Zum Inhalt springen');
  });

  it('renders the German 404 page for unknown paths', async () => {
    const html = await renderPath('/gibt-es-nicht');
    expect(html).toContain('Seite nicht gefunden');
  });

  it('redirects the bare address and /login', async () => {
    const home = await renderPath('/');
    const login = await renderPath('/login?weiter=1');
    expect(home).toBeInstanceOf(Response);
    expect(login).toBeInstanceOf(Response);
    expect((home as Response).headers.get('Location')).toBe('/universa');
    expect((login as Response).headers.get('Location')).toBe('/surveydesk/signin?weiter=1');
  });

  it('renders a lazily loaded public page', async () => {
    const html = await renderPath('/impressum');
    expect(html).toContain('Impressum');
  });
});
