import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { deskPaths, deskQuestionnairePath } from '../src/domain/routes.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { admin, confirmationLink, openSignedIn, signInAs, signUp } from './helpers/desk.ts';

// Issue 36, accounts and the desk's frame, against the built server and its gateway: 'Freigeben'
// and 'Ablehnen' with their confirmations and the mail to the approved colleague (the server's
// job writes it to DATA_DIR/mail/), the refused self-demotion that puts the menu back, the links
// between sign-in and registration, signed-out screens without navigation, the desk's own 404, the
// settings, the question editor's words and the questionnaire cards. Each changed screen is saved
// as a screenshot (artefacts, not assertions) at 1366x900, and checked with axe.

test.use({ viewport: { width: 1366, height: 900 } });

async function snapshot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** The header's parts only a signed-in account gets. */
async function expectNoSignedInHeader(page: Page) {
  const header = page.getByRole('navigation', { name: 'Survey Desk' });
  await expect(header.getByRole('link', { name: 'Survey Desk' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Kunden' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Benachrichtigungen/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Benutzermenü' })).toHaveCount(0);
}

interface MailFile {
  to: string;
  subject: string;
  text: string;
}

/** Every mail the server wrote below DATA_DIR/mail/ (no SMTP_URL in the e2e server). */
async function writtenMails(): Promise<MailFile[]> {
  const dataDirFile = path.resolve(`.tmp/e2e-data-dir-${process.env.E2E_PORT}`);
  const folder = path.join((await readFile(dataDirFile, 'utf8')).trim(), 'mail');
  const files = await readdir(folder).catch(() => []);
  return Promise.all(
    files.map(async (file) => JSON.parse(await readFile(path.join(folder, file), 'utf8'))),
  ) as Promise<MailFile[]>;
}

const approvalSubject = 'Ihr Zugang zu Survey Desk ist freigeschaltet';

test.describe('signed out', () => {
  test('the sign-in links to the registration and back, without navigation or bell', async ({
    page,
  }) => {
    await page.goto(deskPaths.signin);
    await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
    await expectNoSignedInHeader(page);
    await expectNoAxeViolations(page);
    await snapshot(page, 'anmelden');

    await page.getByRole('link', { name: 'Registrieren' }).click();
    await expect(page).toHaveURL(deskPaths.signup);
    await expect(page.getByRole('heading', { level: 1, name: 'Registrieren' })).toBeVisible();
    await expectNoSignedInHeader(page);
    await expectNoAxeViolations(page);
    await snapshot(page, 'registrieren');

    await page.getByRole('link', { name: 'Zur Anmeldung' }).click();
    await expect(page).toHaveURL(deskPaths.signin);

    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await expect(page).toHaveURL(deskPaths.passwordForgotten);
    await expectNoSignedInHeader(page);
    await snapshot(page, 'passwort-vergessen');
  });

  test('a staff screen on its way to the sign-in shows no navigation', async ({ page }) => {
    await page.goto(deskPaths.customers);
    await expect(page).toHaveURL(/\/surveydesk\/signin\?weiter=/);
    await expectNoSignedInHeader(page);
  });
});

test.describe('a mistyped desk address', () => {
  // A first visit: the public site would show its cookie banner.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('shows the German 404 in the desk’s frame, signed out and signed in', async ({ page }) => {
    await page.goto('/surveydesk/kundn');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Seite nicht gefunden' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/surveydesk\/kundn$/);
    await expect(page).toHaveTitle(/^Seite nicht gefunden – Survey Desk/);
    await expectNoSignedInHeader(page);
    // Nothing of the public site: no cookie banner, no public footer.
    await expect(page.getByRole('button', { name: 'Alle ablehnen' })).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Impressum' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await snapshot(page, 'desk-404-abgemeldet');
    await page.getByRole('link', { name: 'Zur Anmeldung' }).click();
    await expect(page).toHaveURL(deskPaths.signin);

    await signInAs(page, admin);
    await page.goto('/surveydesk/kunden/gibt-es-nicht');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Seite nicht gefunden' }),
    ).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Survey Desk' }).getByRole('link', { name: 'Kunden' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Alle ablehnen' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await snapshot(page, 'desk-404-angemeldet');
    await page.getByRole('link', { name: 'Zum Dashboard' }).click();
    await expect(page).toHaveURL(deskPaths.dashboard);
  });
});

