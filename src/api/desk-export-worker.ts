import writeXlsxFile from 'write-excel-file/universal';
import { type ExportCell, neutralise } from '../domain/export-table.ts';

// The XLSX writer takes about 30 s and 750 MB for 100,000 leads. Run as a module worker (see
// writeXlsxBlob in desk-export.ts) the desk stays usable meanwhile and 'Abbrechen' ends the
// worker; where there are no workers the same function runs on the page.

export interface XlsxRequest {
  headers: string[];
  rows: ExportCell[][];
}

/**
 * The page first names a Web Lock the worker holds for as long as it lives (the page learns of
 * its death by getting the lock), then sends the rows in slices (copying them all at once would
 * block it too), then the headers.
 */
export type XlsxMessage = { lock: string } | { rows: ExportCell[][] } | { headers: string[] };

/** No error text: it could quote a cell, and the page shows its own German message anyway. */
export type XlsxFileReply = { ok: true; buffer: ArrayBuffer } | { ok: false };
export type XlsxReply =
  | XlsxFileReply
  /** The worker runs and holds the lock: from now on its death is an error, not a fallback. */
  | { started: true };

export async function writeXlsx(headers: string[], rows: ExportCell[][]): Promise<Blob> {
  const header = headers.map((value) => ({ value, type: String, fontWeight: 'bold' as const }));
  const sheet = rows.map((cells) =>
    cells.map((cell) => {
      if (cell === null) return null;
      if (cell.type === 'number') return { value: cell.value, type: Number };
      if (cell.type === 'date') {
        return {
          value: cell.at,
          type: Date,
          format: cell.withTime ? 'dd.mm.yyyy hh:mm' : 'dd.mm.yyyy',
        };
      }
      return { value: neutralise(cell.value), type: String };
    }),
  );
  return writeXlsxFile([header, ...sheet], {
    sheet: 'Anfragen',
    stickyRowsCount: 1,
    // Wide enough to read the heading, never so wide that a long question hides the rest.
    columns: headers.map((title) => ({ width: Math.min(Math.max(title.length + 2, 10), 40) })),
  }).toBlob();
}

/** The worker's answer to one request; exported so a test can play the worker. */
export async function answerXlsxRequest(request: XlsxRequest): Promise<XlsxFileReply> {
  try {
    const blob = await writeXlsx(request.headers, request.rows);
    return { ok: true, buffer: await blob.arrayBuffer() };
  } catch {
    return { ok: false };
  }
}

// The page imports this module too (the fallback): only a worker listens for requests.
const workerScope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown })
  .WorkerGlobalScope;
if (workerScope && globalThis instanceof workerScope) {
  const rows: ExportCell[][] = [];
  addEventListener('message', (event: MessageEvent<XlsxMessage>) => {
    const message = event.data;
    if ('lock' in message) {
      // Held until the worker ends: killed (out of memory, say), it lets the page's request in.
      const held = new Promise<void>((resolve) => {
        void navigator.locks.request(message.lock, () => {
          resolve();
          return new Promise<never>(() => {});
        });
      });
      void held.then(() => postMessage({ started: true } satisfies XlsxReply));
      return;
    }
    if ('rows' in message) {
      for (const row of message.rows) rows.push(row);
      return;
    }
    void answerXlsxRequest({ headers: message.headers, rows }).then((reply) =>
      // The file is moved, not copied, to the page.
      postMessage(reply, { transfer: reply.ok ? [reply.buffer] : [] }),
    );
  });
}
