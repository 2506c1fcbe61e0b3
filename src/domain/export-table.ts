import { berlinWallClock } from './calendar.ts';
import { cookieCategoryNames } from './cookie-choice.ts';
import type { LeadChannel, LeadSource } from './database-enums.ts';
import { leadStatusLabels, type LeadStatus } from './lead-status.ts';

// The export's table: one row per lead with the customer's fields, its record (form, source,
// status, capture and arrival, consent) and one column per question. Pure, so both file formats and the
// tests share one definition of what a cell holds.

/** One row as the database's export_responses returns it. */
export interface ExportResponseRow {
  response_id: number;
  lead_at: string;
  captured_at: string | null;
  received_at: string;
  form_id: number;
  form_title: string;
  source: LeadSource;
  channel: LeadChannel;
  /** Where the office stands with the lead. */
  status: LeadStatus;
  customer_id: number | null;
  salutation: string | null;
  title: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  adress: string | null;
  postcode: string | null;
  city: string | null;
  birthdate: string | null;
  call_time: string | null;
  existing_customer: boolean | null;
  message: string | null;
  offer_info: boolean | null;
  terms_accepted: boolean | null;
  data_processing_consent: boolean | null;
  consent_version: string | null;
  cookie_consent: string | null;
  cookie_consent_version: string | null;
  answers: { question_id: number | null; question: string; answer: string }[];
}

/** A current question of a form, in the form's order. */
export interface ExportQuestion {
  id: number;
  formId: number;
  formTitle: string;
  question: string;
}

/**
 * A cell: user-typed text stays text; numbers and points in time get real types in XLSX.
 * `at` is the Berlin wall-clock time expressed as UTC fields, which is what a spreadsheet shows.
 */
export type ExportCell =
  | { type: 'text'; value: string }
  | { type: 'number'; value: number }
  | { type: 'date'; at: Date; withTime: boolean }
  | null;

const sourceNames: Record<string, string> = { kfz: 'KFZ-Rückruf', contact: 'Kontakt' };
const channelNames: Record<string, string> = { web: 'Website', fair_tablet: 'Messe-Tablet' };

const fixedHeaders = [
  'Anfrage-Nr.',
  'Eingang',
  'Erfasst',
  'Fragebogen',
  'Quelle',
  'Status',
  'Kunden-Nr.',
  'Anrede',
  'Titel',
  'Vorname',
  'Nachname',
  'E-Mail',
  'Telefon',
  'Adresse',
  'PLZ',
  'Ort',
  'Geburtsdatum',
  'Rückrufzeit',
  'Bestandskunde',
  'Nachricht',
  'Weitere Angebote erwünscht (freiwillig)',
  'AGB akzeptiert',
  'Datenverarbeitung eingewilligt',
  'Einwilligungstext-Version',
  'Cookie-Auswahl',
  'Cookie-Text-Version',
] as const;

const two = (value: number) => String(value).padStart(2, '0');

/** TT.MM.JJJJ, with HH:MM when the cell is a point in time. */
export function formatDateCell(at: Date, withTime: boolean): string {
  const day = `${two(at.getUTCDate())}.${two(at.getUTCMonth() + 1)}.${at.getUTCFullYear()}`;
  return withTime ? `${day} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}` : day;
}

/**
 * OWASP's defence against formula injection: a spreadsheet must not read a visitor's text as a
 * formula, so text that could start one gets a leading apostrophe.
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const text = (value: string | null | undefined): ExportCell =>
  value === null || value === undefined || value === '' ? null : { type: 'text', value };
const yesNo = (value: boolean | null): ExportCell =>
  value === null ? null : { type: 'text', value: value ? 'Ja' : 'Nein' };
const instant = (value: string | null): ExportCell =>
  value ? { type: 'date', at: berlinWallClock(value), withTime: true } : null;
function calendarDay(value: string | null): ExportCell {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  if (!match) return text(value);
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return { type: 'date', at, withTime: false };
}

/** Children's birth dates inside an answer (2020-03-03) read the German way. */
const answerText = (answer: string) => answer.replace(/\b(\d{4})-(\d{2})-(\d{2})\b/g, '$3.$2.$1');

/** The lead's form as the agent names it: KFZ callbacks and contact requests answer no form. */
export function formLabel(row: Pick<ExportResponseRow, 'source' | 'form_title'>): string {
  return sourceNames[row.source] ?? row.form_title;
}

export interface ExportTable {
  /** The header, including columns of deleted questions met so far. */
  headers(): string[];
  /** A row's cells; columns added later (deleted questions) are missing at its end. */
  row(response: ExportResponseRow): ExportCell[];
}

/**
 * Columns of one export. `singleForm` heads question columns by the question alone; for every
 * lead they read '{form}: {question}' since forms share questions like 'Beruf'.
 */
