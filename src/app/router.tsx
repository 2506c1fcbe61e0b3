import { createBrowserRouter, redirect, type RouteObject } from 'react-router-dom';
import {
  childPath,
  deskBase,
  deskPaths,
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
// else is fetched when its route matches. Survey Desk (layout and screens) must stay out of the
// entry entirely: scripts/check-size.mjs fails the build when a desk chunk is reachable from it.

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
  { path: '*', element: <NotFoundPage /> },
];

const deskChild = (path: string) => childPath(path, deskBase);

const loadDashboard = async () => ({
  Component: (await import('../desk/dashboard/dashboard-page.tsx')).DashboardPage,
});

const deskRoutes: RouteObject[] = [
  { index: true, lazy: loadDashboard },
  { path: deskChild(deskPaths.dashboard), lazy: loadDashboard },
  {
    path: deskChild(deskPaths.signin),
    lazy: async () => ({ Component: (await import('../desk/signin/signin-page.tsx')).SigninPage }),
  },
  {
    path: deskChild(deskPaths.settings),
    lazy: async () => ({
      Component: (await import('../desk/settings/settings-page.tsx')).SettingsPage,
    }),
  },
  {
    path: deskChild(deskPaths.customers),
    lazy: async () => ({
      Component: (await import('../desk/customers/customers-page.tsx')).CustomersPage,
    }),
  },
  {
    path: deskChild(deskPaths.customerAnswers),
    lazy: async () => ({
      Component: (await import('../desk/customer-answers/customer-answers-page.tsx'))
        .CustomerAnswersPage,
    }),
  },
  {
    path: deskChild(deskPaths.questionnaires),
    lazy: async () => ({
      Component: (await import('../desk/questionnaires/questionnaires-page.tsx'))
        .QuestionnairesPage,
    }),
  },
  {
    path: deskChild(deskPaths.questionnaire),
    lazy: async () => ({
      Component: (await import('../desk/questionnaire-editor/questionnaire-editor-page.tsx'))
        .QuestionnaireEditorPage,
    }),
  },
  {
    path: deskChild(deskPaths.support),
    lazy: async () => ({
      Component: (await import('../desk/support/support-page.tsx')).SupportPage,
    }),
  },
  {
    path: deskChild(deskPaths.analysis),
    lazy: async () => ({
      Component: (await import('../desk/analysis/analysis-page.tsx')).AnalysisPage,
    }),
  },
  {
    path: deskChild(deskPaths.staff),
    lazy: async () => ({ Component: (await import('../desk/staff/staff-page.tsx')).StaffPage }),
  },
  {
    path: deskChild(deskPaths.signup),
    lazy: async () => ({ Component: (await import('../desk/signup/signup-page.tsx')).SignupPage }),
  },
  {
    path: deskChild(deskPaths.passwordForgotten),
    lazy: async () => ({
      Component: (await import('../desk/password/password-forgotten-page.tsx'))
        .PasswordForgottenPage,
    }),
  },
  {
    path: deskChild(deskPaths.passwordNew),
    lazy: async () => ({
      Component: (await import('../desk/password/password-new-page.tsx')).PasswordNewPage,
    }),
  },
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
        lazy: async () => ({
          Component: (await import('../desk/layout/desk-layout.tsx')).DeskLayout,
        }),
        children: [{ errorElement: <RouteErrorPage />, children: deskRoutes }],
      },
    ],
  },
];

/** Kept out of module scope so that importing the route table never touches `window`. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
