import { openOfflineDb, type OfflineDb } from './outbox-db.ts';

let instance: OfflineDb | undefined;

/** The device's one offline database, opened on first use (never at import time). */
export function offlineDb(): OfflineDb {
  instance ??= openOfflineDb();
  return instance;
}