export function createExportTable(
  questions: readonly ExportQuestion[],
  singleForm: boolean,
): ExportTable {
  const headers: string[] = [...fixedHeaders];
  const columnOf = new Map<string, number>();
  const heading = (formTitle: string, question: string) =>
    singleForm ? question : `${formTitle}: ${question}`;
  for (const question of questions) {
    columnOf.set(`q${question.id}`, headers.length);
    headers.push(heading(question.formTitle, question.question));
  }

  function columnFor(response: ExportResponseRow, questionId: number | null, question: string) {
    const key =
      questionId !== null && columnOf.has(`q${questionId}`)
        ? `q${questionId}`
        : `d${response.form_id}:${question}`;
    let column = columnOf.get(key);
    if (column === undefined) {
      column = headers.length;
      columnOf.set(key, column);
      headers.push(heading(response.form_title, question));
    }
    return column;
  }

  return {
    headers: () => [...headers],
    row(response) {
      const cells: ExportCell[] = [
        { type: 'number', value: response.response_id },
        instant(response.received_at),
        instant(response.captured_at ?? response.received_at),
        text(formLabel(response)),
        text(channelNames[response.channel] ?? response.channel),
        text(leadStatusLabels[response.status]),
        response.customer_id === null ? null : { type: 'number', value: response.customer_id },
        text(response.salutation),
        text(response.title),
        text(response.first_name),
        text(response.last_name),
        text(response.email),
        text(response.phone),
        text(response.adress),
        text(response.postcode),
        text(response.city),
        calendarDay(response.birthdate),
        text(response.call_time),
        yesNo(response.existing_customer),
        text(response.message),
        // Only the questionnaire has this optional box; KFZ and contact forms send true unasked.
        response.source === 'questionnaire' ? yesNo(response.offer_info) : null,
        yesNo(response.terms_accepted),
        yesNo(response.data_processing_consent),
        text(response.consent_version),
        text(response.cookie_consent && cookieCategoryNames(response.cookie_consent)),
        text(response.cookie_consent_version),
      ];
      for (const answer of response.answers) {
        const column = columnFor(response, answer.question_id, answer.question);
        while (cells.length <= column) cells.push(null);
        cells[column] = text(answerText(answer.answer));
      }
      return cells;
    },
  };
}

function csvField(cell: ExportCell): string {
  if (cell === null) return '';
  if (cell.type === 'number') return String(cell.value);
  if (cell.type === 'date') return formatDateCell(cell.at, cell.withTime);
  return csvText(cell.value);
}

function csvText(value: string): string {
  const safe = neutralise(value);
  return /[";\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record (RFC 4180 with ';' as German Excel expects), padded to `width` fields. */
export function csvLine(cells: readonly ExportCell[], width: number): string {
  const fields = cells.map(csvField);
  while (fields.length < width) fields.push('');
  return `${fields.join(';')}\r\n`;
}

export function csvHeaderLine(headers: readonly string[]): string {
  return `${headers.map(csvText).join(';')}\r\n`;
}

/** The byte order mark: without it Excel reads UTF-8 as Windows-1252 and breaks umlauts. */
export const csvBom = '\uFEFF';

const encoder = new TextEncoder();

/**
 * The CSV file, built page by page: each page's records are encoded as they arrive and kept as a
 * Blob (no string of the whole file, and the browser may keep Blobs outside the page's memory).
 * A deleted question met late adds a column at the end, so records of earlier pages are padded
 * when the file is made: each page remembers where its records end, and the padded file is made
 * of slices of the page's Blob with the missing separators between them.
 */
export function createCsvBuilder(table: ExportTable) {
  const pages: { blob: Blob; width: number; ends: Uint32Array }[] = [];
  return {
    add(rows: readonly ExportResponseRow[]) {
      if (rows.length === 0) return;
      const lines = rows.map((row) => table.row(row));
      const width = table.headers().length;
      const bytes = lines.map((cells) => encoder.encode(csvLine(cells, width)));
      const ends = new Uint32Array(bytes.length);
      let end = 0;
      bytes.forEach((line, index) => (ends[index] = end += line.length));
      pages.push({ blob: new Blob(bytes as BlobPart[]), width, ends });
    },
    /** The file: BOM, header, then every page, padded to the final width. */
    file(type = 'text/csv;charset=utf-8'): Blob {
      const headers = table.headers();
      const parts: BlobPart[] = [csvBom + csvHeaderLine(headers)];
      for (const page of pages) {
        if (page.width === headers.length) {
          parts.push(page.blob);
          continue;
        }
        const padding = `${';'.repeat(headers.length - page.width)}\r\n`;
        let start = 0;
        for (const end of page.ends) {
          // Each record ends in CRLF: the padding goes before it.
          parts.push(page.blob.slice(start, end - 2), padding);
          start = end;
        }
      }
      return new Blob(parts, { type });
    },
  };
}
