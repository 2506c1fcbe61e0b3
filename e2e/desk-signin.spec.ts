import { expect, test, type Page } from '@playwright/test';
import { deskPaths, deskQuestionnairePath } from '../src/domain/routes.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { admin } from './helpers/desk.ts';
import { isDeskOnlyFile } from './helpers/desk-files.ts';

// Survey Desk's sign-in, guard and sign-out against the built server and its gateway.
// The admin is seeded by server/db/setup.ts with the password e2e/serve.mjs passes in.

async function signInAs(page: Page, credentials: { email: string; password: string }) {
  await page.getByLabel('E-Mail-Adresse').fill(credentials.email);
  await page.getByLabel('Passwort', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

const storedSession = (page: Page) => page.evaluate(() => localStorage.getItem('user'));

test('a wrong password shows the spec message and stores no session', async ({ page }) => {
  await page.goto('/surveydesk/signin');
  await signInAs(page, { email: admin.email, password: 'falsches-Passwort-1' });
  await expect(page.getByRole('alert')).toHaveText(
    'Login fehlgeschlagen. Bitte überprüfe deine Anmeldedaten und versuche es erneut.',
  );
  await expect(page).toHaveURL(/\/surveydesk\/signin$/);
  expect(await storedSession(page)).toBeNull();
});

// The gateway answers these as GoTrue does; supabase-js turns each into its own error class.
const tokenFailures = [
  {
    what: 'an unconfirmed address',
    answer: { status: 400, body: { code: 'email_not_confirmed', msg: 'Email not confirmed' } },
    message: 'Deine E-Mail-Adresse ist noch nicht bestätigt.',
  },
  {
    what: 'too many attempts',
    answer: {
      status: 429,
      body: { code: 'over_request_rate_limit', msg: 'Request rate limit reached' },
    },
    message: 'Zu viele Anmeldeversuche.',
  },
  { what: 'a server that cannot be reached', answer: null, message: 'nicht erreichbar' },
] as const;

for (const failure of tokenFailures) {
  test(`${failure.what} gets its own German message`, async ({ page }) => {
    await page.route('**/auth/v1/token?grant_type=password', (route) =>
      failure.answer
        ? route.fulfill({
            status: failure.answer.status,
            contentType: 'application/json',
            body: JSON.stringify({ ...failure.answer.body, error_code: failure.answer.body.code }),
          })
        : route.abort('connectionrefused'),
    );
    await page.goto('/surveydesk/signin');
    await signInAs(page, admin);
    await expect(page.getByRole('alert')).toContainText(failure.message);
    await expect(page).toHaveURL(/\/surveydesk\/signin$/);
  });
}

test('empty fields are named without a call', async ({ page }) => {
  await page.goto('/surveydesk/signin');
  await page.getByRole('button', { name: 'Login' }).click();
  const email = page.getByLabel('E-Mail-Adresse');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription('Bitte gib deine E-Mail-Adresse ein.');
  await expect(page.getByLabel('Passwort', { exact: true })).toHaveAccessibleDescription(
    'Bitte gib dein Passwort ein.',
  );
});

test('the password can be shown and hidden', async ({ page }) => {
  await page.goto('/surveydesk/signin');
  const password = page.getByLabel('Passwort', { exact: true });
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Passwort anzeigen' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Passwort verbergen' }).click();
  await expect(password).toHaveAttribute('type', 'password');
});

test('the confirmation notices show on the sign-in', async ({ page }) => {
  await page.goto('/surveydesk/signin?bestaetigt=1');
  await expect(page.getByRole('status').filter({ hasText: 'E-Mail bestätigt' })).toHaveText(
    'E-Mail bestätigt – bitte anmelden',
  );
  await page.goto('/surveydesk/signin?bestaetigung=ungueltig');
  await expect(page.getByRole('alert')).toContainText('Bestätigungslink ist ungültig');
});

test('the dashboard without a session leads to the sign-in and back after signing in', async ({
  page,
}) => {
  await page.goto('/surveydesk/dashboard');
  await expect(page).toHaveURL(/\/surveydesk\/signin\?weiter=%2Fsurveydesk%2Fdashboard$/);
  await expect(page.getByText('Du bist nicht angemeldet. Bitte melde dich an.')).toBeVisible();

  await signInAs(page, admin);
  await expect(page).toHaveURL(/\/surveydesk\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await storedSession(page)).toContain('access_token');
});

const staffRoutes = [
  deskPaths.dashboard,
  deskPaths.settings,
  deskPaths.customers,
  deskPaths.questionnaires,
  deskQuestionnairePath('Tabaluga'),
  deskPaths.analysis,
  deskPaths.support,
];

