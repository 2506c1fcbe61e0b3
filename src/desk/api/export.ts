import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { berlinToday } from '../../domain/calendar.ts';
import {
  createCsvBuilder,
  createExportTable,
  type ExportCell,
  type ExportQuestion,
  type ExportResponseRow,
} from '../../domain/export-table.ts';
import { leadChannels, type LeadChannel } from '../../domain/submission.ts';
import { callWithNulls, type NullableArgs, type SameColumns } from './database-functions.ts';
import type { Database, Tables } from '../../domain/database.types.ts';
import type { XlsxMessage, XlsxReply } from './export-worker.ts';
import { useSession } from './session.ts';
import { useSupabase } from './supabase-context.ts';

// Exports of leads as CSV or XLSX. The database decides who may export (can_export, and the
// export functions refuse with 42501) and records every export; the desk only pages and writes.

const exportScopes = ['analysis', 'customers'] as const;
const exportFormats = ['csv', 'xlsx'] as const;
export type ExportScope = (typeof exportScopes)[number];
export type ExportFormat = (typeof exportFormats)[number];

export interface ExportFilter {
  dayFrom?: string;
  dayTo?: string;
  questionnaireId?: number | null;
  channel?: LeadChannel | null;
  customerSearch?: string;
}

export type DeskSettings = Pick<Tables<'desk_settings'>, 'staff_can_export' | 'updated_at'>;

// The columns export_log types loosely (text, jsonb), checked where a row enters the desk.
const exportLogColumns = z.object({
  scope: z.enum(exportScopes),
  format: z.enum(exportFormats),
  filter: z.looseObject({
    day_from: z.string().optional(),
    day_to: z.string().optional(),
    questionnaire_id: z.number().optional(),
    // Free text in the database: a channel the desk does not know is left out, not an error.
    lead_channel: z.enum(leadChannels).optional().catch(undefined),
    customer_search: z.string().optional(),
  }),
});

/** An export as the log lists it (rows_sent is the database's own progress count). */
export type ExportLogEntry = Omit<
  Tables<'export_log'>,
  'rows_sent' | keyof typeof exportLogColumns.shape
> &
  z.infer<typeof exportLogColumns>;

function exportLogEntry(row: Tables<'export_log'>): ExportLogEntry {
  return { ...row, ...exportLogColumns.parse(row) };
}

const begunExport = z.object({ export_id: z.number().int(), row_count: z.coerce.number() });
true satisfies SameColumns<z.infer<typeof begunExport>, 'begin_export'>;

// export_responses() returns a table: its answers column is json, checked per row.
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

export const exportKeys = {
  all: ['export'] as const,
  canExport: (userId: string | undefined) => [...exportKeys.all, 'can', userId ?? ''] as const,
  settings: () => [...exportKeys.all, 'settings'] as const,
  log: () => [...exportKeys.all, 'log'] as const,
};

/** Whether the signed-in account may export (admin, or staff while the setting allows it). */
export function useCanExport() {
  const supabase = useSupabase();
  const { data: session } = useSession();
  const userId = session?.session?.user.id;
  return useQuery({
    queryKey: exportKeys.canExport(userId),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('can_export');
      if (error) throw error;
      return data === true;
    },
    enabled: Boolean(userId),
  });
}

export function useDeskSettings() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: exportKeys.settings(),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('desk_settings')
        .select('staff_can_export, updated_at')
        .single();
      if (error) throw error;
      return data;
    },
  });
}

export function useSetStaffCanExport() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (staffCanExport: boolean) => {
      const { error } = await supabase
        .from('desk_settings')
        .update({ staff_can_export: staffCanExport })
        .eq('id', true);
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportKeys.all }),
  });
}

/** The newest 50 exports: admins only (row-level security gives others none). */
export function useExportLog() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: exportKeys.log(),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('export_log')
        .select('*')
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .limit(50);
      if (error) throw error;
      return data.map(exportLogEntry);
    },
  });
}

/** The database's filter arguments: an empty value means "no restriction" (SQL null). */
export function filterArgs(filter: ExportFilter) {
  const orNull = <T>(value: T | null | undefined | '') =>
    value === undefined || value === '' ? null : value;
  return {
    day_from: orNull(filter.dayFrom),
    day_to: orNull(filter.dayTo),
    questionnaire_id: orNull(filter.questionnaireId),
    lead_channel: orNull(filter.channel),
    customer_search: orNull(filter.customerSearch?.trim()),
  } satisfies Omit<NullableArgs<'begin_export'>, 'export_scope' | 'export_format'>;
}

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

