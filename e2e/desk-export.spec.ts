import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import { berlinToday } from '../src/domain/calendar.ts';
import { deskPaths } from '../src/domain/routes.ts';
import { kfzLead, questionnaireLead, uniqueEmail } from '../src/testing/lead-fixtures.ts';
import { parseCsv } from '../src/testing/parse-csv.ts';
import { admin, createStaffAccount, openSignedIn, signInAs } from './helpers/desk.ts';
import { expectNoAxeViolations } from './helpers/hub.ts';

// Export against the built server: leads sent through the hub, exported as CSV and XLSX from the
// customers screen by the admin and read back here; then a staff account without the export right
// sees no button and is refused by the database, until the admin's setting lets staff export.

/** Letters only: names stay valid for the hub's rules and unique across runs. */
const uniqueLetters = () =>
  Array.from(
    { length: 8 },
    () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)],
  ).join('');

const family = uniqueLetters();
const formula = '=HYPERLINK("x")';
const pkvAnswers = [
  { question_id: 4, answer: 'Selbstständig oder freiberuflich' },
  { question_id: 5, answer: 'Gesetzlich freiwillig versichert' },
  { question_id: 6, answer: 'Chefarztbehandlung, Beitragsrückerstattung' },
  { question_id: 7, answer: 'Bis 1.000 €' },
  { question_id: 8, answer: '1984' },
  { question_id: 9, answer: 'So bald wie möglich' },
  { question_id: 10, answer: formula },
];

const leads = {
  pkv: questionnaireLead({
    form_id: 2,
    answers: pkvAnswers,
    first_name: 'Jürgen',
    last_name: `Größe${family}`,
    email: uniqueEmail(`pkv.${family}`),
  }),
  tabaluga: questionnaireLead({
    first_name: 'Jörg',
    last_name: `Müller${family}`,
    email: uniqueEmail(`tabaluga.${family}`),
  }),
  kfz: kfzLead({ first_name: 'Änne', last_name: `Weiß${family}` }),
};

/** What a cell shows once the formula defence has done its work. */
const neutralised = `'${formula}`;

/** Header and rows as objects keyed by column title, so each cell is looked up by name. */
function byHeader(rows: unknown[][]): Record<string, unknown>[] {
  const [header, ...data] = rows;
  return data.map((row) =>
    Object.fromEntries((header ?? []).map((title, index) => [String(title), row[index]])),
  );
}

/** Exports through the menu; the file and the row count the status announces. */
async function exportFrom(page: Page, format: 'CSV (Excel, Semikolon)' | 'Excel-Datei (XLSX)') {
  await page.getByRole('button', { name: 'Exportieren' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: format }).click(),
  ]);
  const status = page.getByRole('status').filter({ hasText: 'Export fertig' });
  await expect(status).toHaveText(/^Export fertig: \d+ Anfragen? in (anfragen-|kunden_)/);
  const rows = Number(/(\d+) Anfrage/.exec((await status.textContent()) ?? '')?.[1]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(file), file, rows };
}

const csvTable = (bytes: Buffer) => byHeader(parseCsv(bytes.toString('utf8').slice(1)));

async function xlsxTable(file: string) {
  const [sheet] = await readXlsxFile(file);
  return byHeader(sheet!.data as unknown[][]);
}