test.describe('approval', () => {
  test.describe.configure({ mode: 'serial' });

  const stamp = Date.now();
  const newcomer = { email: `freigabe-${stamp}@example.de`, password: 'Neues-Passwort-123' };
  const stranger = { email: `abgelehnt-${stamp}@example.de`, password: 'Fremdes-Passwort-123' };

  test('two registrations wait: one confirmed, one not', async ({ page }) => {
    await signUp(page, newcomer);
    await expect(page.getByText('Vielen Dank für Ihre Registrierung!')).toBeVisible();
    await expect(
      page.getByText(/schaltet das Konto frei; darüber informiert eine E-Mail/),
    ).toBeVisible();
    await snapshot(page, 'registrieren-danke');
    await page.goto(await confirmationLink(newcomer.email));
    await expect(page).toHaveURL(/\/surveydesk\/signin\?bestaetigt=1$/);
    await signUp(page, stranger);
    await expect(page.getByText('Vielen Dank für Ihre Registrierung!')).toBeVisible();
  });

  test('the admin refuses one and enables the other, each after a confirmation', async ({
    page,
  }) => {
    await openSignedIn(page, deskPaths.staff);
    const waiting = page.getByRole('region', { name: 'Warten auf Freigabe' });
    const newcomerEntry = waiting.getByRole('listitem').filter({ hasText: newcomer.email });
    const strangerEntry = waiting.getByRole('listitem').filter({ hasText: stranger.email });
    await expect(newcomerEntry).toContainText('E-Mail-Adresse bestätigt');
    await expect(strangerEntry).toContainText('E-Mail-Adresse noch nicht bestätigt');
    await expectNoAxeViolations(page);
    await snapshot(page, 'mitarbeiter-warten-auf-freigabe');

    // Ablehnen: the dialog says what happens; Abbrechen changes nothing.
    await strangerEntry
      .getByRole('button', { name: `Registrierung von ${stranger.email} ablehnen` })
      .click();
    let dialog = page.getByRole('alertdialog', { name: 'Registrierung ablehnen?' });
    await expect(dialog).toContainText(`Die Registrierung von ${stranger.email} wird gelöscht`);
    await expect(dialog).toContainText('bekommt keine Nachricht');
    await expectNoAxeViolations(page);
    await snapshot(page, 'mitarbeiter-ablehnen-dialog');
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(strangerEntry).toBeVisible();

    await strangerEntry
      .getByRole('button', { name: `Registrierung von ${stranger.email} ablehnen` })
      .click();
    dialog = page.getByRole('alertdialog', { name: 'Registrierung ablehnen?' });
    await dialog.getByRole('button', { name: 'Ablehnen' }).click();
    await expect(waiting.getByRole('status')).toHaveText(
      `Die Registrierung von ${stranger.email} ist abgelehnt und gelöscht.`,
    );
    await expect(page.getByText(stranger.email)).toHaveCount(1); // only in the status line
    await expect(page.getByRole('row', { name: new RegExp(stranger.email) })).toHaveCount(0);

    // Freigeben: the dialog names the mail.
    await newcomerEntry.getByRole('button', { name: `${newcomer.email} freigeben` }).click();
    dialog = page.getByRole('alertdialog', { name: 'Konto freigeben?' });
    await expect(dialog).toContainText(`${newcomer.email} wird Mitarbeiter`);
    await expect(dialog).toContainText('bekommt eine E-Mail');
    await expectNoAxeViolations(page);
    await snapshot(page, 'mitarbeiter-freigeben-dialog');
    await dialog.getByRole('button', { name: 'Freigeben' }).click();
    await expect(waiting.getByRole('status')).toHaveText(
      `${newcomer.email} ist freigeschaltet. Eine E-Mail mit dem Link zur Anmeldung ist unterwegs.`,
    );
    await expect(newcomerEntry).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: `Rolle für ${newcomer.email}` })).toHaveValue(
      'staff',
    );
    await expectNoAxeViolations(page);
    await snapshot(page, 'mitarbeiter-freigegeben');
  });

  test('the enabled colleague gets one German mail, the refused one none', async () => {
    // The server's job polls every 15 seconds.
    await expect
      .poll(
        async () =>
          (await writtenMails()).filter(
            (mail) => mail.to === newcomer.email && mail.subject === approvalSubject,
          ).length,
        { timeout: 40_000 },
      )
      .toBe(1);
    const mail = (await writtenMails()).find(
      (written) => written.subject === approvalSubject && written.to === newcomer.email,
    )!;
    expect(mail.text).toContain(
      'Ihr Konto für Survey Desk ist freigeschaltet. Ihre Rolle: Mitarbeiter.',
    );
    expect(mail.text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/surveydesk\/signin/);
    expect(
      (await writtenMails()).filter(
        (written) => written.to === stranger.email && written.subject === approvalSubject,
      ),
    ).toEqual([]);
  });

  test('the colleague works, and the refused registration cannot sign in', async ({ page }) => {
    await signInAs(page, newcomer);
    await page.goto(deskPaths.customers);
    await expect(page.getByRole('heading', { level: 1, name: 'Kunden Daten' })).toBeVisible();

    await page.goto(deskPaths.signin);
    await page.getByLabel('E-Mail-Adresse').fill(stranger.email);
    await page.getByLabel('Passwort', { exact: true }).fill(stranger.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Login fehlgeschlagen. Bitte überprüfe deine Anmeldedaten und versuche es erneut.',
    );
  });
});

