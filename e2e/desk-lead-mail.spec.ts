import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { deskPaths } from '../src/domain/routes.ts';
import { kfzLead } from '../src/testing/lead-fixtures.ts';
import { openSignedIn } from './helpers/desk.ts';
import { expectNoAxeViolations, serviceRoleHeaders } from './helpers/hub.ts';

// The new-lead mail against the built server: the admin switches it on in the staff page, a
// lead arrives through the hub, and exactly one mail for it lands in DATA_DIR/mail (the server
// runs without SMTP_URL), with form, name and callback wish but no contact details.

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
    const mail = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as MailFile;
    if (mail.subject.includes(lastName)) mails.push(mail);
  }
  return mails;
}

test('the admin switches the new-lead mail on and a lead is mailed exactly once', async ({
  page,
  request,
  baseURL,
}) => {
  try {
    await mailJourney(page, request, baseURL!);
  } finally {
    // Leave the shared server as it was: later journeys' leads send no mail.
    const off = await request.patch('/rest/v1/lead_mail_settings?id=eq.true', {
      headers: await serviceRoleHeaders(),
      data: { enabled: false, address: null, mode: 'immediate' },
    });
    expect(off.ok()).toBe(true);
  }
});

async function mailJourney(page: Page, request: APIRequestContext, baseURL: string) {
  await openSignedIn(page, deskPaths.staff);
  const section = page.getByRole('form', { name: 'Benachrichtigung bei neuen Anfragen' });
  const toggle = section.getByRole('switch', { name: 'E-Mail bei neuen Anfragen' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expectNoAxeViolations(page);

  // Switched on without an address: the error is the field's.
  await toggle.click();
  await section.getByRole('button', { name: 'Benachrichtigung speichern' }).click();
  const address = section.getByLabel('E-Mail-Adresse für Benachrichtigungen');
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expect(address).toHaveAccessibleDescription(
    'Bitte gib die E-Mail-Adresse ein, an die die Benachrichtigung gehen soll.',
  );
  await expectNoAxeViolations(page);

  await address.fill('makler@example.de');
  await section.getByLabel('Wann').selectOption('sofort');
  await section.getByRole('button', { name: 'Benachrichtigung speichern' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Gespeichert: Jede neue Anfrage wird sofort an makler@example.de gemeldet.',
  );
  await page.reload();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(address).toHaveValue('makler@example.de');

  const lastName = `Mail${uniqueLetters()}`;
  const now = new Date().toISOString();
  const lead = kfzLead({
    first_name: 'Erika',
    last_name: lastName,
    call_time: 'Abends',
    captured_at: now,
    create_date: now,
    changed_date: now,
  });
  const posted = await request.post('/api/responses', { data: lead });
  expect(posted.status()).toBe(201);

  await expect.poll(async () => (await mailsAbout(lastName)).length).toBe(1);
  // Time for a second mail, were one coming (the worker's next runs).
  await page.waitForTimeout(2000);
  const mails = await mailsAbout(lastName);
  expect(mails).toHaveLength(1);
  const [mail] = mails as [MailFile];
  expect(mail.to).toBe('makler@example.de');
  expect(mail.subject).toMatch(new RegExp(`^Neue Anfrage: .+ – Erika ${lastName}$`));
  expect(mail.text).toContain(`Name: „Erika ${lastName}“`);
  expect(mail.text).toContain('Rückruf gewünscht: „Abends“');
  expect(mail.text).toMatch(/Eingegangen am \d\d\.\d\d\.\d{4}, \d\d:\d\d\./);
  expect(mail.text).toContain(`${new URL(baseURL).origin}/surveydesk/customer/`);
  expect(mail.text).not.toContain(lead.email);
  expect(mail.text).not.toContain(lead.phone);
}
