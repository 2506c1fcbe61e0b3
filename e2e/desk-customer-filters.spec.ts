import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { deskPaths } from '../src/domain/routes.ts';
import { questionnaireLead, uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { openSignedIn } from './helpers/desk.ts';
import { expectNoAxeViolations, serviceRoleHeaders } from './helpers/hub.ts';

// The customer list's filters against the built server: two leads of different questionnaires
// sent through the hub, found by questionnaire and by status (set as the service role until the
// desk's status change is on main), the filters kept in the address over a reload, the empty
// state, and axe with the filter bar open.

/** Letters only: the public forms refuse digits in names. */
const uniqueLetters = () =>
  Array.from(
    { length: 8 },
    () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)],
  ).join('');

const pkvAnswers = [
  { question_id: 4, answer: 'Selbstständig oder freiberuflich' },
  { question_id: 5, answer: 'Gesetzlich freiwillig versichert' },
  { question_id: 6, answer: 'Chefarztbehandlung, Beitragsrückerstattung' },
  { question_id: 7, answer: 'Bis 1.000 €' },
  { question_id: 8, answer: '1984' },
  { question_id: 9, answer: 'So bald wie möglich' },
  { question_id: 10, answer: 'Keine' },
];

const dataRows = (page: Page) => page.getByRole('table').locator('tbody tr');

async function setStatus(request: APIRequestContext, email: string, status: string) {
  const response = await request.patch(`/rest/v1/responses?email=eq.${encodeURIComponent(email)}`, {
    headers: { ...(await serviceRoleHeaders()), 'content-type': 'application/json' },
    data: { status },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test('filter the customers by questionnaire and status, keep them over a reload, say when none match', async ({
  page,
  request,
}) => {
  const family = `Filter${uniqueLetters()}`;
  const tabaluga = questionnaireLead({
    first_name: 'Tilda',
    last_name: family,
    phone: '0171 2345678',
    email: uniqueEmail(`tabaluga.${family.toLowerCase()}`),
  });
  const pkv = questionnaireLead({
    form_id: 2,
    answers: pkvAnswers,
    first_name: 'Paul',
    last_name: family,
    email: uniqueEmail(`pkv.${family.toLowerCase()}`),
  });
  for (const lead of [tabaluga, pkv]) {
    const sent = await request.post('/api/responses', { data: lead });
    expect(sent.status(), await sent.text()).toBe(201);
  }

  await openSignedIn(page, deskPaths.customers);
  await page.getByLabel('Suche').fill(family);
  await expect(dataRows(page)).toHaveCount(2);
  await expect(page.getByText('2 Kunden', { exact: true })).toBeVisible();
  // Both are new; phone and e-mail are links to call and write.
  await expect(dataRows(page).filter({ hasText: 'Tilda' })).toContainText('Neu');
  const tilda = dataRows(page).filter({ hasText: 'Tilda' });
  await expect(tilda.getByRole('link', { name: '0171 2345678' })).toHaveAttribute(
    'href',
    'tel:+491712345678',
  );
  await expect(tilda.getByRole('link', { name: tabaluga.email })).toHaveAttribute(
    'href',
    `mailto:${tabaluga.email}`,
  );

  // By questionnaire.
  await page.getByLabel('Fragebogen').selectOption({ label: 'PKV' });
  await expect(page).toHaveURL(/[?&]fragebogen=2(&|$)/);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText('Paul');
  await expect(page.getByText('1 Kunde', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // By status: the office has contacted Tilda.
  await setStatus(request, tabaluga.email, 'contacted');
  await page.getByRole('button', { name: 'Filter zurücksetzen' }).click();
  await expect(page).not.toHaveURL(/fragebogen=/);
  await page.getByLabel('Status').selectOption({ label: 'Kontaktiert' });
  await expect(page).toHaveURL(/[?&]status=contacted(&|$)/);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText('Tilda');
  await expect(dataRows(page).first()).toContainText('Kontaktiert');

  // The address keeps search and filters.
  await page.reload();
  await expect(page.getByLabel('Suche')).toHaveValue(family.toLowerCase());
  await expect(page.getByLabel('Status')).toHaveValue('contacted');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText('Tilda');

  // A combination nothing matches: Tilda's contacted lead is no PKV lead.
  await page.getByLabel('Fragebogen').selectOption({ label: 'PKV' });
  await expect(page.getByRole('status')).toHaveText('Keine Kunden passen zu diesen Filtern.');
  await expect(page.getByRole('table')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // A period that ends before it starts is refused at its field, the list stays as it is.
  await page.getByRole('button', { name: 'Filter zurücksetzen' }).click();
  // The period sits behind 'Weitere Filter'.
  await page.getByRole('button', { name: 'Weitere Filter' }).click();
  await page.getByLabel('Von').fill('2026-11-10');
  await expect(page).toHaveURL(/[?&]von=2026-11-10(&|$)/);
  await page.getByLabel('Bis').fill('2026-11-01');
  await expect(page.getByLabel('Bis')).toHaveAccessibleDescription(
    'Das Enddatum darf nicht vor dem Startdatum liegen.',
  );
  await expect(page).not.toHaveURL(/[?&]bis=/);
  await expectNoAxeViolations(page);
});
