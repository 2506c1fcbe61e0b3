import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Download, type Page } from '@playwright/test';
import { berlinToday } from '../src/domain/calendar.ts';
import { deskPaths } from '../src/domain/routes.ts';
import { questionnaireLead, uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { admin, openSignedIn } from './helpers/desk.ts';
import { expectNoAxeViolations, serviceRoleHeaders } from './helpers/hub.ts';

// A person's rights in Survey Desk against the built server: 'Daten exportieren' (both files read
// back), 'Kunde löschen', then the database holds nothing of the person beyond the proofs, and
// the access log shows each step with the account that took it.

const uniqueLetters = () =>
  Array.from(
    { length: 8 },
    () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)],
  ).join('');

/** The service role's REST reads, keyed with the secret e2e/serve.mjs's server generated. */
async function serviceRest(request: APIRequestContext, pathAndQuery: string): Promise<unknown[]> {
  const response = await request.get(`/rest/v1/${pathAndQuery}`, {
    headers: await serviceRoleHeaders(),
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as unknown[];
}

async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download]: [Download, void] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(file, 'utf8') };
}

/** Tables that hold text a person could be in (the database test scans every table). */
const tablesWithText = [
  'users',
  'responses',
  'answers',
  'support_messages',
  'access_log',
  'export_log',
  'consent_records',
  'erasures',
  'analysis_daily_answers',
];

test('export a customer’s data, erase them, and find each step in the access log', async ({
  page,
  request,
}) => {
  const lastName = `Rechte${uniqueLetters()}`;
  const email = uniqueEmail('rechte');
  const lead = questionnaireLead({
    email,
    last_name: lastName,
    first_name: 'Wiebke',
    phone: '0171 4455667',
    offer_info: true,
  });
  const posted = await request.post('/api/responses', { data: lead });
  expect(posted.status()).toBe(201);

  await openSignedIn(page, deskPaths.customers);
  await page.getByLabel('Suche').fill(lastName);
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await rows
    .first()
    .getByRole('link', { name: `Details zu Wiebke ${lastName}` })
    .click();
  const sidebar = page.getByRole('dialog', { name: 'Kunden Details' });
  await expect(sidebar.getByLabel('E-Mail')).toHaveValue(email);
  const customerId = Number(new URL(page.url()).searchParams.get('id'));
  expect(customerId).toBeGreaterThan(0);

  // Export: the JSON reads back with the lead and its answers, the document is German and dated.
  const json = await downloaded(page, 'JSON-Datei herunterladen');
  expect(json.name).toBe(`kundendaten-${customerId}-${berlinToday()}.json`);
  const data = JSON.parse(json.text) as {
    customer: { email: string; last_name: string };
    leads: { client_id: string; offer_info: boolean; answers: { answer: string }[] }[];
  };
  expect(data.customer).toMatchObject({ email, last_name: lastName });
  expect(data.leads).toHaveLength(1);
  expect(data.leads[0]).toMatchObject({ client_id: lead.client_id, offer_info: true });
  expect(data.leads[0]!.answers.map((answer) => answer.answer)).toEqual(
    lead.answers.map((answer) => answer.answer),
  );
  await expect(sidebar.getByText('Die JSON-Datei wurde heruntergeladen.')).toBeVisible();

  const html = await downloaded(page, 'Dokument herunterladen');
  expect(html.name).toBe(`kundendaten-${customerId}-${berlinToday()}.html`);
  expect(html.text).toContain('<html lang="de">');
  expect(html.text).toContain(`Gespeicherte Daten zu Wiebke ${lastName}`);
  const [year, month, day] = berlinToday().split('-');
  expect(html.text).toContain(`Stand: ${day}.${month}.${year}`);
  for (const answer of lead.answers) expect(html.text).toContain(answer.answer);

  // The sidebar's log shows this account's look and exports.
  await sidebar.getByRole('button', { name: 'Zugriffsprotokoll anzeigen' }).click();
  const customerLog = sidebar.getByRole('table', { name: 'Zugriffe auf die Daten dieses Kunden' });
  await expect(customerLog.getByRole('row', { name: /Kundendaten geöffnet/ })).toContainText(
    admin.email,
  );
  await expect(customerLog.getByRole('row', { name: /Daten exportiert/ }).first()).toContainText(
    admin.email,
  );
  await expectNoAxeViolations(page);

  // Erasure: the confirmation names what goes and what is kept.
  await sidebar.getByRole('button', { name: 'Kunde löschen' }).click();
  const confirm = page.getByRole('dialog', { name: 'Kunde löschen?' });
  await expect(confirm).toContainText('1 Anfrage mit 3 Antworten');
  await expect(confirm).toContainText('1 Einwilligungsnachweis (§ 7a UWG)');
  await expectNoAxeViolations(page);
  await confirm.getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(sidebar).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: 'Der Kunde wurde gelöscht.' }),
  ).toBeVisible();
  // The list leaves the search for the erased person (asking it again would log their name).
  await expect(page.getByLabel('Suche')).toHaveValue('');
  await expect(page).not.toHaveURL(/[?&]q=/);

  // The database: nothing with the address, the name or the number, but the hashed proof and the
  // erasure record.
  for (const table of tablesWithText) {
    const text = JSON.stringify(await serviceRest(request, `${table}?select=*`)).toLowerCase();
    expect({ table, hasEmail: text.includes(email) }).toEqual({ table, hasEmail: false });
    expect({ table, hasName: text.includes(lastName.toLowerCase()) }).toEqual({
      table,
      hasName: false,
    });
    expect({ table, hasPhone: text.includes('4455667') }).toEqual({ table, hasPhone: false });
  }
  expect(await serviceRest(request, `erasures?customer_id=eq.${customerId}`)).toEqual([
    expect.objectContaining({ customer_id: customerId, staff_email: admin.email }),
  ]);
  expect(await serviceRest(request, `consent_records?client_id=eq.${lead.client_id}`)).toHaveLength(
    1,
  );

  // The admin's own entries on the staff page: search (term removed with the person), look,
  // export, erasure.
  await page.goto(deskPaths.staff);
  await page.getByRole('button', { name: `Zugriffsprotokoll von ${admin.email}` }).click();
  const accountLog = page.getByRole('table', { name: `Zugriffe durch ${admin.email}` });
  await expect(accountLog.getByRole('row', { name: /Kunde gelöscht/ })).toContainText(
    `Nr. ${customerId}`,
  );
  await expect(accountLog.getByRole('row', { name: /Daten exportiert/ }).first()).toContainText(
    `Nr. ${customerId}`,
  );
  await expect(accountLog.getByRole('row', { name: /Kundendaten geöffnet/ }).first()).toContainText(
    `Nr. ${customerId}`,
  );
  await expect(
    accountLog.getByRole('row', { name: /Suchbegriff entfernt \(Person gelöscht\)/ }),
  ).toHaveCount(1);
  await expectNoAxeViolations(page);
});
