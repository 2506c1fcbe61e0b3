import { createBrowserRouter, redirect, type RouteObject } from 'react-router-dom';
import {
  childPath,
  deskBase,
  deskPaths,
  devicePagePath,
  loginPath,
  questionnairePathPattern,
  sitePaths,
} from '../domain/routes.ts';
import { LandingPage } from '../site/landing/landing-page.tsx';
import { NotFoundPage } from '../site/not-found/not-found-page.tsx';
import { PageLoading } from '../ui/page-loading.tsx';
import { PublicLayout } from './public-layout.tsx';
import { RouteErrorPage } from './route-error-page.tsx';

// Only the landing page, the 404 page and the public shell are in the entry chunk; everything
// else is fetched when its route matches. Survey Desk (layout and screens) stays out of the entry
// entirely: scripts/check-size.mjs and check-pwa.mjs fail the build when a file reachable only
// through the desk's entry is loaded by a public page or precached for visitors.

const publicRoutes: RouteObject[] = [
  { path: childPath(sitePaths.landing), element: <LandingPage /> },
  {
    path: childPath(sitePaths.tabaluga),
    lazy: async () => ({
      Component: (await import('../site/questionnaire/tabaluga-page.tsx')).TabalugaPage,
    }),
  },
  {
    path: childPath(sitePaths.pkv),
    lazy: async () => ({ Component: (await import('../site/questionnaire/pkv-page.tsx')).PkvPage }),
  },
  {
    path: childPath(sitePaths.kfz),
    lazy: async () => ({ Component: (await import('../site/kfz/kfz-page.tsx')).KfzPage }),
  },
  ...[sitePaths.contact, sitePaths.contactAlias].map((path): RouteObject => ({
    path: childPath(path),
    lazy: async () => ({
      Component: (await import('../site/contact/contact-page.tsx')).ContactPage,
    }),
  })),
  {
    path: childPath(sitePaths.imprint),
    lazy: async () => ({
      Component: (await import('../site/imprint/imprint-page.tsx')).ImprintPage,
    }),
  },
  {
    path: childPath(sitePaths.privacy),
    lazy: async () => ({
      Component: (await import('../site/privacy/privacy-page.tsx')).PrivacyPage,
    }),
  },
  {
    path: childPath(sitePaths.terms),
    lazy: async () => ({ Component: (await import('../site/terms/terms-page.tsx')).TermsPage }),
  },
  {
    path: childPath(sitePaths.cookies),
    lazy: async () => ({
      Component: (await import('../site/cookies/cookies-page.tsx')).CookiesPage,
    }),
  },
  {
    path: childPath(questionnairePathPattern),
    lazy: async () => ({
      Component: (await import('../site/questionnaire/questionnaire-page.tsx')).QuestionnairePage,
    }),
  },
  // The device page: opened on purpose by its address (agent, tester), linked from no public page.
  {
    path: childPath(devicePagePath),
    lazy: async () => ({
      Component: (await import('../site/device/device-page.tsx')).DevicePage,
    }),
  },
  { path: '*', element: <NotFoundPage /> },
];

const deskChild = (path: string) => childPath(path, deskBase);

// Survey Desk is reached through its entry module alone, and only by this `import()`: the layout
// and the screens are the entry's to load (eslint.config.js refuses any other import of src/desk).
const loadDesk = () => import('../desk/desk-entry.ts');

const deskScreen =
  (name: keyof typeof deskPaths): RouteObject['lazy'] =>
  async () => ({ Component: await (await loadDesk()).loadDeskScreen(name) });

const deskRoutes: RouteObject[] = [
  { index: true, lazy: deskScreen('dashboard') },
  ...(Object.keys(deskPaths) as (keyof typeof deskPaths)[]).map((name): RouteObject => ({
    path: deskChild(deskPaths[name]),
    lazy: deskScreen(name),
  })),
  // A mistyped desk address stays in the desk's frame (no public header or cookie banner).
  { path: '*', lazy: async () => ({ Component: await (await loadDesk()).loadDeskNotFound() }) },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteErrorPage />,
    HydrateFallback: PageLoading,
    children: [
      // Redirect routes render nothing; `element: null` says so and keeps the router from warning.
      { index: true, loader: () => redirect(sitePaths.landing), element: null },
      // The spec links to /login, which never existed as a screen; keep such links working.
      {
        path: childPath(loginPath),
        loader: ({ request }) => redirect(`${deskPaths.signin}${new URL(request.url).search}`),
        element: null,
      },
      {
        element: <PublicLayout />,
        // A pathless child with its own error element keeps the header and footer around errors.
        children: [{ errorElement: <RouteErrorPage />, children: publicRoutes }],
      },
      {
        path: childPath(deskBase),
        lazy: async () => ({ Component: await (await loadDesk()).loadDeskLayout() }),
        children: [{ errorElement: <RouteErrorPage />, children: deskRoutes }],
      },
    ],
  },
];

/** Kept out of module scope so that importing the route table never touches `window`. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
