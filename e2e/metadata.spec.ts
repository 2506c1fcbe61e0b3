import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test';
import type { RouteObject } from 'react-router-dom';
import { routes as routeTable } from '../src/app/router.tsx';
import { siteConfig } from '../src/config/site.ts';

// Every screen of src/app/router.tsx, opened by its address in a fresh page, must set its own
// title, description, canonical URL and social tags (spec 1: "each page sets the document title,
// meta description, social metadata and favicon").

interface RouteCase {
  /** The address opened. */
  url: string;
  /** The route's `path` in src/app/router.tsx, to prove that the list below is complete. */
  routePath: string;
  /** The canonical path the page must announce. */
  canonical: string;
  /** Staff screens that need a signed-in user; the others are opened signed out. */
  signedIn?: boolean;
  /** Kept out of search engines (robots noindex): the 404 page and the device page. */
  noindex?: boolean;
}

const routes: readonly RouteCase[] = [
  { url: '/universa', routePath: 'universa', canonical: '/universa' },
  { url: '/tiptoptabaluga', routePath: 'tiptoptabaluga', canonical: '/tiptoptabaluga' },
  { url: '/pkv', routePath: 'pkv', canonical: '/pkv' },
  { url: '/universa/kfz', routePath: 'universa/kfz', canonical: '/universa/kfz' },
  // Two addresses, one page: both announce /kontakt as the canonical one.
  { url: '/kontakt', routePath: 'kontakt', canonical: '/kontakt' },
  { url: '/universa/kontakt', routePath: 'universa/kontakt', canonical: '/kontakt' },
  { url: '/impressum', routePath: 'impressum', canonical: '/impressum' },
  { url: '/datenschutz', routePath: 'datenschutz', canonical: '/datenschutz' },
  { url: '/agb', routePath: 'agb', canonical: '/agb' },
  { url: '/cookies', routePath: 'cookies', canonical: '/cookies' },
  { url: '/fragebogen/1', routePath: 'fragebogen/:id', canonical: '/fragebogen/1' },
  // The device page (fair mode, PIN, 'Offline simulieren'): opened on purpose, never indexed.
  { url: '/geraet', routePath: 'geraet', canonical: '/geraet', noindex: true },
  { url: '/gibt-es-nicht', routePath: '*', canonical: '/gibt-es-nicht', noindex: true },
  // The desk's index route shows the dashboard.
  {
    url: '/surveydesk',
    routePath: 'surveydesk',
    canonical: '/surveydesk/dashboard',
    signedIn: true,
  },
  {
    url: '/surveydesk/dashboard',
    routePath: 'dashboard',
    canonical: '/surveydesk/dashboard',
    signedIn: true,
  },
  { url: '/surveydesk/signin', routePath: 'signin', canonical: '/surveydesk/signin' },
  {
    url: '/surveydesk/settings',
    routePath: 'settings',
    canonical: '/surveydesk/settings',
    signedIn: true,
  },
  {
    url: '/surveydesk/customer',
    routePath: 'customer',
    canonical: '/surveydesk/customer',
    signedIn: true,
  },
  {
    url: '/surveydesk/customer/1/antworten',
    routePath: 'customer/:id/antworten',
    canonical: '/surveydesk/customer/1/antworten',
    signedIn: true,
  },
  {
    url: '/surveydesk/question',
    routePath: 'question',
    canonical: '/surveydesk/question',
    signedIn: true,
  },
  // The editor's id is the questionnaire's title (spec); 'Tabaluga' is in supabase/seed.sql.
  {
    url: '/surveydesk/question/Tabaluga',
    routePath: 'question/:id',
    canonical: '/surveydesk/question/Tabaluga',
    signedIn: true,
  },
  {
    url: '/surveydesk/support',
    routePath: 'support',
    canonical: '/surveydesk/support',
    signedIn: true,
  },
  {
    url: '/surveydesk/analyse',
    routePath: 'analyse',
    canonical: '/surveydesk/analyse',
    signedIn: true,
  },
  {
    url: '/surveydesk/mitarbeiter',
    routePath: 'mitarbeiter',
    canonical: '/surveydesk/mitarbeiter',
    signedIn: true,
  },
  {
    url: '/surveydesk/wiedervorlagen',
    routePath: 'wiedervorlagen',
    canonical: '/surveydesk/wiedervorlagen',
    signedIn: true,
  },
  {
    url: '/surveydesk/universa/signup',
    routePath: 'universa/signup',
    canonical: '/surveydesk/universa/signup',
  },
  {
    url: '/surveydesk/passwort-vergessen',
    routePath: 'passwort-vergessen',
    canonical: '/surveydesk/passwort-vergessen',
  },
  {
    url: '/surveydesk/passwort-neu',
    routePath: 'passwort-neu',
    canonical: '/surveydesk/passwort-neu',
  },
];