/** A date cell of the sheet as the spreadsheet shows it (Berlin's clock, TT.MM.JJJJ HH:MM). */
function shownDate(value: unknown): string {
  expect(value).toBeInstanceOf(Date);
  // The reader rounds the serial number; the nearest minute is what the cell shows.
  const at = new Date(Math.round((value as Date).getTime() / 60_000) * 60_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getUTCDate())}.${two(at.getUTCMonth() + 1)}.${at.getUTCFullYear()} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}`;
}

/** Every lead of the fixture, with its answers, in a table read from either file. */
function expectFixture(rows: Record<string, unknown>[], text: (value: unknown) => string) {
  expect(rows).toHaveLength(3);
  const row = (lastName: string) => {
    const found = rows.filter((r) => r.Nachname === lastName);
    expect(found, lastName).toHaveLength(1);
    return found[0]!;
  };
  const pkv = row(leads.pkv.last_name);
  expect(pkv.Vorname).toBe('Jürgen');
  expect(pkv.Fragebogen).toBe('PKV');
  expect(pkv.Quelle).toBe('Website');
  expect(pkv.Status).toBe('Neu');
  expect(pkv['AGB akzeptiert']).toBe('Ja');
  expect(pkv['Weitere Angebote erwünscht (freiwillig)']).toBe('Ja');
  expect(text(pkv.Erfasst)).toBe('22.11.2026 10:00');
  expect(pkv['PKV: Welche Leistungen sind Ihnen besonders wichtig?']).toBe(
    'Chefarztbehandlung, Beitragsrückerstattung',
  );
  expect(pkv['PKV: In welchem Jahr sind Sie geboren?']).toBe('1984');
  expect(pkv['PKV: Gibt es etwas, das wir für Ihr Angebot wissen sollten?']).toBe(neutralised);

  const tabaluga = row(leads.tabaluga.last_name);
  expect(tabaluga.Vorname).toBe('Jörg');
  expect(tabaluga.Fragebogen).toBe('Tabaluga');
  expect(tabaluga['Tabaluga: Wie viele Kinder möchten Sie absichern?']).toBe('Zwei');
  expect(tabaluga['Tabaluga: Wann sind Ihre Kinder geboren?']).toBe('01.05.2019, 14.09.2021');
  expect(tabaluga['Tabaluga: Welchen monatlichen Betrag möchten Sie pro Kind sparen?']).toBe(
    '50 €',
  );

  const kfz = row(leads.kfz.last_name);
  expect(kfz.Vorname).toBe('Änne');
  expect(kfz.Fragebogen).toBe('KFZ-Rückruf');
  expect(kfz['Rückrufzeit']).toBe('Nachmittags');
  // The phone number starts with '+': neutralised like any text a formula could start with.
  expect(kfz.Telefon).toBe("'+49 30 123456");
}

/** A gateway RPC with the signed-in session's token (spec 3: localStorage 'user'), as supabase-js sends it. */
async function rpc(page: Page, name: string, args: object) {
  return page.evaluate(
    async ({ name, args }) => {
      const config = (await (await fetch('/app-config.json')).json()) as {
        supabaseAnonKey: string;
      };
      const session = JSON.parse(localStorage.getItem('user') ?? '{}') as {
        access_token: string;
      };
      const response = await fetch(`/rest/v1/rpc/${name}`, {
        method: 'POST',
        headers: {
          apikey: config.supabaseAnonKey,
          authorization: `Bearer ${session.access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(args),
      });
      return { status: response.status, body: (await response.json()) as { code?: string } };
    },
    { name, args },
  );
}

async function setStaffCanExport(page: Page, allowed: boolean) {
  await page.goto(deskPaths.staff);
  const setting = page.getByLabel('Mitarbeitende dürfen exportieren');
  await expect(setting).toBeEnabled();
  if ((await setting.isChecked()) === allowed) return;
  await setting.setChecked(allowed);
  await expect(page.getByRole('status').filter({ hasText: 'Gespeichert' })).toHaveText(
    allowed
      ? 'Gespeichert: Mitarbeitende dürfen jetzt exportieren.'
      : 'Gespeichert: Nur Admins dürfen exportieren.',
  );
}

