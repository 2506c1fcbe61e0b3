import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { Database } from '../../domain/database.types.ts';
import {
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
import { createExportFile, decodeExportPage, exportPageSize, restUrlOf } from './export-page.ts';
import { abortError, runExportInWorker, type WorkerFile } from './export-worker-host.ts';
import type { SupabaseSettings } from './supabase-context.ts';

// One export run: the database records it and counts the rows; a worker reads the rows in pages
// and writes the CSV or XLSX (export-worker.ts), or, where no worker starts, the page does.

const begunExport = z.object({ export_id: z.number().int(), row_count: z.coerce.number() });
true satisfies SameColumns<z.infer<typeof begunExport>, 'begin_export'>;

// export_page's arrays hold export_responses' columns (export-page.ts), typed as the row.
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

/** The pages read and written on the page itself: where no worker starts (or in unit tests). */
async function writeOnPage(options: {
  supabase: SupabaseClient<Database>;
  exportId: number;
  format: ExportFormat;
  questions: ExportQuestion[];
  singleForm: boolean;
  pageSize: number;
  signal: AbortSignal | undefined;
  onRead: (read: number) => void;
  onWriting: () => void;
}): Promise<WorkerFile> {
  const { supabase, exportId, pageSize, signal } = options;
  const table = createExportTable(options.questions, options.singleForm);
  // Loaded when needed: the XLSX writer is the largest part of the export.
  const xlsx =
    options.format === 'xlsx' ? (await import('./xlsx-stream.ts')).createXlsxStream() : null;
  const file = createExportFile(table, xlsx);

  // The pages follow the filter begin_export logged for this export, not one sent again.
  const readPage = async (afterId: number): Promise<ExportResponseRow[]> => {
    let request = supabase.rpc('export_page', {
      export_id: exportId,
      after_id: afterId,
      page_size: pageSize,
    });
    if (signal) request = request.abortSignal(signal);
    const page = await request;
    if (signal?.aborted) throw abortError();
    if (page.error) throw page.error;
    return decodeExportPage(page.data);
  };

  let read = 0;
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
    file.add(rows);
    read += rows.length;
    options.onRead(read);
  }
  options.onWriting();
  // One turn of the event loop lets the page show that before the writer takes the thread.
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (signal?.aborted) throw abortError();
  return { blob: file.finish(), rows: read };
}

/**
 * One export: begin_export records it and counts the rows, export_page is read in pages by
 * response id (each page as fast as the first), finish_export closes the record. With the
 * project's `settings` a worker reads the pages and writes the file; without them, or where no
 * worker starts, the page does. Cancelling via `signal` records the export as cancelled and
 * rejects with an AbortError.
 */
export async function runExport(options: {
  supabase: SupabaseClient<Database>;
  /** Where the worker sends its requests (the REST address and anon key supabase-js uses). */
  settings?: SupabaseSettings;
  scope: ExportScope;
  format: ExportFormat;
  filter: ExportFilter;
  /** The file name's start, saying what was filtered (exportFileName); 'anfragen' without. */
  fileStem?: string;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  pageSize?: number;
  watchdogMs?: number;
}): Promise<ExportResult> {
  const { supabase, settings, scope, format, signal, onProgress } = options;
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
  const finish = async (cancelled: boolean) => {
    // The database counts the rows it delivered; the client's count is not asked for.
    const { error } = await supabase.rpc('finish_export', {
      export_id: exportId,
      was_cancelled: cancelled,
    });
    if (error) throw error;
  };
  const onRead = (read: number) => {
    done = read;
    onProgress?.({ done, total: Math.max(total, done) });
  };
  const onWriting = () => onProgress?.({ done, total: Math.max(total, done), writing: true });

  try {
    const questions = await readQuestions(supabase, args.questionnaire_id);
    const singleForm = args.questionnaire_id !== null;
    onProgress?.({ done, total });
    let file: WorkerFile | null = null;
    if (settings) {
      const { data } = await supabase.auth.getSession();
      file = await runExportInWorker(
        {
          restUrl: restUrlOf(settings.url),
          apiKey: settings.anonKey,
          accessToken: data.session?.access_token ?? null,
          exportId,
          pageSize,
          format,
          questions,
          singleForm,
        },
        {
          ...(signal && { signal }),
          ...(options.watchdogMs !== undefined && { watchdogMs: options.watchdogMs }),
          onRead,
          onWriting,
          // supabase-js refreshes the session before it expires; the worker gets the new token.
          watchToken: (push) => {
            const { data: watching } = supabase.auth.onAuthStateChange((_event, session) =>
              push(session?.access_token ?? null),
            );
            return () => watching.subscription.unsubscribe();
          },
        },
      );
    }
    file ??= await writeOnPage({
      supabase,
      exportId,
      format,
      questions,
      singleForm,
      pageSize,
      signal,
      onRead,
      onWriting,
    });
    if (signal?.aborted) throw abortError();
    await finish(false);
    return {
      blob: file.blob,
      fileName: exportFileName(format, new Date(), options.fileStem),
      rows: file.rows,
    };
  } catch (error) {
    const cancelled = signal?.aborted === true;
    // An export that did not complete is recorded as cancelled, whatever stopped it; a failure
    // to close the record must not hide the first error.
    await finish(true).catch(() => undefined);
    throw cancelled ? abortError() : error;
  }
}
