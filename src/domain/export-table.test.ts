import { describe, expect, it } from 'vitest';
import { berlinWallClock } from './calendar.ts';
import {
  createCsvBuilder,
  createExportTable,
  formatDateCell,
  neutralise,
  type ExportQuestion,
  type ExportResponseRow,
} from './export-table.ts';
import { parseCsv } from '../testing/parse-csv.ts';

const questions: ExportQuestion[] = [
  { id: 10, formId: 1, formTitle: 'PKV', question: 'Beruf' },
  { id: 11, formId: 1, formTitle: 'PKV', question: 'Wünsche' },
];

function response(overrides: Partial<ExportResponseRow> = {}): ExportResponseRow {
  return {
    response_id: 7,
    lead_at: '2026-03-29T00:30:00Z',
    captured_at: '2026-03-29T00:30:00Z',
    received_at: '2026-03-29T02:15:00Z',
    form_id: 1,
    form_title: 'PKV',
    source: 'questionnaire',
    channel: 'fair_tablet',
    status: 'contacted',
    customer_id: 42,
    salutation: 'Herr',
    title: null,
    first_name: 'Jürgen',
    last_name: 'Größe',
    email: 'jg@example.de',
    phone: '+49 170 1234567',
    adress: 'Hauptstraße 1',
    postcode: '50667',
    city: 'Köln',
    birthdate: '1980-02-01',
    call_time: null,
    existing_customer: null,
    message: null,
    offer_info: true,
    terms_accepted: true,
    data_processing_consent: false,
    consent_version: '2026-11',
    cookie_consent: 'necessary,statistics',
    cookie_consent_version: '3',
    answers: [
      { question_id: 10, question: 'Beruf', answer: 'Lehrer; "verbeamtet"' },
      { question_id: 11, question: 'Wünsche', answer: '=HYPERLINK("x")' },
    ],
    ...overrides,
  };
}

/** The file as text, its BOM kept (Blob.text() would drop it). */
const csvOf = async (builder: ReturnType<typeof createCsvBuilder>) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(await builder.file().arrayBuffer());