test.describe('export', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async ({ request }) => {
    for (const lead of Object.values(leads)) {
      const sent = await request.post('/api/responses', { data: lead });
      expect(sent.ok(), await sent.text()).toBe(true);
    }
  });

  test('the admin exports the searched customers as CSV and XLSX and reads every answer', async ({
    page,
  }) => {
    await openSignedIn(page, `${deskPaths.customers}?q=${family}`);
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(3);

    const csv = await exportFrom(page, 'CSV (Excel, Semikolon)');
    expect(csv.rows).toBe(3);
    expect(csv.name).toBe(`kunden_suche-${family}_${berlinToday()}.csv`);
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = csv.bytes.toString('utf8').slice(1);
    const csvRows = parseCsv(text);
    expect(csvRows[0]?.slice(0, 5)).toEqual([
      'Anfrage-Nr.',
      'Eingang',
      'Erfasst',
      'Fragebogen',
      'Quelle',
    ]);
    expect(csvRows.every((row) => row.length === csvRows[0]?.length)).toBe(true);
    expectFixture(byHeader(csvRows), String);
    // The raw text keeps the quote-doubling of the neutralised formula.
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    await expectNoAxeViolations(page);

    const xlsx = await exportFrom(page, 'Excel-Datei (XLSX)');
    expect(xlsx.rows).toBe(3);
    expect(xlsx.name).toBe(`kunden_suche-${family}_${berlinToday()}.xlsx`);
    const xlsxRows = await xlsxTable(xlsx.file);
    expect(xlsxRows.every((row) => typeof row['Anfrage-Nr.'] === 'number')).toBe(true);
    expectFixture(xlsxRows, shownDate);
  });

  test('Analyse exports its filter: one questionnaire, its questions as columns', async ({
    page,
  }) => {
    // The fixture's leads were captured on 22 November 2026 (src/testing/lead-fixtures.ts).
    await openSignedIn(
      page,
      `${deskPaths.analysis}?zeitraum=eigener&von=2026-11-22&bis=2026-11-22&fragebogen=2&quelle=website`,
    );
    const question = 'Gibt es etwas, das wir für Ihr Angebot wissen sollten?';
    for (const format of ['CSV (Excel, Semikolon)', 'Excel-Datei (XLSX)'] as const) {
      const file = await exportFrom(page, format);
      const rows = format.startsWith('CSV') ? csvTable(file.bytes) : await xlsxTable(file.file);
      expect(rows).toHaveLength(file.rows);
      expect(rows.every((row) => row.Fragebogen === 'PKV' && row.Quelle === 'Website')).toBe(true);
      const pkv = rows.filter((row) => row.Nachname === leads.pkv.last_name);
      expect(pkv).toHaveLength(1);
      expect(pkv[0]?.[question]).toBe(neutralised);
      expect(pkv[0]?.['In welchem Jahr sind Sie geboren?']).toBe('1984');
      expect(rows.some((row) => row.Nachname === leads.tabaluga.last_name)).toBe(false);
    }
  });

  // A file this size makes the XLSX writer's zip library compress in workers of its own (blob:
  // addresses): blocked by the Content-Security-Policy, the export hung at 'Datei wird erstellt'.
  test('a large export of 400 leads is written as XLSX and read back whole', async ({
    page,
    request,
  }) => {
    // A name of its own: the other tests search for `family` and count its three customers.
    const crowd = `Menge${uniqueLetters()}`;
    for (let batch = 0; batch < 8; batch += 1) {
      const submissions = Array.from({ length: 50 }, (_, n) =>
        questionnaireLead({
          form_id: 2,
          answers: pkvAnswers,
          last_name: crowd,
          email: uniqueEmail(`menge${batch * 50 + n}`),
        }),
      );
      const sent = await request.post('/api/responses/batch', { data: { submissions } });
      expect(sent.ok(), await sent.text()).toBe(true);
    }
    await openSignedIn(page, `${deskPaths.customers}?q=${crowd.toLowerCase()}`);
    const xlsx = await exportFrom(page, 'Excel-Datei (XLSX)');
    expect(xlsx.rows).toBe(400);
    const rows = await xlsxTable(xlsx.file);
    expect(rows).toHaveLength(400);
    expect(
      rows.every(
        (row) => row.Nachname === crowd && row['PKV: In welchem Jahr sind Sie geboren?'] === '1984',
      ),
    ).toBe(true);
  });

  const staff = { email: `export-${family}@example.de`, password: 'Export-Passwort-123' };

  test('staff without the right see no export and the database refuses it', async ({ page }) => {
    await createStaffAccount(page, staff);
    await setStaffCanExport(page, false);

    await signInAs(page, staff);
    await page.goto(`${deskPaths.customers}?q=${family}`);
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Exportieren' })).toHaveCount(0);

    const pageRead = await rpc(page, 'export_responses', { export_id: 1 });
    expect(pageRead.status).toBe(403);
    expect(pageRead.body.code).toBe('42501');
    // The review's way around the right: the bulk selection behind the export.
    const walkedAround = await rpc(page, 'export_leads', {
      day_from: null,
      day_to: null,
      questionnaire_id: null,
      lead_channel: null,
      customer_search: family,
    });
    expect(walkedAround.status).toBe(403);
    expect(walkedAround.body.code).toBe('42501');
    const begun = await rpc(page, 'begin_export', {
      export_scope: 'customers',
      export_format: 'csv',
    });
    expect(begun.status).toBe(403);
    expect(begun.body.code).toBe('42501');
  });

  test("the admin's setting lets staff export; the admin reads every export in the log", async ({
    browser,
    page,
  }) => {
    await openSignedIn(page, deskPaths.staff);
    try {
      await setStaffCanExport(page, true);
      await expectNoAxeViolations(page);

      const staffContext = await browser.newContext();
      const staffPage = await staffContext.newPage();
      await signInAs(staffPage, staff);
      await staffPage.goto(`${deskPaths.customers}?q=${family}`);
      const csv = await exportFrom(staffPage, 'CSV (Excel, Semikolon)');
      expect(csv.rows).toBe(3);
      expect(csvTable(csv.bytes)).toHaveLength(3);
      await staffContext.close();

      await page.reload();
      const log = page.getByRole('table', { name: 'Die letzten Exporte' });
      const ofThisTest = log.getByRole('row').filter({ hasText: `Suche „${family}“` });
      await expect(ofThisTest).toHaveCount(3);
      await expect(ofThisTest.filter({ hasText: staff.email })).toHaveCount(1);
      await expect(ofThisTest.filter({ hasText: admin.email })).toHaveCount(2);
      await expect(ofThisTest.filter({ hasText: 'Excel (XLSX)' })).toHaveCount(1);
      await expect(ofThisTest.first()).toContainText('Kunden · gesamter Zeitraum · alle Anfragen');
      await expect(
        log
          .getByRole('row')
          .filter({
            hasText: 'Analyse · 22.11.2026 bis 22.11.2026 · Fragebogen: PKV · Quelle: Website',
          })
          .filter({ hasText: admin.email }),
      ).not.toHaveCount(0);
      for (const row of await ofThisTest.all()) {
        await expect(row.getByRole('cell', { name: '3', exact: true })).toHaveCount(1);
        await expect(row.getByRole('cell', { name: 'abgeschlossen', exact: true })).toHaveCount(1);
      }
    } finally {
      // Other tests share the database: staff go back to the default, no export.
      await setStaffCanExport(page, false);
    }
  });
});
