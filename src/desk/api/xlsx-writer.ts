import type { ExportCell } from '../../domain/export-table.ts';
import type { XlsxMessage, XlsxReply } from './export-worker.ts';

// The page's side of the XLSX worker (src/desk/api/export-worker.ts): it starts the worker, hands
// it the rows page by page, watches that it stays alive, and writes on the page instead where
// no worker can start.

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

/** What a cancelled export rejects with. */
export function abortError(): DOMException {
  return new DOMException('Export abgebrochen', 'AbortError');
}
