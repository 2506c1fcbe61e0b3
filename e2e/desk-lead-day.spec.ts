import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { berlinDate } from '../src/domain/calendar.ts';
import { deskCustomerAnswersPath, deskPaths } from '../src/domain/routes.ts';
import { uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { admin, openSignedIn } from './helpers/desk.ts';
import { expectNoAxeViolations, serviceRoleHeaders } from './helpers/hub.ts';

// One lead through the office's day, against the built server: a visitor asks for a KFZ callback
// in the afternoon; the agent's new-lead mail lands in DATA_DIR/mail once; the callback's
// follow-up is due on the dashboard; staff call, set 'Kontaktiert' with a note, mark the
// follow-up done, find the customer by status in the list, and the lead's history shows every
// step with who and when.

const uniqueLetters = () =>
  Array.from(
    { length: 8 },
    () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)],
  ).join('');

interface MailFile {
  to: string;
  subject: string;
  text: string;
}

async function mailsAbout(lastName: string): Promise<MailFile[]> {
  const dataDirFile = path.resolve(`.tmp/e2e-data-dir-${process.env.E2E_PORT}`);
  const folder = path.join((await readFile(dataDirFile, 'utf8')).trim(), 'mail');
  const mails: MailFile[] = [];
  for (const file of await readdir(folder).catch(() => [])) {
    if (!file.endsWith('.json')) continue;
    const mail = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as MailFile;
    if (mail.subject.includes(lastName)) mails.push(mail);
  }
  return mails;
}

type LeadMailSettings = Record<'enabled' | 'address' | 'mode' | 'digest_hour', unknown>;

