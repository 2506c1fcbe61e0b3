export const syncLockName = 'universa-outbox-sync';

/** The part of the Web Locks API the sync uses; `navigator.locks` fits it. */
export interface SyncLockManager {
  request<T>(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

export type SyncLockResult<T> = { skipped: true } | { skipped: false; value: T };

/**
 * A lock manager for one JavaScript realm, with the `ifAvailable` behaviour of Web Locks. Used
 * where `navigator.locks` is missing (old Safari, Node): it keeps two syncs in the same tab or
 * worker apart, but not two tabs. Then the hub's idempotency by `client_id` is what keeps a lead
 * sent by both from being stored twice (the second send is answered `duplicate`).
 */
export function createInProcessLocks(): SyncLockManager {
  const held = new Set<string>();
  return {
    async request<T>(
      name: string,
      _options: { ifAvailable: true },
      callback: (lock: unknown) => Promise<T>,
    ): Promise<T> {
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
  };
}

const inProcessLocks = createInProcessLocks();

/** Looked up at call time, not import time, so this module loads anywhere (tab, worker, Node). */
export function defaultSyncLocks(): SyncLockManager {
  const locks = (globalThis as { navigator?: { locks?: Partial<LockManager> } }).navigator?.locks;
  return typeof locks?.request === 'function' ? (locks as SyncLockManager) : inProcessLocks;
}

/**
 * Runs `fn` as the only outbox sender across tabs and the service worker. When another holds the
 * lock it does not wait: that sender is already on it, so `{ skipped: true }` comes back at once.
 */
export async function withSyncLock<T>(
  fn: () => Promise<T>,
  locks: SyncLockManager = defaultSyncLocks(),
): Promise<SyncLockResult<T>> {
  return locks.request(
    syncLockName,
    { ifAvailable: true },
    async (lock): Promise<SyncLockResult<T>> =>
      lock === null ? { skipped: true } : { skipped: false, value: await fn() },
  );
}
