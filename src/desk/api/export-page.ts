import { leadStatuses } from '../../domain/lead-status.ts';
import {
  createCsvBuilder,
  type ExportResponseRow,
  type ExportTable,
} from '../../domain/export-table.ts';
import type { XlsxStream } from './xlsx-stream.ts';

// One page of an export as the database's export_page returns it, read by whoever writes the
// file: the export worker (export-worker.ts) or, where no worker starts, the page. export_page
// returns the page as one JSON value (PostgREST cuts a function's rows at max rows, 1,000, never
// a scalar), each lead an array of export_responses' columns in their order.

/** Leads per page: ten requests for 100,000 leads; the database takes at most 20,000. */
export const exportPageSize = 10_000;

/** export_responses' columns in the order export_page's arrays hold them. */
export const exportRowColumns = [
  'response_id',
  'lead_at',
  'captured_at',
  'received_at',
  'form_id',
  'form_title',
  'source',
  'channel',
  'status',
  'customer_id',
  'salutation',
  'title',
  'first_name',
  'last_name',
  'email',
  'phone',
  'adress',
  'postcode',
  'city',
  'birthdate',
  'call_time',
  'existing_customer',
  'message',
  'offer_info',
  'terms_accepted',
  'data_processing_consent',
  'consent_version',
  'cookie_consent',
  'cookie_consent_version',
  'answers',
] as const satisfies readonly (keyof ExportResponseRow)[];

type MissingColumn = Exclude<keyof ExportResponseRow, (typeof exportRowColumns)[number]>;
true satisfies [MissingColumn] extends [never] ? true : false;

/**
 * A page not read: the database refused it (PostgREST's code, e.g. 42501 without the right, or
 * 'HTTP 502'), the network failed ('network') or the page was garbled ('invalid').
 */
export class ExportPageError extends Error {
  readonly code: string;
  constructor(code = 'invalid') {
    super(`Exportseite nicht gelesen (${code})`);
    this.name = 'ExportPageError';
    this.code = code;
  }
}

const statuses = new Set<unknown>(leadStatuses);

/** A lead's values as checked so far: each taken as its column's type. */
type LeadValues<T extends never[] = []> = T['length'] extends (typeof exportRowColumns)['length']
  ? T
  : LeadValues<[...T, never]>;

function answersOf(value: unknown): ExportResponseRow['answers'] {
  if (!Array.isArray(value)) throw new ExportPageError();
  return value.map((answer: unknown) => {
    if (
      !Array.isArray(answer) ||
      (answer[0] !== null && typeof answer[0] !== 'number') ||
      typeof answer[1] !== 'string' ||
      typeof answer[2] !== 'string'
    ) {
      throw new ExportPageError();
    }
    return { question_id: answer[0] as number | null, question: answer[1], answer: answer[2] };
  });
}

/**
 * The page's leads. The function's column types are the database's; checked here is what the
 * file's columns rely on (the id to page by, a status the desk knows, the answers' shape), once
 * per lead and without a schema library, since 100,000 leads pass through here.
 */
export function decodeExportPage(page: unknown): ExportResponseRow[] {
  if (!Array.isArray(page)) throw new ExportPageError();
  return page.map((lead: unknown): ExportResponseRow => {
    if (!Array.isArray(lead) || lead.length !== exportRowColumns.length) {
      throw new ExportPageError();
    }
    const v = lead as LeadValues;
    if (typeof lead[0] !== 'number' || !statuses.has(lead[8])) throw new ExportPageError();
    return {
      response_id: v[0],
      lead_at: v[1],
      captured_at: v[2],
      received_at: v[3],
      form_id: v[4],
      form_title: v[5],
      source: v[6],
      channel: v[7],
      status: v[8],
      customer_id: v[9],
      salutation: v[10],
      title: v[11],
      first_name: v[12],
      last_name: v[13],
      email: v[14],
      phone: v[15],
      adress: v[16],
      postcode: v[17],
      city: v[18],
      birthdate: v[19],
      call_time: v[20],
      existing_customer: v[21],
      message: v[22],
      offer_info: v[23],
      terms_accepted: v[24],
      data_processing_consent: v[25],
      consent_version: v[26],
      cookie_consent: v[27],
      cookie_consent_version: v[28],
      answers: answersOf(lead[29]),
    };
  });
}

/** What a page is read with over HTTP, as supabase-js would send it. */
export interface ExportPageRequest {
  /** The project's REST address, e.g. https://abcd.supabase.co/rest/v1 or <origin>/rest/v1. */
  restUrl: string;
  apiKey: string;
  accessToken: string | null;
  exportId: number;
  afterId: number;
  pageSize: number;
  signal?: AbortSignal;
}

/** The REST address of a Supabase project (or the local gateway) from its base address. */
export function restUrlOf(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/rest/v1`;
}

/**
 * One page by `fetch`, with the headers supabase-js sends (apikey, the session's bearer token):
 * the same request to hosted Supabase and to the local gateway.
 */
export async function fetchExportPage(
  request: ExportPageRequest,
  fetchPage: typeof fetch = fetch,
): Promise<ExportResponseRow[]> {
  const response = await fetchPage(`${request.restUrl}/rpc/export_page`, {
    method: 'POST',
    headers: {
      apikey: request.apiKey,
      authorization: `Bearer ${request.accessToken ?? request.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify({
      export_id: request.exportId,
      after_id: request.afterId,
      page_size: request.pageSize,
    }),
    ...(request.signal && { signal: request.signal }),
  }).catch((error: unknown) => {
    if (request.signal?.aborted) throw error;
    throw new ExportPageError('network');
  });
  const text = await response.text().catch(() => {
    throw new ExportPageError('network');
  });
  if (!response.ok) {
    let code: string | undefined;
    try {
      const body = JSON.parse(text) as { code?: unknown };
      if (typeof body.code === 'string') code = body.code;
    } catch {
      // Not PostgREST's error body: the status says enough.
    }
    throw new ExportPageError(code ?? `HTTP ${response.status}`);
  }
  let page: unknown;
  try {
    page = JSON.parse(text);
  } catch {
    throw new ExportPageError();
  }
  return decodeExportPage(page);
}

/** The file being written, page by page: CSV (createCsvBuilder) or XLSX (an XlsxStream). */
export interface ExportFile {
  add(rows: readonly ExportResponseRow[]): void;
  finish(): Blob;
}

const xlsxBatch = 1000;

/** An export's file: XLSX when `xlsx` is given, else CSV. */
export function createExportFile(table: ExportTable, xlsx: XlsxStream | null): ExportFile {
  if (!xlsx) {
    const csv = createCsvBuilder(table);
    return { add: (rows) => csv.add(rows), finish: () => csv.file() };
  }
  return {
    add(rows) {
      // A thousand rows' cells and XML at a time, not a whole page's: the worker's heap stays small.
      for (let start = 0; start < rows.length; start += xlsxBatch) {
        xlsx.add(rows.slice(start, start + xlsxBatch).map((row) => table.row(row)));
      }
    },
    finish: () => xlsx.finish(table.headers()),
  };
}
