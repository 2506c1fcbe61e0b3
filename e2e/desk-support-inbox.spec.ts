import { expect, test, type Page } from '@playwright/test';
import { deskPaths } from '../src/domain/routes.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';
import { createStaffAccount, signInAs } from './helpers/desk.ts';

// The support inbox (issue 21, item 9) against the built server and its gateway: a staff member
// sends a message on the support screen, the admin sees it unread on the bell and in the list,
// marks it read and done, and the bell counts one less. Other journeys share the database and
// send support messages too, so the bell is compared with what it showed before.

const suffix = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const staff = { email: `support-${suffix}@example.de`, password: 'Support-Passwort-123' };
const text = `Wie lege ich einen Fragebogen für die Messe an? (${suffix})`;

const bell = (page: Page) => page.getByRole('button', { name: /^Benachrichtigungen/ });

/** The number the bell announces: 'Benachrichtigungen: 2 ungelesene Support-Nachrichten'. */
async function unreadOnBell(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute('aria-label')) ?? '';
  return Number(/(\d+) ungelesene/.exec(label)?.[1] ?? 0);
}

/** The inbox heading's count, shown once the unread count the bell uses has loaded. */
async function unreadInInbox(page: Page): Promise<number> {
  const section = page.getByRole('region', { name: 'Support-Nachrichten' });
  const count = section.getByText(/^(Alle gelesen|\d+ ungelesen)$/);
  await expect(count).toBeVisible();
  return Number(/\d+/.exec(await count.innerText())?.[0] ?? 0);
}

test('a staff member’s message reaches the admin, who marks it read and done', async ({
  page,
  browser,
}) => {
  // Two accounts, a registration with its mail and two axe runs.
  test.setTimeout(90_000);
  // Leaves `page` signed in as the admin.
  await createStaffAccount(page, staff);
  await page.goto(deskPaths.support);
  const before = await unreadInInbox(page);
  await expect.poll(() => unreadOnBell(page)).toBe(before);

  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await signInAs(staffPage, staff);
  await staffPage.goto(deskPaths.support);
  const form = staffPage.getByRole('form', { name: 'Nachricht an den Support' });
  // Name and address are the account's own, shown and not typed.
  await expect(form.getByLabel('E-Mail-Adresse')).toHaveValue(staff.email);
  const sender = await form.getByLabel('Name').inputValue();
  expect(sender).not.toBe('');
  await form.getByLabel('Nachricht').fill(text);
  await form.getByRole('button', { name: 'Senden' }).click();
  await expect(form.getByRole('status')).toHaveText('Vielen Dank! Ihre Nachricht wurde gesendet.');
  // Staff read no messages: no inbox, nothing on the bell.
  await expect(staffPage.getByRole('heading', { name: 'Support-Nachrichten' })).toHaveCount(0);
  // (The bell may count due follow-ups that other journeys left, depending on the hour.)
  await expect(bell(staffPage)).toHaveAccessibleName(
    /^Benachrichtigungen(: \d+ fällige Wiedervorlagen?)?$/,
  );
  await staffContext.close();

  await page.goto(deskPaths.dashboard);
  await expect.poll(() => unreadOnBell(page)).toBe(before + 1);
  await bell(page).click();
  const notifications = page.locator('#desk-notifications');
  await expect(notifications).toContainText(/\d+ ungelesene Support-Nachricht/);
  await notifications.getByRole('link', { name: 'Zu den Support-Nachrichten' }).click();
  await expect(page).toHaveURL(/\/surveydesk\/support$/);

  const open = page.getByRole('list', { name: 'Offene Support-Nachrichten' });
  const message = open.getByRole('article').filter({ hasText: text });
  await expect(message).toBeVisible();
  await expect(message.getByRole('heading', { name: sender })).toBeVisible();
  await expect(message.getByText('Ungelesen', { exact: true })).toBeVisible();
  await expect(message.getByRole('link', { name: staff.email })).toHaveAttribute(
    'href',
    `mailto:${staff.email}`,
  );
  await expect(message.locator('time')).toHaveText(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
  expect(await unreadInInbox(page)).toBe(before + 1);
  await expectNoAxeViolations(page);

  // By keyboard: the button keeps the focus and turns into its undo.
  await message.getByRole('button', { name: 'Als gelesen markieren' }).focus();
  await page.keyboard.press('Enter');
  const markUnread = message.getByRole('button', { name: 'Als ungelesen markieren' });
  await expect(markUnread).toBeFocused();
  await expect(message.getByText('Gelesen', { exact: true })).toBeVisible();
  await expect.poll(() => unreadOnBell(page)).toBe(before);

  await message.getByRole('button', { name: 'Erledigt' }).click();
  await expect(open.getByRole('article').filter({ hasText: text })).toHaveCount(0);
  const undo = page.getByRole('button', { name: 'Rückgängig' });
  await expect(undo).toBeFocused();
  await expect(page.getByText('Erledigt: Nachricht von Mia Mitarbeiterin.')).toBeVisible();

  await page
    .getByRole('group', { name: 'Nachrichten anzeigen' })
    .getByRole('button', { name: 'Erledigt' })
    .click();
  await expect(page).toHaveURL(/\?nachrichten=erledigt$/);
  const settled = page
    .getByRole('list', { name: 'Erledigte Support-Nachrichten' })
    .getByRole('article')
    .filter({ hasText: text });
  await expect(settled).toContainText(/erledigt am \d{2}\.\d{2}\.\d{4}/);
  await expect(settled.getByRole('button', { name: 'Wieder öffnen' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The state is the database's: a reload shows the same, and the bell stays down.
  await page.reload();
  await expect(settled).toBeVisible();
  await expect.poll(() => unreadOnBell(page)).toBe(before);
});
