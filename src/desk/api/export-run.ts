import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { Database } from '../../domain/database.types.ts';
import { leadStatuses } from '../../domain/lead-status.ts';
import {
  createCsvBuilder,
  createExportTable,
  type ExportQuestion,
  type ExportResponseRow,
} from '../../domain/export-table.ts';
import { callWithNulls, type SameColumns } from './database-functions.ts';
import {
  exportFileName,
  filterArgs,
  type ExportFilter,
  type ExportFormat,
  type ExportScope,
} from './export-options.ts';
import { abortError, openXlsxWriter, type XlsxWriter } from './xlsx-writer.ts';

// One export run: the database records it and counts the rows, the desk reads the rows in pages
// and writes them as CSV on the page or as XLSX in a worker (xlsx-writer.ts).

const begunExport = z.object({ export_id: z.number().int(), row_count: z.coerce.number() });
true satisfies SameColumns<z.infer<typeof begunExport>, 'begin_export'>;

// export_responses() returns a table: its answers column is json, checked per row.
// ... and its status a text the desk checks against its own list.
const exportStatus = z.enum(leadStatuses);
const exportAnswers = z.array(
  z.object({ question_id: z.number().nullable(), question: z.string(), answer: z.string() }),
);
true satisfies SameColumns<
  ExportResponseRow,
  'export_responses',
  | 'captured_at'
  | 'customer_id'
  | 'salutation'
  | 'title'
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone'
  | 'adress'
  | 'postcode'
  | 'city'
  | 'birthdate'
  | 'call_time'
  | 'existing_customer'
  | 'message'
  | 'offer_info'
  | 'terms_accepted'
  | 'data_processing_consent'
  | 'consent_version'
  | 'cookie_consent'
  | 'cookie_consent_version'
>;

export const exportPageSize = 1000;

export interface ExportProgress {
  done: number;
  total: number;
  /** Set once every page is read and the file is being made (an XLSX of many rows takes a while). */
  writing?: boolean;
}

export interface ExportResult {
  blob: Blob;
  fileName: string;
  rows: number;
}

/** The current questions of the exported form(s), in each form's order. */
async function readQuestions(
  supabase: SupabaseClient<Database>,
  questionnaireId: number | null,
): Promise<ExportQuestion[]> {
  let query = supabase
    .from('questions')
    .select('id, form_id, question, forms(title)')
    .order('form_id')
    .order('sequence')
    .order('id');
  if (questionnaireId !== null) query = query.eq('form_id', questionnaireId);
  const { data, error } = await query;
  if (error) throw error;
  return data.map((row) => ({
    id: row.id,
    formId: row.form_id,
    formTitle: row.forms?.title ?? '',
    question: row.question,
  }));
}

/**
 * One export: begin_export records it and counts the rows, export_responses is read in pages by
 * response id (each page as fast as the first), finish_export closes the record. Cancelling via
 * `signal` records the export as cancelled and rejects with an AbortError.
 */
export async function runExport(options: {
  supabase: SupabaseClient<Database>;
  scope: ExportScope;
  format: ExportFormat;
  filter: ExportFilter;
  /** The file name's start, saying what was filtered (exportFileName); 'anfragen' without. */
  fileStem?: string;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  pageSize?: number;
}): Promise<ExportResult> {
  const { supabase, scope, format, signal, onProgress } = options;
  const pageSize = options.pageSize ?? exportPageSize;
  const args = filterArgs(options.filter);
  if (signal?.aborted) throw abortError();

  const begun = await callWithNulls(supabase, 'begin_export', {
    export_scope: scope,
    export_format: format,
    ...args,
  });
  if (begun.error) throw begun.error;
  const started = begunExport
    .optional()
    .parse(Array.isArray(begun.data) ? begun.data[0] : begun.data);
  if (!started) throw new Error('begin_export lieferte keine Zeile');
  const exportId = started.export_id;
  const total = started.row_count;

  let done = 0;
  let xlsx: XlsxWriter | null = null;
  const finish = async (cancelled: boolean) => {
    // The database counts the rows it delivered; the client's count is not asked for.
    const { error } = await supabase.rpc('finish_export', {
      export_id: exportId,
      was_cancelled: cancelled,
    });
    if (error) throw error;
  };

  try {
    const table = createExportTable(
      await readQuestions(supabase, args.questionnaire_id),
      args.questionnaire_id !== null,
    );
    const csv = format === 'csv' ? createCsvBuilder(table) : null;
    xlsx = csv ? null : await openXlsxWriter(signal);
    onProgress?.({ done, total });

    // The pages follow the filter begin_export logged for this export, not one sent again.
    const readPage = async (afterId: number): Promise<ExportResponseRow[]> => {
      let request = supabase.rpc('export_responses', {
        export_id: exportId,
        after_id: afterId,
        page_size: pageSize,
      });
      if (signal) request = request.abortSignal(signal);
      const page = await request;
      if (signal?.aborted) throw abortError();
      if (page.error) throw page.error;
      return (page.data ?? []).map((row) => ({
        ...row,
        status: exportStatus.parse(row.status),
        answers: exportAnswers.parse(row.answers),
      }));
    };

    let next: Promise<ExportResponseRow[]> | null = readPage(0);
    while (next) {
      if (signal?.aborted) throw abortError();
      const rows: ExportResponseRow[] = await next;
      // The next page is asked for before this one is written: the database reads while the
      // page writes (keyset paging needs only this page's last id).
      next = rows.length < pageSize ? null : readPage(rows[rows.length - 1]!.response_id);
      // A failure of the page read ahead surfaces when it is awaited, not as unhandled.
      next?.catch(() => undefined);
      // Each page goes to the file at once; the page keeps no rows.
      if (csv) csv.add(rows);
      else await xlsx?.add(rows.map((row) => table.row(row)));
      done += rows.length;
      onProgress?.({ done, total: Math.max(total, done) });
    }

    onProgress?.({ done, total: Math.max(total, done), writing: true });
    // One turn of the event loop lets the page show that before the writer starts (and, without
    // a worker, takes the thread).
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (signal?.aborted) throw abortError();
    const blob = csv ? csv.file() : await xlsx!.finish(table.headers());
    if (signal?.aborted) throw abortError();
    await finish(false);
    return { blob, fileName: exportFileName(format, new Date(), options.fileStem), rows: done };
  } catch (error) {
    xlsx?.close();
    const cancelled = signal?.aborted === true;
    // An export that did not complete is recorded as cancelled, whatever stopped it; a failure
    // to close the record must not hide the first error.
    await finish(true).catch(() => undefined);
    throw cancelled ? abortError() : error;
  }
}
