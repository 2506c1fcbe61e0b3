import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createInProcessLocks,
  defaultSyncLocks,
  syncLockName,
  withSyncLock,
  type SyncLockManager,
} from './sync-lock.ts';

// The browser's own LockManager must fit where a SyncLockManager is expected.
const _browserLocksFit = (locks: LockManager): SyncLockManager => locks;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('withSyncLock', () => {
  it('runs the function and hands back its value when the lock is free', async () => {
    const result = await withSyncLock(async () => 42, createInProcessLocks());
    expect(result).toEqual({ skipped: false, value: 42 });
  });

  it('skips at once while another holder runs, and is free again afterwards', async () => {
    const locks = createInProcessLocks();
    const gate = deferred();
    const first = withSyncLock(() => gate.promise.then(() => 'first'), locks);

    const second = await withSyncLock(async () => 'second', locks);
    expect(second).toEqual({ skipped: true });

    gate.resolve();
    expect(await first).toEqual({ skipped: false, value: 'first' });
    expect(await withSyncLock(async () => 'third', locks)).toEqual({
      skipped: false,
      value: 'third',
    });
  });

  it('releases the lock when the function throws', async () => {
    const locks = createInProcessLocks();
    await expect(withSyncLock(() => Promise.reject(new Error('kaputt')), locks)).rejects.toThrow(
      'kaputt',
    );
    expect(await withSyncLock(async () => 1, locks)).toEqual({ skipped: false, value: 1 });
  });

  it('asks navigator.locks without waiting when the browser has it', async () => {
    const request = vi.fn(
      (_name: string, _options: { ifAvailable: true }, callback: (lock: unknown) => unknown) =>
        Promise.resolve(callback(null)),
    );
    vi.stubGlobal('navigator', { locks: { request } });

    expect(await withSyncLock(async () => 'never')).toEqual({ skipped: true });
    expect(request).toHaveBeenCalledWith(syncLockName, { ifAvailable: true }, expect.any(Function));
  });

  it('falls back to a lock inside this realm without navigator.locks', async () => {
    vi.stubGlobal('navigator', {});
    const fallback = defaultSyncLocks();
    vi.stubGlobal('navigator', undefined);
    expect(defaultSyncLocks()).toBe(fallback);

    const gate = deferred();
    const first = withSyncLock(() => gate.promise);
    expect(await withSyncLock(async () => 'second')).toEqual({ skipped: true });
    gate.resolve();
    expect(await first).toEqual({ skipped: false, value: undefined });
  });
});
