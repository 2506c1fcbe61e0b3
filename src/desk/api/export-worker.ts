import type { ExportFormat } from '../../domain/database-enums.ts';
import {
  createExportTable,
  type ExportQuestion,
  type ExportResponseRow,
} from '../../domain/export-table.ts';
import { createExportFile, ExportPageError, fetchExportPage } from './export-page.ts';
import { createXlsxStream } from './xlsx-stream.ts';

// The export's file is made in a module worker (started by runExportInWorker in
// export-worker-host.ts): the worker reads the pages of export_page itself, with the session's
// token the page hands it, and writes each page into the CSV or the XLSX at once (createXlsxStream
// deflates as it goes). No lead crosses postMessage and none is parsed on the page, so the desk
// stays responsive; 'Abbrechen' ends the worker. The finished file comes back as a Blob.

/** What the worker needs to read the pages and write the file. */
export interface ExportJob {
  /** The REST address (restUrlOf), the anon key and the session's token, as supabase-js has them. */
  restUrl: string;
  apiKey: string;
  accessToken: string | null;
  exportId: number;
  pageSize: number;
  format: ExportFormat;
  questions: ExportQuestion[];
  /** One questionnaire: its question columns are headed by the question alone. */
  singleForm: boolean;
}

/**
 * First `open` (with the name of a Web Lock the worker holds for as long as it lives, so the page
 * learns of its death by getting the lock), then the job; a new token whenever supabase-js
 * refreshed the session meanwhile.
 */
export type ExportWorkerMessage =
  { open: true; lock?: string } | { job: ExportJob } | { accessToken: string | null };

/**
 * The file, or that it failed. No error text, which could quote a cell: a refused page sends
 * PostgREST's code (42501 without the right), and the page shows its own German message.
 */
export type ExportFileReply = { ok: true; blob: Blob; rows: number } | { ok: false; code?: string };
export type ExportWorkerReply =
  | ExportFileReply
  /** The worker runs (and holds the lock): from now on its death is an error, not a fallback. */
  | { started: true }
  /** Leads read and written so far: the page's progress and its sign of life from the worker. */
  | { read: number }
  /** Every page is read; the file is being finished. */
  | { writing: true };

/** The pages in order by id, the next one asked for while this one is written. */
async function runJob(
  job: ExportJob,
  post: (reply: ExportWorkerReply) => void,
  accessToken: () => string | null,
  fetchPage: typeof fetch,
): Promise<void> {
  const table = createExportTable(job.questions, job.singleForm);
  const file = createExportFile(table, job.format === 'xlsx' ? createXlsxStream() : null);
  const readPage = (afterId: number) =>
    fetchExportPage(
      {
        restUrl: job.restUrl,
        apiKey: job.apiKey,
        accessToken: accessToken(),
        exportId: job.exportId,
        afterId,
        pageSize: job.pageSize,
      },
      fetchPage,
    );
  let read = 0;
  let next: Promise<ExportResponseRow[]> | null = readPage(0);
  while (next) {
    const rows: ExportResponseRow[] = await next;
    // Keyset paging needs only this page's last id: the database reads while the worker writes.
    next = rows.length < job.pageSize ? null : readPage(rows[rows.length - 1]!.response_id);
    // A failure of the page read ahead surfaces when it is awaited, not as unhandled.
    next?.catch(() => undefined);
    file.add(rows);
    read += rows.length;
    post({ read });
  }
  post({ writing: true });
  post({ ok: true, blob: file.finish(), rows: read });
}

/**
 * The worker's side of the conversation, without the worker: `post` sends a reply, `fetchPage`
 * reads a page. Exported so a test can play the worker.
 */
export function createExportWorkerHandler(
  post: (reply: ExportWorkerReply) => void,
  fetchPage: typeof fetch = (...args) => fetch(...args),
) {
  let accessToken: string | null = null;
  let running = false;
  return (message: ExportWorkerMessage) => {
    if ('open' in message) {
      post({ started: true });
    } else if ('accessToken' in message) {
      accessToken = message.accessToken;
    } else if (!running) {
      running = true;
      accessToken = message.job.accessToken;
      runJob(message.job, post, () => accessToken, fetchPage).catch((error: unknown) => {
        // A page not read says why; a failure to write (out of memory, say) says nothing.
        post(error instanceof ExportPageError ? { ok: false, code: error.code } : { ok: false });
      });
    }
  };
}

// The page imports the types only; the module runs as a worker.
const workerScope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown })
  .WorkerGlobalScope;
if (workerScope && globalThis instanceof workerScope) {
  const handle = createExportWorkerHandler((reply) => postMessage(reply));
  addEventListener('message', (event: MessageEvent<ExportWorkerMessage>) => {
    const message = event.data;
    if ('open' in message && message.lock && navigator.locks) {
      // Held until the worker ends: killed (out of memory, say), it lets the page's request in.
      const lock = message.lock;
      void new Promise<void>((resolve) => {
        void navigator.locks.request(lock, () => {
          resolve();
          return new Promise<never>(() => {});
        });
      }).then(() => handle(message));
      return;
    }
    handle(message);
  });
}
