import { Dexie, type EntityTable } from 'dexie';
import {
  dexieVersion,
  offlineDbName,
  offlineStores,
  type DefinitionRecord,
  type OutboxItem,
  type SettingRecord,
} from './offline-schema.ts';

export class OfflineDb extends Dexie {
  // `declare`: a class field would be initialised after super() and hide the table Dexie sets up.
  declare outbox: EntityTable<OutboxItem, 'client_id'>;
  declare definitions: EntityTable<DefinitionRecord, 'form_id'>;
  declare settings: EntityTable<SettingRecord, 'key'>;

  constructor(name: string) {
    super(name);
    this.version(dexieVersion).stores(offlineStores);
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
