// The device's offline database read and written with plain IndexedDB, for what a public page
// does before the visitor interacts (the header's queue status, the questionnaires kept on the
// device). Dexie and the outbox code are about 60 KB gzip; this is a few hundred bytes, and the
// landing page never loads the rest unless a lead waits, a form opens or the status panel opens.
//
// The database stays Dexie's (src/offline/outbox-db.ts): same name, same stores, same native
// version. Only the first visit creates it here, from the same declaration Dexie reads
// (offline-schema.ts), so Dexie later opens it without a schema change.

import {
  dexieVersion,
  lastDeliveryKey,
  offlineDbName,
  offlineStores,
  type DefinitionRecord,
  type LastDelivery,
  type OutboxItem,
  type SettingRecord,
} from './offline-schema.ts';

/** Dexie multiplies its version by 10 for IndexedDB. */
const nativeVersion = dexieVersion * 10;

/** Dexie's channel for changes to any of its databases, in every tab and the service worker. */
const dexieChangeChannel = 'x-storagemutated-1';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Waits for a read-write transaction to commit; rejects if it fails or is aborted. */
function committed(tx: IDBTransaction): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB-Transaktion fehlgeschlagen'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB-Transaktion abgebrochen'));
  });
}

/** Opens the database if it exists; never creates it (a visitor with no queue has none yet). */
function openExisting(name: string): Promise<IDBDatabase | undefined> {
  return new Promise((resolve, reject) => {
    let missing = false;
    const open = indexedDB.open(name);
    open.onupgradeneeded = () => {
      // No database yet: aborting the version change leaves none behind.
      missing = true;
      open.transaction?.abort();
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => (missing ? resolve(undefined) : reject(open.error));
    open.onblocked = () => resolve(undefined);
  });
}

/** A key path in Dexie's notation: `name`, or `[a+b]` for a compound one. */
function keyPath(spec: string): string | string[] {
  return spec.startsWith('[') ? spec.slice(1, -1).split('+') : spec;
}

/**
 * The stores of offline-schema.ts, as Dexie creates them: the first entry is the primary key, the
 * rest are indexes named by their spec. Only the notation those stores use is understood; anything
 * else (`++`, `&`, `*`) fails here first, before a device's database could differ from Dexie's.
 */
function createSchema(db: IDBDatabase) {
  for (const [name, spec] of Object.entries(offlineStores)) {
    const [primaryKey = '', ...indexes] = spec.split(',').map((part) => part.trim());
    for (const part of [primaryKey, ...indexes]) {
      if (!/^(\w+|\[\w+(\+\w+)+\])$/.test(part)) {
        throw new Error(`offline-idb versteht den Dexie-Schlüssel "${part}" nicht`);
      }
    }
    const store = db.createObjectStore(name, { keyPath: keyPath(primaryKey) });
    for (const index of indexes) store.createIndex(index, keyPath(index));
  }
}

/** Opens the database, creating it with Dexie's schema on the device's first visit. */
async function openOrCreate(name: string): Promise<IDBDatabase> {
  const existing = await openExisting(name);
  if (existing) return existing;
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, nativeVersion);
    open.onupgradeneeded = (event) => {
      // Another tab (or Dexie) may have created it meanwhile: then its schema stands.
      if (event.oldVersion === 0) createSchema(open.result);
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

export interface OutboxPeek {
  /** Leads saved on this device, not yet at the hub. */
  waiting: number;
  /** Of the waiting leads, those sealed on a fair tablet (kiosk mode with a PIN). */
  sealed: number;
  /** Leads the hub refused, oldest first. */
  rejected: OutboxItem[];
  /** The leads this device delivered since its outbox last ran empty, and when the last arrived. */
  lastDelivery?: LastDelivery;
}

/** The stored record if it has the shape the sync engine writes; otherwise none. */
function asLastDelivery(record: SettingRecord | undefined): LastDelivery | undefined {
  const value = record?.value as Partial<LastDelivery> | null | undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const { sent, at } = value;
  if (!Number.isInteger(sent) || (sent as number) < 1 || !Number.isFinite(at)) return undefined;
  return { sent: sent as number, at: at as number };
}

/**
 * What waits in the outbox, read without Dexie. Creates the database on the device's first visit,
 * as Dexie did when the status element opened it: the service worker and other tabs find it.
 */
export async function peekOutbox(name: string = offlineDbName): Promise<OutboxPeek> {
  const db = await openOrCreate(name);
  try {
    if (!db.objectStoreNames.contains('outbox')) return { waiting: 0, sealed: 0, rejected: [] };
    // One transaction: the count and the delivery record agree (the engine writes both at once).
    const tx = db.transaction(['outbox', 'settings'], 'readonly');
    const store = tx.objectStore('outbox');
    const [waiting, rejected, delivery] = await Promise.all([
      // The records, not a count: sealed ones have no index of their own (a schema change).
      request(store.index('status').getAll('waiting')) as Promise<OutboxItem[]>,
      request(
        store
          .index('[status+created_at]')
          .getAll(IDBKeyRange.bound(['rejected', -Infinity], ['rejected', Infinity])),
      ) as Promise<OutboxItem[]>,
      request(tx.objectStore('settings').get(lastDeliveryKey)) as Promise<
        SettingRecord | undefined
      >,
    ]);
    return {
      waiting: waiting.length,
      sealed: waiting.filter((item) => item.sealed !== undefined).length,
      rejected,
      lastDelivery: asLastDelivery(delivery),
    };
  } finally {
    db.close();
  }
}

/** Stores a questionnaire's definition as the hub sent it; Dexie readers validate it on use. */
export async function storeDefinition(
  definition: DefinitionRecord,
  name: string = offlineDbName,
): Promise<void> {
  const db = await openOrCreate(name);
  try {
    const tx = db.transaction('definitions', 'readwrite');
    const done = committed(tx);
    tx.objectStore('definitions').put(definition);
    await done;
  } finally {
    db.close();
  }
}

/** Settings-store values by key (undefined for a key never written); creates the database. */
export async function readSettings(
  keys: readonly string[],
  name: string = offlineDbName,
): Promise<Map<string, unknown>> {
  const db = await openOrCreate(name);
  try {
    const store = db.transaction('settings', 'readonly').objectStore('settings');
    const records = await Promise.all(
      keys.map((key) => request(store.get(key)) as Promise<SettingRecord | undefined>),
    );
    return new Map(keys.map((key, index) => [key, records[index]?.value]));
  } finally {
    db.close();
  }
}

/**
 * Writes settings in one transaction and resolves once it has committed: from then on every
 * reader (another connection, tab or the service worker) sees them. Strict durability: a device
 * setting must survive a crash right after the switch showed it.
 */
export async function writeSettings(
  values: Readonly<Record<string, unknown>>,
  name: string = offlineDbName,
): Promise<void> {
  const db = await openOrCreate(name);
  try {
    const tx = db.transaction('settings', 'readwrite', { durability: 'strict' });
    const done = committed(tx);
    const store = tx.objectStore('settings');
    for (const [key, value] of Object.entries(values)) store.put({ key, value });
    tx.commit?.();
    await done;
  } finally {
    db.close();
  }
}

/**
 * Calls `listener` whenever Dexie changed the offline database, in this tab (a form queued a
 * lead, the sender sent one), another tab or the service worker: Dexie announces every change
 * on a BroadcastChannel, which reaches every other channel object of that name. Returns the stop.
 */
export function onOfflineDbChange(listener: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(dexieChangeChannel);
  channel.onmessage = () => listener();
  return () => channel.close();
}