/** The root layout and a redirect render nothing of their own; the pages they lead to are above. */
const notPages = new Set(['/', 'login']);

/** Addresses that show the same page and therefore share title and description. */
const aliases: readonly (readonly string[])[] = [
  ['/kontakt', '/universa/kontakt'],
  ['/surveydesk', '/surveydesk/dashboard'],
];

// Seeded by server/db/setup.ts with the password e2e/serve.mjs passes in.
const staff = { email: 'admin@example.de', password: 'e2e-Admin-Passwort-1' };

type SessionState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Signs in once through the sign-in screen and keeps the browser storage for the staff screens,
 * which send signed-out visitors to the sign-in page. Without a sign-in form (Survey Desk's
 * placeholder screen) the session stays empty and those screens are opened signed out.
 */
async function signIn(
  browser: Browser,
  options: Pick<BrowserContextOptions, 'baseURL' | 'storageState'>,
): Promise<SessionState> {
  // Starts from the project's storage (the consent already given), so no banner is in the way.
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    await page.goto('/surveydesk/signin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const email = page.getByLabel('E-Mail-Adresse');
    if ((await email.count()) > 0) {
      await email.fill(staff.email);
      await page.getByLabel('Passwort', { exact: true }).fill(staff.password);
      await page.getByRole('button', { name: /^(Login|Anmelden)$/ }).click();
      await expect(page).toHaveURL(/\/surveydesk\/dashboard$/);
    }
    return await context.storageState();
  } finally {
    await context.close();
  }
}

const test = base.extend<object, { staffSession: () => Promise<SessionState> }>({
  staffSession: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, storageState } = workerInfo.project.use;
      let session: Promise<SessionState> | undefined;
      await use(() => (session ??= signIn(browser, { baseURL, storageState })));
    },
    { scope: 'worker' },
  ],
});

interface PageMetadata {
  title: string;
  description: string | null;
  canonical: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogUrl: string | null;
  twitterCard: string | null;
  favicon: string | null;
  robots: string | null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Opens `route` and reads its metadata once the page has rendered and set its title. */
async function openAndRead(page: Page, route: RouteCase): Promise<PageMetadata> {
  await page.goto(route.url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(
    'Es ist ein Fehler aufgetreten',
  );
  // A staff screen that sent us to the sign-in page would report the sign-in page's tags.
  expect(new URL(page.url()).pathname).toBe(route.url);
  // One effect sets all tags after the first paint (public pages bring them in their HTML too,
  // the 404 page all but its address): once title and canonical URL are there, so is the rest.
  await expect(page).toHaveTitle(new RegExp(`${escapeRegExp(siteConfig.agencyName)}$`));
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    `${siteConfig.siteUrl}${route.canonical}`,
  );

  return page.evaluate(() => {
    const content = (selector: string) =>
      document.head.querySelector(selector)?.getAttribute('content') ?? null;
    return {
      title: document.title,
      description: content('meta[name="description"]'),
      canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      ogTitle: content('meta[property="og:title"]'),
      ogDescription: content('meta[property="og:description"]'),
      ogUrl: content('meta[property="og:url"]'),
      twitterCard: content('meta[name="twitter:card"]'),
      favicon: document.head.querySelector('link[rel~="icon"]')?.getAttribute('href') ?? null,
      robots: content('meta[name="robots"]'),
    };
  });
}

async function pageFor(
  route: RouteCase,
  page: Page,
  browser: Browser,
  staffSession: () => Promise<SessionState>,
  baseURL: string | undefined,
): Promise<{ page: Page; close: () => Promise<void> }> {
  if (!route.signedIn) return { page, close: async () => {} };
  const context = await browser.newContext({ baseURL, storageState: await staffSession() });
  return { page: await context.newPage(), close: () => context.close() };
}

const pathsOf = (list: RouteObject[]): string[] =>
  list.flatMap((route) => [...(route.path ? [route.path] : []), ...pathsOf(route.children ?? [])]);

test('the list of routes covers every path of the router', () => {
  const declared = pathsOf(routeTable);
  const covered = new Set([...routes.map((route) => route.routePath), ...notPages]);

  expect(declared.length).toBeGreaterThan(10);
  expect(declared.filter((path) => !covered.has(path ?? ''))).toEqual([]);
});

for (const route of routes) {
  test(`${route.url} has its title, description, canonical URL, social tags and icon`, async ({
    page,
    browser,
    staffSession,
    baseURL,
  }) => {
    const opened = await pageFor(route, page, browser, staffSession, baseURL);
    try {
      const meta = await openAndRead(opened.page, route);
      const ownTitle = meta.title.slice(0, -siteConfig.agencyName.length);
      const canonical = `${siteConfig.siteUrl}${route.canonical}`;

      expect(ownTitle, 'a title of its own before the agency name').toMatch(/\p{L}/u);
      expect(meta.description?.trim(), 'meta description').toBeTruthy();
      expect(meta.canonical, 'canonical link').toBe(canonical);
      expect(meta.ogTitle, 'og:title').toBe(meta.title);
      expect(meta.ogDescription, 'og:description').toBe(meta.description);
      expect(meta.ogUrl, 'og:url').toBe(canonical);
      expect(meta.twitterCard, 'twitter:card').toMatch(/^summary/);
      expect(meta.favicon, 'favicon link').toBeTruthy();
      // Only the 404 page and the device page ask search engines to stay away.
      if (route.noindex) expect(meta.robots).toContain('noindex');
      else expect(meta.robots ?? '').not.toContain('noindex');
    } finally {
      await opened.close();
    }
  });
}

/** Tags as the server sends them, before any JavaScript runs (link previews, crawlers). */
function headOf(html: string) {
  const attribute = (pattern: string) =>
    new RegExp(`<${pattern}[^>]*?(?:content|href)="([^"]*)"`).exec(html)?.[1] ?? null;
  const decode = (text: string | null) =>
    text
      ?.replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&') ?? null;
  return {
    title: decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? null),
    description: decode(attribute('meta name="description"')),
    canonical: decode(attribute('link rel="canonical"')),
    ogTitle: decode(attribute('meta property="og:title"')),
    robots: attribute('meta name="robots"'),
  };
}