/** 'anfragen-2026-11-23.csv': the agent's day, sortable in a folder. */
export function exportFileName(format: ExportFormat, now = new Date()): string {
  return `anfragen-${berlinToday(now)}.${format}`;
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

/** The worker ended without a file: most likely the tab's memory ran out for a very large sheet. */
export class XlsxWorkerDiedError extends Error {
  constructor() {
    super(
      'Die Excel-Datei konnte nicht erstellt werden, vermutlich reichte der Speicher des Browsers nicht. Du kannst die Anfragen stattdessen als CSV exportieren.',
    );
    this.name = 'XlsxWorkerDiedError';
  }
}

/** Where the XLSX is written: page by page, the rows dropped once handed over. */
export interface XlsxWriter {
  /** Resolves once the writer can take more (at most a few pages wait in the worker). */
  add(rows: ExportCell[][]): Promise<void>;
  finish(headers: string[]): Promise<Blob>;
  /** Ends the writer early (cancelled, or the export failed). */
  close(): void;
}

/** On the page: where there are no workers (old browsers, unit tests), or the worker cannot start. */
async function openXlsxWriterOnPage(): Promise<XlsxWriter> {
  // Loaded when needed: the writer is the largest part of the export.
  const stream = (await import('./xlsx-stream.ts')).createXlsxStream();
  return {
    add: async (rows) => stream.add(rows),
    finish: async (headers) => stream.finish(headers),
    close: () => {},
  };
}

/** The worker never ran: the page writes the file itself. */
class WorkerDidNotStart extends Error {}

/** Pages sent to the worker and not yet written before the page waits: bounds the worker's queue. */
const xlsxQueue = 2;

/** Without a sign of life for this long while the page waits for it, the worker counts as dead. */
export const xlsxWatchdogMs = 20_000;

/**
 * The XLSX writer: a module worker where there is one, so the page stays responsive and
 * 'Abbrechen' can end it; on the page when the worker cannot start (its script fails to load or
 * run, or it does not answer). A started worker that fails, cannot read a message, dies without
 * a word (killed when out of memory: then the Web Lock it held is granted to the page) or stays
 * silent for `watchdogMs` while the page waits for it ends the export with XlsxWorkerDiedError,
 * instead of leaving it waiting.
 */
export async function openXlsxWriter(
  signal?: AbortSignal,
  watchdogMs = xlsxWatchdogMs,
): Promise<XlsxWriter> {
  if (typeof Worker !== 'function') return openXlsxWriterOnPage();
  let worker: Worker;
  try {
    worker = new Worker(new URL('./export-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return openXlsxWriterOnPage();
  }
  const locks = globalThis.navigator?.locks;
  const lock = `xlsx-export-${crypto.randomUUID()}`;

  type Waiter = { resolve: (value: XlsxReply) => void; reject: (error: unknown) => void };
  let waiter: Waiter | null = null;
  let closed = false;
  let failure: unknown = null;
  let started = false;
  let sent = 0;
  let written = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Ends the worker; `error` is what later calls get (null: the file was delivered). */
  const end = (error: unknown) => {
    if (closed) return;
    closed = true;
    failure = error ?? new XlsxWorkerDiedError();
    clearTimeout(timer);
    worker.terminate();
    signal?.removeEventListener('abort', onAbort);
    waiter?.reject(failure);
    waiter = null;
  };
  const onAbort = () => end(abortError());
  signal?.addEventListener('abort', onAbort, { once: true });

  /** The next reply; the watchdog runs while the page waits for one. */
  const nextReply = () =>
    new Promise<XlsxReply>((resolve, reject) => {
      if (closed) {
        reject(failure);
        return;
      }
      waiter = { resolve, reject };
      clearTimeout(timer);
      timer = setTimeout(
        () => end(started ? new XlsxWorkerDiedError() : new WorkerDidNotStart()),
        watchdogMs,
      );
    });

  worker.addEventListener('message', (event: MessageEvent<XlsxReply>) => {
    const reply = event.data;
    if ('written' in reply) written = reply.written;
    // A failed writer says so at once, whether or not the page is waiting for it.
    if ('ok' in reply && !reply.ok) end(new XlsxWorkerDiedError());
    if ('started' in reply) {
      started = true;
      // Granted once the worker let go of the lock: if it was still needed, it died.
      void locks?.request(lock, () => end(new XlsxWorkerDiedError()));
    }
    clearTimeout(timer);
    const current = waiter;
    waiter = null;
    current?.resolve(reply);
  });
  // An error event before the worker said it started means it never ran (the page writes the
  // file); after that, the worker failed.
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    end(started ? new XlsxWorkerDiedError() : new WorkerDidNotStart());
  });
  worker.addEventListener('messageerror', () => end(new XlsxWorkerDiedError()));

  try {
    const opened = nextReply();
    worker.postMessage({ open: true, lock: locks ? lock : undefined } satisfies XlsxMessage);
    await opened;
  } catch (error) {
    if (error instanceof WorkerDidNotStart) return openXlsxWriterOnPage();
    throw error;
  }

  return {
    async add(rows) {
      if (closed) throw failure;
      worker.postMessage({ rows } satisfies XlsxMessage);
      sent += rows.length;
      // Every reply to rows says how many are written; wait while too many are on their way.
      while (sent - written > xlsxQueue * Math.max(rows.length, 1)) {
        const reply = await nextReply();
        if ('ok' in reply) throw new XlsxWorkerDiedError();
      }
    },
    async finish(headers) {
      if (closed) throw failure;
      worker.postMessage({ headers } satisfies XlsxMessage);
      for (;;) {
        const reply = await nextReply();
        if (!('ok' in reply)) continue;
        end(null);
        if (reply.ok) return reply.blob;
        throw new XlsxWorkerDiedError();
      }
    },
    close: () => end(abortError()),
  };
}

function abortError(): DOMException {
  return new DOMException('Export abgebrochen', 'AbortError');
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
    return { blob, fileName: exportFileName(format), rows: done };
  } catch (error) {
    xlsx?.close();
    const cancelled = signal?.aborted === true;
    // An export that did not complete is recorded as cancelled, whatever stopped it; a failure
    // to close the record must not hide the first error.
    await finish(true).catch(() => undefined);
    throw cancelled ? abortError() : error;
  }
}
