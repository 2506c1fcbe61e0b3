import type { ComponentType } from 'react';
import type { deskPaths } from '../domain/routes.ts';

// The one module of Survey Desk that code outside src/desk loads, and only by `import()` from the
// router (src/app/router.tsx): eslint.config.js refuses every other import of src/desk from public
// code. The build follows the module graph from here: what is reachable only through this module
// is Survey Desk's code, kept out of the visitors' precache and pages (scripts/desk-chunks.mjs).
// The layout and each screen are chunks of their own, fetched side by side once this small module
// has arrived.

/** A Survey Desk screen, named like its address in `deskPaths`. */
export type DeskScreenName = keyof typeof deskPaths;

const screens: Record<DeskScreenName, () => Promise<ComponentType>> = {
  dashboard: async () => (await import('./dashboard/dashboard-page.tsx')).DashboardPage,
  signin: async () => (await import('./signin/signin-page.tsx')).SigninPage,
  signup: async () => (await import('./signup/signup-page.tsx')).SignupPage,
  settings: async () => (await import('./settings/settings-page.tsx')).SettingsPage,
  customers: async () => (await import('./customers/customers-page.tsx')).CustomersPage,
  customerAnswers: async () =>
    (await import('./customer-answers/customer-answers-page.tsx')).CustomerAnswersPage,
  questionnaires: async () =>
    (await import('./questionnaires/questionnaires-page.tsx')).QuestionnairesPage,
  questionnaire: async () =>
    (await import('./questionnaire-editor/questionnaire-editor-page.tsx')).QuestionnaireEditorPage,
  analysis: async () => (await import('./analysis/analysis-page.tsx')).AnalysisPage,
  support: async () => (await import('./support/support-page.tsx')).SupportPage,
  staff: async () => (await import('./staff/staff-page.tsx')).StaffPage,
  followUps: async () => (await import('./follow-ups/follow-ups-page.tsx')).FollowUpsPage,
  passwordForgotten: async () =>
    (await import('./password/password-forgotten-page.tsx')).PasswordForgottenPage,
  passwordNew: async () => (await import('./password/password-new-page.tsx')).PasswordNewPage,
};

/** The frame around every desk screen: navigation, session guard, the desk's providers. */
export async function loadDeskLayout(): Promise<ComponentType> {
  return (await import('./layout/desk-layout.tsx')).DeskLayout;
}

export function loadDeskScreen(name: DeskScreenName): Promise<ComponentType> {
  return screens[name]();
}

/** The desk's 404: any address below /surveydesk that names no screen. */
export async function loadDeskNotFound(): Promise<ComponentType> {
  return (await import('./not-found/desk-not-found-page.tsx')).DeskNotFoundPage;
}