test('the last admin’s refused step down puts the menu back at once', async ({ page }) => {
  await openSignedIn(page, deskPaths.staff);
  const role = page.getByRole('combobox', { name: `Rolle für ${admin.email}` });
  await role.selectOption('staff');
  await page.getByRole('button', { name: `Rolle für ${admin.email} speichern` }).click();
  await expect(role).toHaveAccessibleDescription(
    'Der letzte Admin kann nicht entfernt oder herabgestuft werden. Ernenne zuerst ein weiteres Konto zum Admin.',
  );
  // Without a reload: the menu shows the role the account has.
  await expect(role).toHaveValue('admin');
  await expectNoAxeViolations(page);
  await snapshot(page, 'mitarbeiter-letzter-admin');
});

test('the settings show address, role and since when, and no raw account flags', async ({
  page,
}) => {
  await openSignedIn(page, deskPaths.settings);
  const account = page.getByRole('form', { name: 'Konto' });
  await expect(account.getByLabel('E-Mail-Adresse')).toHaveValue(admin.email);
  await expect(account.getByLabel('Rolle')).toHaveValue('Admin');
  await expect(account.getByLabel('Konto seit')).toHaveValue(/^\d\d\.\d\d\.\d{4}$/);
  await expect(page.getByText(/Telefon bestätigt|E-Mail bestätigt/)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await snapshot(page, 'einstellungen');
});

test('the question editor names the types in German and makes the information optional', async ({
  page,
}) => {
  await openSignedIn(page, deskQuestionnairePath('Tabaluga'));
  await page.getByRole('button', { name: 'Frage hinzufügen' }).click();
  const sidebar = page.getByRole('dialog', { name: 'Frage hinzufügen' });
  await expect(sidebar.getByLabel('Typ').locator('option')).toHaveText([
    'Auswahl aus vorgegebenen Antworten',
    'Freitext (Eingabefeld)',
  ]);
  await expect(sidebar.getByLabel('Antwort 1', { exact: true })).toHaveAttribute(
    'placeholder',
    'Antworttext, z. B. „Ja“',
  );
  await expect(sidebar.locator('[placeholder="Wert"]')).toHaveCount(0);
  await expect(sidebar.getByLabel('Information (freiwillig)')).not.toHaveAttribute(
    'aria-required',
    'true',
  );
  await expect(sidebar.getByLabel('Mehrere Antworten möglich (Mehrfachauswahl)')).toBeVisible();
  await expectNoAxeViolations(page);
  await snapshot(page, 'frage-hinzufuegen');
  await sidebar.getByLabel('Typ').selectOption('input');
  await expect(sidebar.getByLabel('Antwort 1', { exact: true })).toHaveAttribute(
    'placeholder',
    'Platzhalter, z. B. „TT.MM.JJJJ“',
  );
});

test('questionnaire cards without an image have no image area, and count the answers once', async ({
  page,
}) => {
  await openSignedIn(page, deskPaths.questionnaires);
  const card = page.getByRole('article', { name: 'PKV' });
  await expect(card).toContainText(/\d+ Antworten?/);
  expect((await card.innerText()).match(/Antwort/g)).toHaveLength(1);
  await expect(card.locator('[style*="background-image"]')).toHaveCount(0);
  await expect(card.locator('.bg-slate-700')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await snapshot(page, 'frageboegen');
});
