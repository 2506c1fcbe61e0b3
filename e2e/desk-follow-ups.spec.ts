import { expect, test } from '@playwright/test';
import { deskPaths } from '../src/domain/routes.ts';
import { kfzLead } from '../src/testing/lead-fixtures.ts';
import { openSignedIn } from './helpers/desk.ts';
import { expectNoAxeViolations, serviceRoleHeaders } from './helpers/hub.ts';

// Follow-ups and notes against the built server: a KFZ lead with a callback wish brings its own
// follow-up, the dashboard's work list lists it and marks it done; a follow-up made by hand and a
// note added and corrected in the customer sidebar.

const uniqueLetters = () =>
  Math.random()
    .toString(36)
    .replace(/[^a-z]/g, '')
    .slice(0, 6);

interface StoredFollowUp {
  id: number;
  customer_id: number;
  due_at: string;
  body: string;
  automatic: boolean;
  assignee: string | null;
}

test('a KFZ lead’s callback wish is due on the dashboard and done in one click', async ({
  page,
  request,
}) => {
  const lastName = `Rueckruf${uniqueLetters()}`;
  const lead = kfzLead({ first_name: 'Karla', last_name: lastName, call_time: 'Nachmittags' });
  const sent = await request.post('/api/responses', { data: lead });
  expect(sent.ok(), await sent.text()).toBe(true);
  // Sent again (a tablet retrying): still one follow-up.
  await request.post('/api/responses', { data: lead });

  const headers = await serviceRoleHeaders();
  const customers = await request.get(
    `/rest/v1/users?select=id&email=eq.${encodeURIComponent(lead.email)}`,
    { headers },
  );
  const [customer] = (await customers.json()) as { id: number }[];
  const found = await request.get(
    `/rest/v1/follow_ups?select=id,customer_id,due_at,body,automatic,assignee&customer_id=eq.${customer!.id}`,
    { headers },
  );
  const followUps = (await found.json()) as StoredFollowUp[];
  expect(followUps).toEqual([
    expect.objectContaining({
      body: 'Rückruf gewünscht: Nachmittags (14–17 Uhr)',
      automatic: true,
      assignee: null,
    }),
  ]);
  // The afternoon it waits for may be today's, tomorrow's or Monday's: the follow-up is moved
  // back to a day long past, so the dashboard lists it first among the oldest overdue ones.
  const moved = await request.patch(`/rest/v1/follow_ups?id=eq.${followUps[0]!.id}`, {
    headers,
    data: { due_at: '2020-01-06T08:00:00Z' },
  });
  expect(moved.ok(), await moved.text()).toBe(true);

  await openSignedIn(page, deskPaths.dashboard);
  const due = page.getByRole('region', { name: 'Überfällig – die ältesten zuerst' });
  const item = due.getByRole('listitem').filter({ hasText: `Karla ${lastName}` });
  await expect(item).toContainText('Rückruf gewünscht: Nachmittags (14–17 Uhr)');
  await expect(item).toContainText('Zuständig: niemand (offen für alle)');
  await expect(item.getByRole('link', { name: `Karla ${lastName}`, exact: true })).toHaveAttribute(
    'href',
    `${deskPaths.customers}?id=${customer!.id}`,
  );
  await expect(
    page.getByRole('button', { name: /^Benachrichtigungen: \d+ fällige/ }),
  ).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expectNoAxeViolations(page);

  await item.getByRole('button', { name: /^Erledigt/ }).click();
  await expect(item).toHaveCount(0);
  // A click on the wrong line is taken back, and then done for good.
  await page.getByRole('button', { name: 'Rückgängig' }).click();
  await expect(item).toContainText('Rückruf gewünscht: Nachmittags (14–17 Uhr)');
  await item.getByRole('button', { name: /^Erledigt/ }).click();
  await expect(item).toHaveCount(0);
  await page.reload();
  await expect(due).toBeVisible();
  await expect(due.getByRole('listitem').filter({ hasText: `Karla ${lastName}` })).toHaveCount(0);
  const after = await request.get(`/rest/v1/follow_ups?select=done_at&id=eq.${followUps[0]!.id}`, {
    headers,
  });
  expect(((await after.json()) as { done_at: string | null }[])[0]!.done_at).not.toBeNull();
});

test('in the customer sidebar: a follow-up made by hand, and a note added and corrected', async ({
  page,
  request,
}) => {
  const lastName = `Notiz${uniqueLetters()}`;
  const lead = kfzLead({ first_name: 'Nora', last_name: lastName, call_time: '' });
  const sent = await request.post('/api/responses', { data: lead });
  expect(sent.ok(), await sent.text()).toBe(true);
  const headers = await serviceRoleHeaders();
  const customers = await request.get(
    `/rest/v1/users?select=id&email=eq.${encodeURIComponent(lead.email)}`,
    { headers },
  );
  const [customer] = (await customers.json()) as { id: number }[];

  await openSignedIn(page, `${deskPaths.customers}?id=${customer!.id}`);
  const sidebar = page.getByRole('dialog', { name: 'Kunden Details' });
  const followUps = sidebar.getByRole('region', { name: 'Wiedervorlagen' });
  await expect(followUps).toContainText('Keine offenen Wiedervorlagen.');

  await followUps.getByRole('button', { name: 'Wiedervorlage anlegen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Wiedervorlage anlegen' });
  await expect(dialog.getByLabel('Zuständig')).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel('Datum (Berlin)').fill('');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog.getByText('Bitte ein Datum wählen.')).toBeVisible();
  await dialog.getByLabel('Datum (Berlin)').fill('2030-01-15');
  await dialog.getByLabel('Uhrzeit (Berlin)').fill('09:30');
  await dialog.getByLabel('Text').fill('Angebot Kfz besprechen');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog).toBeHidden();
  const made = followUps.getByRole('listitem').filter({ hasText: 'Angebot Kfz besprechen' });
  await expect(made).toContainText('15.01.2030, 09:30 Uhr');
  await expect(made).toContainText(`Zuständig: admin@example.de`);

  const notes = sidebar.getByRole('region', { name: 'Notizen' });
  await expect(notes).toContainText('Noch keine Notizen.');
  await notes.getByLabel('Neue Notiz').fill('Möchte Rückruf erst nächste Woche');
  await notes.getByRole('button', { name: 'Notiz hinzufügen' }).click();
  // While edited, the note's text is in a field (no text of the item): the newest item it is.
  const note = notes.getByRole('listitem').first();
  await expect(note).toContainText('Möchte Rückruf erst nächste Woche');
  await expect(note).toContainText('admin@example.de');
  await expect(note).not.toContainText('bearbeitet');
  await note.getByRole('button', { name: 'Bearbeiten' }).click();
  await note.getByLabel('Notiz bearbeiten').fill('Möchte Rückruf am Dienstag');
  await note.getByRole('button', { name: 'Speichern' }).click();
  await expect(note).toContainText('Möchte Rückruf am Dienstag');
  await expect(note).toContainText('bearbeitet');
  await expectNoAxeViolations(page);

  await made.getByRole('button', { name: /^Erledigt/ }).click();
  await expect(followUps).toContainText('Keine offenen Wiedervorlagen.');
});
