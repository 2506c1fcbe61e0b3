import type { SyncReport } from './sync-engine.ts';

// Apart from sync-scheduler.ts so that the header's status can listen without loading the
// sender (and Dexie): reports only come once the sender runs, which it does when a lead waits.

type SyncReportListener = (report: SyncReport | undefined, error?: unknown) => void;

const listeners = new Set<SyncReportListener>();

/** The outcome of every send attempt of this page: a report, or undefined and the error. */
export function onSyncReport(listener: SyncReportListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function publishSyncReport(report: SyncReport | undefined, error?: unknown): void {
  listeners.forEach((listener) => listener(report, error));
}
