import type { ExportCell } from '../../domain/export-table.ts';
import { createXlsxStream } from './xlsx-stream.ts';

// The XLSX export's writer as a module worker (see openXlsxWriter in xlsx-writer.ts): the page
// sends each page of rows as it reads it and keeps none; the worker deflates them into the file
// at once (createXlsxStream), so the desk stays responsive and 'Abbrechen' ends the worker. The
// finished file comes back as a Blob of the zip's chunks.

/**
 * First `open` (with the name of a Web Lock the worker holds for as long as it lives, so the page
 * learns of its death by getting the lock), then the rows page by page, then the headers.
 */
export type XlsxMessage =
  { open: true; lock?: string } | { rows: ExportCell[][] } | { headers: string[] };

/** No error text: it could quote a cell, and the page shows its own German message anyway. */
export type XlsxFileReply = { ok: true; blob: Blob } | { ok: false };
export type XlsxReply =
  | XlsxFileReply
  /** The worker runs (and holds the lock): from now on its death is an error, not a fallback. */
  | { started: true }
  /** Rows written so far: the page's sign of life from the worker, and its back-pressure. */
  | { written: number };

/**
 * The worker's side of the conversation, without the worker: `post` sends a reply. Exported so a
 * test can play the worker.
 */
export function createXlsxWorkerHandler(post: (reply: XlsxReply) => void) {
  const stream = createXlsxStream();
  let failed = false;
  return (message: XlsxMessage) => {
    if (failed) return;
    try {
      if ('open' in message) {
        post({ started: true });
      } else if ('rows' in message) {
        stream.add(message.rows);
        post({ written: stream.rows });
      } else {
        post({ ok: true, blob: stream.finish(message.headers) });
      }
    } catch {
      failed = true;
      post({ ok: false });
    }
  };
}

// The page imports the types only; the module runs as a worker.
const workerScope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown })
  .WorkerGlobalScope;
if (workerScope && globalThis instanceof workerScope) {
  const handle = createXlsxWorkerHandler((reply) => postMessage(reply));
  addEventListener('message', (event: MessageEvent<XlsxMessage>) => {
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