describe('export table', () => {
  it('writes Berlin wall-clock time across the daylight-saving switch', () => {
    // 29 March 2026: clocks go from 02:00 CET to 03:00 CEST.
    expect(formatDateCell(berlinWallClock('2026-03-29T00:30:00Z'), true)).toBe('29.03.2026 01:30');
    expect(formatDateCell(berlinWallClock('2026-03-29T02:15:00Z'), true)).toBe('29.03.2026 04:15');
    expect(formatDateCell(berlinWallClock('2026-11-23T23:05:00Z'), true)).toBe('24.11.2026 00:05');
    expect(formatDateCell(berlinWallClock('2026-11-23T23:05:00Z'), false)).toBe('24.11.2026');
  });

  it('neutralises text that a spreadsheet would read as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(neutralise(`${start}1+1`)).toBe(`'${start}1+1`);
    }
    expect(neutralise('Köln = Stadt')).toBe('Köln = Stadt');
    expect(neutralise('')).toBe('');
  });

  it('builds a CSV Excel reads: BOM, semicolons, CRLF, quoting, German dates and Ja/Nein', async () => {
    const table = createExportTable(questions, true);
    const csv = createCsvBuilder(table);
    csv.add([response(), response({ response_id: 8, message: 'Zeile 1\nZeile 2; Ende' })]);
    const text = await csvOf(csv);

    expect(text.startsWith('\uFEFFAnfrage-Nr.;Eingang;Erfasst;Fragebogen;Quelle;')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, first, second] = parseCsv(text.slice(1));
    expect(header).toHaveLength(28);
    expect(header!.slice(-2)).toEqual(['Beruf', 'Wünsche']);
    const cell = (row: string[] | undefined, name: string) => row?.[header!.indexOf(name)];
    expect(cell(first, 'Anfrage-Nr.')).toBe('7');
    expect(cell(first, 'Eingang')).toBe('29.03.2026 04:15');
    expect(cell(first, 'Erfasst')).toBe('29.03.2026 01:30');
    expect(cell(first, 'Fragebogen')).toBe('PKV');
    expect(cell(first, 'Quelle')).toBe('Messe-Tablet');
    expect(header!.indexOf('Status')).toBe(header!.indexOf('Quelle') + 1);
    expect(cell(first, 'Status')).toBe('Kontaktiert');
    expect(cell(first, 'Kunden-Nr.')).toBe('42');
    expect(cell(first, 'Vorname')).toBe('Jürgen');
    expect(cell(first, 'Nachname')).toBe('Größe');
    expect(cell(first, 'Telefon')).toBe("'+49 170 1234567");
    expect(cell(first, 'Geburtsdatum')).toBe('01.02.1980');
    expect(cell(first, 'Bestandskunde')).toBe('');
    expect(cell(first, 'Weitere Angebote erwünscht (freiwillig)')).toBe('Ja');
    expect(cell(first, 'Datenverarbeitung eingewilligt')).toBe('Nein');
    expect(cell(first, 'Cookie-Auswahl')).toBe('Unbedingt erforderlich, Statistik');
    expect(cell(first, 'Beruf')).toBe('Lehrer; "verbeamtet"');
    expect(cell(first, 'Wünsche')).toBe(`'=HYPERLINK("x")`);
    expect(cell(second, 'Nachricht')).toBe('Zeile 1\nZeile 2; Ende');
    // The raw file quotes the fields that need it and doubles their quotes.
    expect(text).toContain(`;"Lehrer; ""verbeamtet""";"'=HYPERLINK(""x"")"\r\n`);
  });

  it('names KFZ and contact leads and heads questions of every form by form and question', () => {
    const table = createExportTable(
      [...questions, { id: 20, formId: 2, formTitle: 'Tabaluga', question: 'Beruf' }],
      false,
    );
    const kfz = table.row(response({ source: 'kfz', form_title: 'Kontakt-Formular', answers: [] }));
    const contact = table.row(response({ source: 'contact', channel: 'web', answers: [] }));
    expect(table.headers().slice(-3)).toEqual(['PKV: Beruf', 'PKV: Wünsche', 'Tabaluga: Beruf']);
    expect(kfz[3]).toEqual({ type: 'text', value: 'KFZ-Rückruf' });
    expect(contact[3]).toEqual({ type: 'text', value: 'Kontakt' });
    expect(contact[4]).toEqual({ type: 'text', value: 'Website' });
    // Their forms have no box for further offers: the true they send is left out.
    const offers = table.headers().indexOf('Weitere Angebote erwünscht (freiwillig)');
    expect(kfz[offers]).toBeNull();
    expect(contact[offers]).toBeNull();
  });

  it("gives a deleted question's answers a column by the stored text, padding earlier pages", async () => {
    const table = createExportTable(questions, true);
    const csv = createCsvBuilder(table);
    // A record with a line break inside a quoted field is padded at its end, not at the break.
    csv.add([
      response({ response_id: 1, message: 'Zeile 1\r\nZeile 2' }),
      response({ response_id: 3 }),
    ]);
    csv.add([
      response({
        response_id: 2,
        answers: [
          { question_id: null, question: 'Haustiere', answer: 'Hund' },
          { question_id: 10, question: 'Beruf', answer: 'Ärztin' },
          { question_id: null, question: 'Kinder', answer: '2019-05-04' },
        ],
      }),
    ]);
    const [header, first, third, second] = parseCsv((await csvOf(csv)).slice(1));
    expect(header!.slice(-4)).toEqual(['Beruf', 'Wünsche', 'Haustiere', 'Kinder']);
    expect(first).toHaveLength(header!.length);
    expect(first!.slice(-2)).toEqual(['', '']);
    expect(first![header!.indexOf('Nachricht')]).toBe('Zeile 1\r\nZeile 2');
    expect(third).toHaveLength(header!.length);
    expect(third![0]).toBe('3');
    expect(second!.slice(-4)).toEqual(['Ärztin', '', 'Hund', '04.05.2019']);
  });
});
