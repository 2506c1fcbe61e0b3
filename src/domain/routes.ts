// Every address of the product in one place. The router, the page metadata, the server's static
// site, the Vite dev proxy and the service worker's navigation rules all read this module, so an
// address is added or renamed once. Pure TypeScript: the server and the worker import it too.

import { PKV_FORM_ID, TABALUGA_FORM_ID } from './form-ids.ts';

/** Public screens (src/site), by the spec's addresses. */
export const sitePaths = {
  landing: '/universa',
  tabaluga: '/tiptoptabaluga',
  pkv: '/pkv',
  kfz: '/universa/kfz',
  contact: '/kontakt',
  /** The landing page's tile links here; same page, canonical `/kontakt`. */
  contactAlias: '/universa/kontakt',
  imprint: '/impressum',
  privacy: '/datenschutz',
  terms: '/agb',
  cookies: '/cookies',
} as const;

/**
 * A form id as an address carries it (`/fragebogen/7`): a positive whole number, no sign or zeros.
 * Defined here rather than in questionnaire.ts so that reading an address never loads zod: the
 * router and the page metadata sit in the landing page's entry chunk.
 */
export const isFormIdText = (id: string): boolean => /^[1-9]\d{0,8}$/.test(id);

/** A questionnaire made in Survey Desk (DESIGN 9): `/fragebogen/{id}`. */
export const questionnairePathPattern = '/fragebogen/:id';
export const questionnairePath = (id: number | string): string =>
  `/fragebogen/${encodeURIComponent(String(id))}`;

/**
 * Where visitors answer a form: Tabaluga and PKV at their own pages (with flyer, sample offer and
 * information), every other questionnaire at `/fragebogen/{id}`.
 */
export function publicFormPath(id: number): string {
  if (id === TABALUGA_FORM_ID) return sitePaths.tabaluga;
  if (id === PKV_FORM_ID) return sitePaths.pkv;
  return questionnairePath(id);
}

/**
 * The device page: fair mode, the PIN, this device's outbox and the tester's 'Offline simulieren'.
 * An app-shell route (no prerendered page), linked from no public page and kept out of search
 * engines: the agent and testers open it by its address.
 */
export const devicePagePath = '/geraet';

/** The spec links to `/login`, which never was a screen: it redirects to the desk's sign-in. */
export const loginPath = '/login';

export const deskBase = '/surveydesk';

/** Survey Desk screens (src/desk). */
export const deskPaths = {
  dashboard: `${deskBase}/dashboard`,
  signin: `${deskBase}/signin`,
  signup: `${deskBase}/universa/signup`,
  settings: `${deskBase}/settings`,
  customers: `${deskBase}/customer`,
  /** A customer's responses with every answer, read only ('Antworten'). */
  customerAnswers: `${deskBase}/customer/:id/antworten`,
  questionnaires: `${deskBase}/question`,
  questionnaire: `${deskBase}/question/:id`,
  analysis: `${deskBase}/analyse`,
  support: `${deskBase}/support`,
  staff: `${deskBase}/mitarbeiter`,
  /** The follow-up list, filtered by its query (`?wer=…&wann=…&seite=…`). */
  followUps: `${deskBase}/wiedervorlagen`,
  /** 'Passwort vergessen?': asks for the address the recovery link goes to. */
  passwordForgotten: `${deskBase}/passwort-vergessen`,
  /** Where the recovery link leads (`?token_hash=…&type=recovery`): a new password is set. */
  passwordNew: `${deskBase}/passwort-neu`,
} as const;

/**
 * Where the confirmation link of a sign-up mail (`/auth/v1/verify`) leads: the sign-in screen,
 * with a query it shows a notice for (account confirmed, or the link used or expired).
 */
export const signinNoticePaths = {
  confirmed: `${deskPaths.signin}?bestaetigt=1`,
  linkInvalid: `${deskPaths.signin}?bestaetigung=ungueltig`,
  /** After a new password was set through a recovery link. */
  passwordChanged: `${deskPaths.signin}?passwort=neu`,
} as const;

