import { expect, test, type Page } from '@playwright/test';
import { berlinDate } from '../src/domain/calendar.ts';
import { deskCustomerAnswersPath, deskPaths } from '../src/domain/routes.ts';
import { admin, openSignedIn, submitTabalugaLead } from './helpers/desk.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';

// A lead's status against the built server and its gateway: a lead sent on the public site is
// 'Neu', staff set 'Kontaktiert' with a note on the lead page, the history shows who and when,
// and the dashboard's counts per status follow.

async function statusCounts(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Willkommen' })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const card = page.getByRole('region', { name: 'Leads nach Status', exact: true });
  const count = async (label: string) =>
    Number(
      (
        await card
          .locator('dl > div')
          .filter({ has: page.getByRole('link', { name: label, exact: true }) })
          .locator('dd')
          .innerText()
      )
        .replace(/\./g, '')
        .trim(),
    );
  return { new: await count('Neu'), contacted: await count('Kontaktiert') };
}

test('staff set a lead to Kontaktiert with a note; the history and the dashboard show it', async ({
  page,
  context,
}) => {
  await openSignedIn(page, deskPaths.dashboard);
  const before = await statusCounts(page);

  const lastName = `Status${Math.random()
    .toString(36)
    .replace(/[^a-z]/g, '')
    .slice(0, 6)}`;
  const visitor = await context.newPage();
  await submitTabalugaLead(visitor, lastName, 'status');
  await visitor.close();

  await page.reload();
  expect(await statusCounts(page)).toEqual({ ...before, new: before.new + 1 });
  const link = page
    .getByRole('region', { name: 'Neueste Leads', exact: true })
    .getByRole('link', { name: `Jürgen ${lastName}` });
  const customerId = Number(/[?&]id=(\d+)/.exec((await link.getAttribute('href')) ?? '')?.[1]);
  expect(customerId).toBeGreaterThan(0);

  await page.goto(deskCustomerAnswersPath(customerId));
  await expect(page.getByRole('region', { name: /^Tabaluga vom/ })).toBeVisible();
  const lead = page.getByRole('region', { name: 'Status', exact: true });
  await expect(lead.getByText(/^Aktueller Status:/)).toHaveText('Aktueller Status: Neu');
  const history = page.getByRole('region', { name: 'Verlauf', exact: true });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history.getByRole('listitem').first()).toHaveText(
    /^Neu – \d\d\.\d\d\.\d{4}, \d\d:\d\d – Eingang$/,
  );

  await lead
    .getByLabel('Notiz zur Statusänderung (optional)')
    .fill('Rückruf erreicht, Angebot für zwei Kinder gewünscht');
  await expect(lead.getByRole('radio')).toHaveCount(6);
  await expect(lead.getByRole('radio', { name: 'Neu (aktuell)' })).toBeChecked();
  await expectNoAxeViolations(page);

  await lead.getByRole('radio', { name: 'Kontaktiert', exact: true }).check();
  const saved = page.waitForResponse((response) => response.url().includes('/rpc/set_lead_status'));
  await lead.getByRole('button', { name: 'Status ändern' }).click();
  expect((await saved).ok()).toBe(true);
  await expect(lead.getByText(/^Aktueller Status:/)).toHaveText('Aktueller Status: Kontaktiert');
  await expect(lead.getByRole('status')).toHaveText('Status auf „Kontaktiert“ gesetzt.');
  await expect(lead.getByLabel('Notiz zur Statusänderung (optional)')).toHaveValue('');
  await expect(history.getByRole('listitem')).toHaveCount(2);
  // Who (the admin has no display name: the address) and when (today, Berlin time).
  const today = berlinDate(new Date().toISOString());
  await expect(history.getByRole('listitem').nth(1)).toHaveText(
    new RegExp(
      `^Kontaktiert – ${today.replace(/\./g, '\\.')}, \\d\\d:\\d\\d – ${admin.email.replace(/\./g, '\\.')}` +
        'Notiz: Rückruf erreicht, Angebot für zwei Kinder gewünscht$',
    ),
  );
  await expectNoAxeViolations(page);

  // Kept: after a reload the lead and its history say the same.
  await page.reload();
  await expect(lead.getByText(/^Aktueller Status:/)).toHaveText('Aktueller Status: Kontaktiert');
  await expect(history.getByRole('listitem')).toHaveCount(2);

  await page.goto(deskPaths.dashboard);
  expect(await statusCounts(page)).toEqual({ new: before.new, contacted: before.contacted + 1 });
  await expect(
    page
      .getByRole('region', { name: 'Leads nach Status', exact: true })
      .getByRole('link', { name: 'Kontaktiert' }),
  ).toHaveAttribute('href', `${deskPaths.customers}?status=contacted`);
});
