import { ExportPageError } from './export-page.ts';
import type { ExportJob, ExportWorkerMessage, ExportWorkerReply } from './export-worker.ts';

// The page's side of the export worker (src/desk/api/export-worker.ts): it starts the worker,
// hands it the job and the session's newer tokens, reports its progress, and watches that it
// stays alive. Where no worker can start, the caller reads and writes on the page instead.

/** The worker ended without a file: most likely the tab's memory ran out for a very large sheet. */
export class XlsxWorkerDiedError extends Error {
  constructor() {
    super(
      'Die Excel-Datei konnte nicht erstellt werden, vermutlich reichte der Speicher des Browsers nicht. Du kannst die Anfragen stattdessen als CSV exportieren.',
    );
    this.name = 'XlsxWorkerDiedError';
  }
}

/** What a cancelled export rejects with. */
export function abortError(): DOMException {
  return new DOMException('Export abgebrochen', 'AbortError');
}

/** Without a sign of life for this long (a page read and written, say), the worker counts as dead. */
export const exportWatchdogMs = 20_000;

export interface WorkerFile {
  blob: Blob;
  rows: number;
}

/**
 * Runs the export's job in a module worker and answers its file, or null when no worker could
 * start (no Worker, its script fails to load or run, or it does not answer): then nothing was
 * read yet and the page does the work. A started worker that fails, cannot read a message, dies
 * without a word (killed when out of memory: then the Web Lock it held is granted to the page) or
 * stays silent for `watchdogMs` ends the export with XlsxWorkerDiedError (a plain Error for a
 * CSV); a page the database refused rejects with its ExportPageError; cancelling via `signal`
 * ends the worker and rejects with an AbortError.
 */
export function runExportInWorker(
  job: ExportJob,
  options: {
    signal?: AbortSignal;
    watchdogMs?: number;
    /** Leads read and written so far. */
    onRead?: (read: number) => void;
    /** Every page is read; the worker finishes the file. */
    onWriting?: () => void;
    /** Calls `push` with each newer token of the session; answers how to stop. */
    watchToken?: (push: (accessToken: string | null) => void) => () => void;
  } = {},
): Promise<WorkerFile | null> {
  if (typeof Worker !== 'function') return Promise.resolve(null);
  let worker: Worker;
  try {
    worker = new Worker(new URL('./export-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return Promise.resolve(null);
  }
  const { signal, watchdogMs = exportWatchdogMs } = options;
  const died = () =>
    job.format === 'xlsx'
      ? new XlsxWorkerDiedError()
      : new Error('Der Export-Worker endete ohne Datei.');
  const locks = globalThis.navigator?.locks;
  const lock = `export-${crypto.randomUUID()}`;
  const send = (message: ExportWorkerMessage) => worker.postMessage(message);

  return new Promise<WorkerFile | null>((resolve, reject) => {
    let started = false;
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopWatchingToken: (() => void) | undefined;

    /** Ends the worker with its file, null (it never ran) or an error. */
    const end = (outcome: { file: WorkerFile | null } | { error: unknown }) => {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
      stopWatchingToken?.();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.file);
    };
    const notStarted = () => end({ file: null });
    const fail = (error: unknown) => end({ error });
    const onAbort = () => fail(abortError());
    /** The watchdog, wound up again by every reply. */
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => (started ? fail(died()) : notStarted()), watchdogMs);
    };

    worker.addEventListener('message', (event: MessageEvent<ExportWorkerReply>) => {
      if (closed) return;
      const reply = event.data;
      watch();
      if ('started' in reply) {
        started = true;
        // Granted once the worker let go of the lock: if it was still needed, it died.
        void locks?.request(lock, () => fail(died()));
        stopWatchingToken = options.watchToken?.((accessToken) => {
          if (!closed) send({ accessToken });
        });
        send({ job });
      } else if ('read' in reply) {
        options.onRead?.(reply.read);
      } else if ('writing' in reply) {
        options.onWriting?.();
      } else if (reply.ok) {
        end({ file: { blob: reply.blob, rows: reply.rows } });
      } else {
        fail(reply.code ? new ExportPageError(reply.code) : died());
      }
    });
    // An error event before the worker said it started means it never ran (the page writes the
    // file); after that, the worker failed.
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (started) fail(died());
      else notStarted();
    });
    worker.addEventListener('messageerror', () => fail(died()));
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    watch();
    send({ open: true, lock: locks ? lock : undefined });
  });
}