export const deskCustomerAnswersPath = (customerId: number): string =>
  `${deskBase}/customer/${customerId}/antworten`;

export const deskQuestionnairePath = (title: string): string =>
  `${deskBase}/question/${encodeURIComponent(title)}`;

/** A route's path below its parent for react-router's nested route table: '/surveydesk/x' -> 'x'. */
export function childPath(path: string, parent = ''): string {
  const relative = path.startsWith(`${parent}/`) ? path.slice(parent.length + 1) : path;
  return relative.replace(/^\//, '');
}

/** Server areas, each with its own error shape: the hub and the Supabase-compatible gateway. */
export const hubPrefix = '/api';
export const gatewayPrefixes = {
  auth: '/auth/v1',
  rest: '/rest/v1',
  storage: '/storage/v1',
} as const;

/** The bucket of offer PDFs and questionnaire images (supabase/migrations: anyone reads, staff write). */
export const documentsBucket = 'documents';

const umlauts: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
};

/**
 * A document's object name. Every upload gets a name of its own (`forms/7/<uuid>-Angebot.pdf`):
 * a replaced document never shares an address with the old one, so the service worker's
 * cache-first copy of a PDF can never stand in for its successor. Storage takes S3-safe
 * characters only (hosted Supabase refuses umlauts): the file name keeps letters, digits, `.`,
 * `-` and `_`.
 */
export function documentObjectName(formId: number, fileName: string, version: string): string {
  const safe = fileName
    .replace(/[äöüÄÖÜß]/g, (letter) => umlauts[letter]!)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    // Storage's keys end at 1024 characters; the end of a long name keeps its extension.
    .slice(-200);
  return `forms/${formId}/${version}-${safe || 'dokument'}`;
}

/** Where anyone downloads an object of a public bucket, without signing in. */
export const publicObjectPath = (bucket: string, name: string): string =>
  `${gatewayPrefixes.storage}/object/public/${bucket}/${name}`;

/**
 * The browser's run-time configuration (Supabase's URL and anon key), answered by the server:
 * the build runs before the secret the key derives from exists. Never precached.
 */
export const appConfigPath = '/app-config.json';

/**
 * First path segments that belong to a server API: never answered with the app's HTML (a client
 * expecting JSON would get a page it cannot parse), proxied by the dev server, and passed by the
 * service worker's navigation fallback.
 */
export const serverPathRoots = ['/api', '/auth', '/rest', '/storage', appConfigPath] as const;

export function isServerPath(pathname: string): boolean {
  return serverPathRoots.some((root) => pathname === root || pathname.startsWith(`${root}/`));
}

/** Where the hub serves a questionnaire's questions; the worker caches these (network first). */
export const formQuestionsPath = (formId: number): string =>
  `${hubPrefix}/forms/${formId}/questions`;
export const formQuestionsPathPattern = /^\/api\/forms\/\d+\/questions$/;

/**
 * Client routes whose page only the app can render (no prerendered HTML file): the server and a
 * static host answer them with the app shell rather than the 404 page.
 */
export function isAppShellAddress(pathname: string): boolean {
  const address = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (address === '/' || address === loginPath || address === devicePagePath) return true;
  if (address === deskBase || address.startsWith(`${deskBase}/`)) return true;
  const questionnaire = /^\/fragebogen\/([^/]+)$/.exec(address);
  return questionnaire !== null && isFormIdText(questionnaire[1]!);
}

/** The query the desk's sign-in reads: where to go back to, and why the user was sent there. */
export const signinQuery = { returnTo: 'weiter', reason: 'grund' } as const;
export const sessionExpiredReason = 'sitzung-abgelaufen';

/** The sign-in with the way back to `location`, and a notice when the session ran out. */
export function signinPathFor(
  location: { pathname: string; search: string },
  expired: boolean,
): string {
  const query = new URLSearchParams({
    [signinQuery.returnTo]: location.pathname + location.search,
  });
  if (expired) query.set(signinQuery.reason, sessionExpiredReason);
  return `${deskPaths.signin}?${query.toString()}`;
}
