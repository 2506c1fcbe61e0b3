import { Dexie, type EntityTable } from 'dexie';
import type { SubmissionSource } from '../domain/submission.ts';
import { offlineDbName } from './offline-idb.ts';

/** The fields the outbox itself relies on; the rest of the submission is passed through as is. */
export interface OutboxSubmissionKeys {
  client_id: string;
  form_id: number;
  source: SubmissionSource;
}

/** A submission exactly as it will be posted to the hub (plain JSON). */
export type OutboxSubmission = OutboxSubmissionKeys & { readonly [field: string]: unknown };

export type OutboxStatus = 'waiting' | 'rejected';

export interface OutboxItem {
  client_id: string;
  submission: OutboxSubmission;
  form_id: number;
  source: SubmissionSource;
  status: OutboxStatus;
  /** Failed sending attempts so far (whole-request failures only). */
  attempts: number;
  /**
   * The lead could not be handed to the hub at its first attempt: a run was held back while it
   * waited (offline, 'Offline simulieren'), or a request carrying it brought no answer. Posted
   * with the lead as `waited_offline`. Missing in leads queued before the field existed.
   */
  waited_offline?: boolean;
  /** Epoch ms. */
  next_attempt_at: number;
  /** Epoch ms. */
  created_at: number;
  /** German message for the UI: why the last attempt failed, or why the hub rejected the lead. */
  last_error: string | null;
  rejected_code: string | null;
}

export interface DefinitionRecord {
  form_id: number;
  /** As received from the hub; validated where it is used. */
  questions: unknown[];
  /** Where the form's document downloads (null: none); missing in copies stored before it was. */
  document_url?: string | null;
  /** Epoch ms. */
  fetched_at: number;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

// Named in offline-idb.ts, which reads the same database without Dexie.
export { offlineDbName };

export class OfflineDb extends Dexie {
  // `declare`: a class field would be initialised after super() and hide the table Dexie sets up.
  declare outbox: EntityTable<OutboxItem, 'client_id'>;
  declare definitions: EntityTable<DefinitionRecord, 'form_id'>;
  declare settings: EntityTable<SettingRecord, 'key'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      outbox: 'client_id, status, [status+next_attempt_at], [status+created_at]',
      definitions: 'form_id',
      settings: 'key',
    });
  }
}

export function openOfflineDb(name: string = offlineDbName): OfflineDb {
  return new OfflineDb(name);
}

export function getDefinition(
  db: OfflineDb,
  formId: number,
): Promise<DefinitionRecord | undefined> {
  return db.definitions.get(formId);
}

export async function putDefinition(db: OfflineDb, definition: DefinitionRecord): Promise<void> {
  await db.definitions.put(definition);
}

/** The stored value, or undefined when the key was never set; callers validate its shape. */
export async function getSetting(db: OfflineDb, key: string): Promise<unknown> {
  const record = await db.settings.get(key);
  return record?.value;
}

export async function putSetting(db: OfflineDb, key: string, value: unknown): Promise<void> {
  await db.settings.put({ key, value });
}