test('every staff route without a session leads to the sign-in and back', async ({ page }) => {
  test.setTimeout(staffRoutes.length * 10_000);
  for (const path of staffRoutes) {
    await test.step(path, async () => {
      await page.goto(path);
      await expect(page).toHaveURL(`${deskPaths.signin}?weiter=${encodeURIComponent(path)}`);
      await expect(page.getByText('Du bist nicht angemeldet. Bitte melde dich an.')).toBeVisible();
      await signInAs(page, admin);
      await expect(page).toHaveURL(path);
      // The next route starts signed out again: the sign-in signs out when it opens.
      await page.goto(deskPaths.signin);
      await expect.poll(() => storedSession(page)).toBeNull();
    });
  }
});

test('Abmelden ends the session, and a reload stays signed out', async ({ page }) => {
  await page.goto('/surveydesk/signin');
  await signInAs(page, admin);
  await expect(page).toHaveURL(/\/surveydesk\/dashboard$/);

  await page.getByRole('button', { name: 'Benutzermenü' }).click();
  await expect(page.getByRole('menu')).toContainText(admin.email);
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/surveydesk\/signin$/);
  await expect.poll(() => storedSession(page)).toBeNull();

  await page.goto('/surveydesk/settings');
  await expect(page).toHaveURL(/\/surveydesk\/signin\?weiter=%2Fsurveydesk%2Fsettings$/);
  await page.reload();
  await expect(page.getByLabel('E-Mail-Adresse')).toBeVisible();
  expect(await storedSession(page)).toBeNull();
});

/** Rewrites the stored session as if its access token had expired a minute ago. */
async function expireStoredSession(page: Page, refreshToken?: string) {
  // Changed on a public page of the same origin, which runs no supabase-js: a desk page would read
  // the changed session at its next request (a poll, a refetch on focus) and try the refresh
  // itself before the test opens the next page.
  await page.goto('/impressum');
  await page.evaluate((replacement) => {
    const session = JSON.parse(localStorage.getItem('user') ?? 'null') as {
      expires_at: number;
      refresh_token: string;
    } | null;
    if (!session) throw new Error('keine Sitzung gespeichert');
    session.expires_at = Math.floor(Date.now() / 1000) - 60;
    if (replacement) session.refresh_token = replacement;
    localStorage.setItem('user', JSON.stringify(session));
  }, refreshToken);
}

test('an expired access token is refreshed silently and the page still loads', async ({ page }) => {
  await page.goto('/surveydesk/signin');
  await signInAs(page, admin);
  await expect(page).toHaveURL(/\/surveydesk\/dashboard$/);
  const before = await storedSession(page);
  await expireStoredSession(page);

  await page.goto('/surveydesk/settings');
  await expect(page.getByLabel('E-Mail-Adresse')).toHaveValue(admin.email);
  await expect(page).toHaveURL(/\/surveydesk\/settings$/);
  await expect.poll(() => storedSession(page)).not.toBe(before);
  expect(await storedSession(page)).toContain('access_token');
});

test('a session that cannot be refreshed lands on the sign-in with a German notice', async ({
  page,
}) => {
  await page.goto('/surveydesk/signin');
  await signInAs(page, admin);
  await expect(page).toHaveURL(/\/surveydesk\/dashboard$/);
  await expireStoredSession(page, 'ungueltiges-token');

  await page.goto('/surveydesk/settings');
  await expect(page).toHaveURL(/\/surveydesk\/signin\?weiter=%2Fsurveydesk%2Fsettings/);
  await expect(page.getByRole('status')).toHaveText(
    'Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.',
  );
  await signInAs(page, admin);
  await expect(page).toHaveURL(/\/surveydesk\/settings$/);
});

test('settings show the signed-in account, read-only', async ({ page }) => {
  await page.goto('/surveydesk/settings');
  await signInAs(page, admin);
  await expect(page).toHaveURL(/\/surveydesk\/settings$/);
  await expect(page.getByLabel('E-Mail-Adresse')).toHaveValue(admin.email);
  await expect(page.getByLabel('E-Mail-Adresse')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Rolle')).toHaveValue('Admin');
  await expect(page.getByLabel('Konto seit')).toHaveValue(/^\d\d\.\d\d\.\d{4}$/);
  await expect(page.getByLabel('Telefon bestätigt')).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Benutzermenü' }).click();
  await expect(page.getByRole('menu')).toContainText(admin.email);
  await expectNoAxeViolations(page);
});

test('the sign-in has no accessibility violations, also with an error shown', async ({ page }) => {
  await page.goto('/surveydesk/signin');
  await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByLabel('E-Mail-Adresse')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
});

test('the public landing page loads no supabase-js, React Query or Headless UI code', async ({
  page,
}) => {
  const scripts: { url: string; body: string }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push({ url: response.url(), body: await response.text().catch(() => '') });
  });
  await page.goto('/universa');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(scripts.length).toBeGreaterThan(0);
  const deskCode = scripts.filter(
    ({ url, body }) =>
      isDeskOnlyFile(url) || /supabase-js|X-Client-Info|No QueryClient set|headlessui/.test(body),
  );
  expect(deskCode.map(({ url }) => url)).toEqual([]);
});