// Prerendered public pages and the 404 page; app-shell addresses are answered with the shell.
const publicRoutes = routes.filter(
  (route) =>
    !route.url.startsWith('/surveydesk') &&
    !route.url.startsWith('/fragebogen/') &&
    route.url !== '/geraet',
);

test('the server sends each public page with its own tags, and unknown addresses with 404', async ({
  page,
  request,
}) => {
  for (const route of publicRoutes) {
    await test.step(route.url, async () => {
      const response = await request.get(route.url);
      const html = await response.text();
      const sent = headOf(html);
      // The device page is opened on purpose by its address: no public page links to it.
      expect(html).not.toMatch(/href="\/geraet["/?#]/);
      const shown = await openAndRead(page, route);
      if (route.routePath === '*') {
        expect(response.status()).toBe(404);
        expect(sent.robots).toBe('noindex');
        expect(sent.canonical).toBeNull();
      } else {
        expect(response.status()).toBe(200);
        expect(sent.robots).toBeNull();
        expect(sent.canonical).toBe(shown.canonical);
      }
      expect(sent.title).toBe(shown.title);
      expect(sent.description).toBe(shown.description);
      expect(sent.ogTitle).toBe(shown.ogTitle);
    });
  }
  for (const url of ['/fragebogen/1', '/surveydesk/customer', '/login', '/geraet']) {
    expect((await request.get(url)).status(), url).toBe(200);
  }
  expect((await request.get('/fragebogen/abc')).status()).toBe(404);
});

test('titles and descriptions are unique, except for addresses of the same page', async ({
  page,
  browser,
  staffSession,
  baseURL,
}) => {
  test.setTimeout(routes.length * 10_000);
  const byUrl = new Map<string, PageMetadata>();
  for (const route of routes) {
    await test.step(route.url, async () => {
      const opened = await pageFor(route, page, browser, staffSession, baseURL);
      try {
        byUrl.set(route.url, await openAndRead(opened.page, route));
      } finally {
        await opened.close();
      }
    });
  }

  const sameAs = (url: string) => aliases.find((group) => group.includes(url)) ?? [url];
  for (const field of ['title', 'description'] as const) {
    const clashes = [...byUrl].flatMap(([url, meta]) =>
      [...byUrl]
        .filter(([other, otherMeta]) => other > url && otherMeta[field] === meta[field])
        .filter(([other]) => !sameAs(url).includes(other))
        .map(([other]) => `${url} = ${other}: ${meta[field]}`),
    );
    expect(clashes, `${field}s shared by different pages`).toEqual([]);

    for (const group of aliases) {
      expect(new Set(group.map((url) => byUrl.get(url)?.[field])).size, group.join(' = ')).toBe(1);
    }
  }
});

test('leaving the 404 page for a real page drops its noindex and its title', async ({ page }) => {
  await page.goto('/gibt-es-nicht');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');

  await page.getByRole('link', { name: 'Zur Startseite' }).click();
  await expect(page).toHaveURL(/\/universa$/);
  await expect(page).not.toHaveTitle(/Seite nicht gefunden/);
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
});
