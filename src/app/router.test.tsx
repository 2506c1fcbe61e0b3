import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  StaticRouterProvider,
} from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import {
  childPath,
  deskBase,
  deskPaths,
  devicePagePath,
  isAppShellAddress,
  questionnairePath,
  sitePaths,
} from '../domain/routes.ts';
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

  it('keeps a mistyped desk address inside the desk, apart from the public 404', () => {
    const desk = matchRoutes(routes, '/surveydesk/tippfehler')?.map((match) => match.route.path);
    expect(desk?.at(-1)).toBe('*');
    expect(desk).toContain(childPath(deskBase));
    const site = matchRoutes(routes, '/gibt-es-nicht')?.map((match) => match.route.path);
    expect(site?.at(-1)).toBe('*');
    expect(site).not.toContain(childPath(deskBase));
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

  it('renders the device page, an app-shell address (not prerendered)', async () => {
    // Not prerendered: the server and the service worker answer it with the app shell.
    expect(isAppShellAddress('/geraet')).toBe(true);
    expect(isAppShellAddress('/geraet/')).toBe(true);
    expect(isAppShellAddress('/geraet/x')).toBe(false);
    const html = await renderPath('/geraet');
    expect(html).toContain('Dieses Gerät');
    expect(html).not.toContain('Seite nicht gefunden');
  });

  it('has a screen for every address of the routes module', () => {
    const addresses = [
      ...Object.values(sitePaths),
      questionnairePath(1),
      devicePagePath,
      ...Object.values(deskPaths).map((path) => path.replace(':id', 'Tabaluga')),
    ];
    for (const address of addresses) {
      const screen = matchRoutes(routes, address)?.at(-1)?.route;
      expect(screen?.path, address).toBeDefined();
      expect(screen?.path, address).not.toBe('*');
    }
  });
});