/** Sets the agent's new-lead mail as the service role; answers the settings it replaced. */
async function setLeadMail(
  request: APIRequestContext,
  settings: Partial<LeadMailSettings>,
): Promise<LeadMailSettings> {
  const headers = await serviceRoleHeaders();
  const read = await request.get(
    '/rest/v1/lead_mail_settings?select=enabled,address,mode,digest_hour&id=eq.true',
    { headers },
  );
  const [before] = (await read.json()) as LeadMailSettings[];
  const saved = await request.patch('/rest/v1/lead_mail_settings?id=eq.true', {
    headers,
    data: settings,
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  return before!;
}

test('a KFZ callback through the day: mailed once, due, contacted, done, found by status, in the history', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const before = await setLeadMail(request, {
    enabled: true,
    address: 'agentur@example.de',
    mode: 'immediate',
  });
  try {
    const lastName = `Tagesablauf${uniqueLetters()}`;
    const email = uniqueEmail('tagesablauf');

    // The visitor on the public site.
    const visitor = await context.newPage();
    await visitor.goto('/universa/kfz');
    await visitor.getByLabel('Vorname').fill('Greta');
    await visitor.getByLabel('Nachname').fill(lastName);
    await visitor.getByLabel('E-Mail').fill(email);
    await visitor.getByLabel('Telefonnummer').fill('0171 2233445');
    await visitor.getByLabel('Gewünschte Rückrufzeit').selectOption('Nachmittags');
    await visitor.getByLabel(/^Ich akzeptiere die AGB/).check();
    await visitor.getByLabel(/^Ich willige in die Verarbeitung meiner Daten ein/).check();
    await visitor.getByRole('button', { name: 'Absenden' }).click();
    await expect(visitor.getByLabel('Vorname')).toHaveCount(0);
    await visitor.close();

    // The agent's mail: once, with form, name and callback wish, without contact details.
    await expect.poll(async () => (await mailsAbout(lastName)).length, { timeout: 20_000 }).toBe(1);
    const [mail] = await mailsAbout(lastName);
    expect(mail!.to).toBe('agentur@example.de');
    expect(mail!.text).toContain(`Greta ${lastName}`);
    expect(mail!.text).toContain('Nachmittags');
    expect(mail!.text).not.toContain(email);
    expect(mail!.text).not.toContain('2233445');

    // The callback's follow-up, for the afternoon window (Berlin time).
    const headers = await serviceRoleHeaders();
    const customers = await request.get(
      `/rest/v1/users?select=id&email=eq.${encodeURIComponent(email)}`,
      { headers },
    );
    const [customer] = (await customers.json()) as { id: number }[];
    const found = await request.get(
      `/rest/v1/follow_ups?select=id,due_at,body,automatic&customer_id=eq.${customer!.id}`,
      { headers },
    );
    const followUps = (await found.json()) as { id: number; due_at: string; body: string }[];
    expect(followUps).toEqual([
      expect.objectContaining({ body: 'Rückruf gewünscht: Nachmittags (14–17 Uhr)' }),
    ]);
    const dueHour = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      hour: 'numeric',
    }).format(new Date(followUps[0]!.due_at));
    expect(Number.parseInt(dueHour, 10)).toBeGreaterThanOrEqual(14);
    expect(Number.parseInt(dueHour, 10)).toBeLessThan(17);
    // The afternoon it waits for may be today's, tomorrow's or Monday's: moved back to a day long
    // past, so the dashboard's work list shows it first among the oldest overdue ones.
    const moved = await request.patch(`/rest/v1/follow_ups?id=eq.${followUps[0]!.id}`, {
      headers,
      data: { due_at: '2020-01-06T08:00:00Z' },
    });
    expect(moved.ok(), await moved.text()).toBe(true);

    // The office: overdue on the dashboard, and in the bell.
    await openSignedIn(page, deskPaths.dashboard);
    const due = page.getByRole('region', { name: 'Überfällig – die ältesten zuerst' });
    const item = due.getByRole('listitem').filter({ hasText: `Greta ${lastName}` });
    await expect(item).toContainText('Rückruf gewünscht: Nachmittags (14–17 Uhr)');
    await expect(
      page.getByRole('button', { name: /^Benachrichtigungen: \d+ fällige/ }),
    ).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expectNoAxeViolations(page);

    // Staff call back and record it: 'Kontaktiert' with a note.
    await item.getByRole('link', { name: `Antworten von Greta ${lastName}` }).click();
    await expect(page.getByRole('region', { name: /^KFZ/ })).toBeVisible();
    const lead = page.getByRole('region', { name: 'Status', exact: true });
    await expect(lead.getByText(/^Aktueller Status:/)).toHaveText('Aktueller Status: Neu');
    await lead.getByLabel('Notiz zur Statusänderung (optional)').fill('Erreicht, Angebot folgt');
    await lead.getByRole('radio', { name: 'Kontaktiert', exact: true }).check();
    const saved = page.waitForResponse((response) =>
      response.url().includes('/rpc/set_lead_status'),
    );
    await lead.getByRole('button', { name: 'Status ändern' }).click();
    expect((await saved).ok()).toBe(true);
    await expect(lead.getByText(/^Aktueller Status:/)).toHaveText('Aktueller Status: Kontaktiert');
    await expectNoAxeViolations(page);

    // The follow-up is done, in one click on the dashboard.
    await page.goto(deskPaths.dashboard);
    await item.getByRole('button', { name: /^Erledigt/ }).click();
    await expect(item).toHaveCount(0);

    // The customer list, filtered by status, finds the customer.
    await page.goto(deskPaths.customers);
    await page.getByLabel('Status').selectOption({ label: 'Kontaktiert' });
    await expect(page).toHaveURL(/[?&]status=contacted(&|$)/);
    await page.getByLabel('Suche').fill(lastName);
    const rows = page.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Greta`);
    await expect(rows.first()).toContainText('Kontaktiert');
    await expectNoAxeViolations(page);

    // The lead's history: each step with who and when.
    await page.goto(deskCustomerAnswersPath(customer!.id));
    const history = page.getByRole('region', { name: 'Verlauf', exact: true });
    const today = berlinDate(new Date().toISOString()).replace(/\./g, '\\.');
    const when = `\\d\\d\\.\\d\\d\\.\\d{4}, \\d\\d:\\d\\d`;
    const who = admin.email.replace(/\./g, '\\.');
    const steps = history.getByRole('listitem');
    // Moving the due time above is a change of the follow-up, in the history by the service.
    await expect(steps).toHaveCount(6);
    await expect(history).toContainText(
      new RegExp(`Wiedervorlage geändert von einem Dienst oder gelöschten Konto am ${when}`),
    );
    await expect(steps.nth(0)).toHaveText(new RegExp(`^Neu – ${today}, \\d\\d:\\d\\d – Eingang$`));
    // The follow-up (made by the database with the lead) and the mail (sent after it) come next,
    // in the order of their times.
    await expect(history).toContainText(
      new RegExp(`Wiedervorlage angelegt – ${when} – automatischRückruf gewünscht: Nachmittags`),
    );
    await expect(history).toContainText(
      new RegExp(`Benachrichtigung gesendet – ${today}, \\d\\d:\\d\\d – an die Agentur`),
    );
    // Step 4 is the move of the due time above (a change of the follow-up).
    await expect(steps.nth(4)).toHaveText(
      new RegExp(`^Kontaktiert – ${today}, \\d\\d:\\d\\d – ${who}Notiz: Erreicht, Angebot folgt$`),
    );
    await expect(steps.nth(5)).toHaveText(
      new RegExp(`^Wiedervorlage erledigt – ${today}, \\d\\d:\\d\\d – ${who}Rückruf gewünscht`),
    );
    await expectNoAxeViolations(page);

    // Still exactly one mail for the lead.
    expect(await mailsAbout(lastName)).toHaveLength(1);
  } finally {
    // The shared server as it was: later journeys see the settings they expect.
    await setLeadMail(request, before);
  }
});
