// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DeviceSettingWriteError,
  keepDeviceSettingsReconciled,
  readDeviceSetting,
  readStoredDeviceSettings,
  reconcileDeviceSettings,
  subscribeDeviceSettings,
  writeDeviceSetting,
} from './device-settings.ts';
import { openOfflineDb, type OfflineDb } from './outbox-db.ts';
import { readDeviceRule } from './send-rule.ts';

// The device's settings are the stored part of the sending rule: IndexedDB first, then the
// localStorage mirror that screens read while rendering.

const mirrorKeys = { kiosk: 'geraet:kiosk-modus', simulateOffline: 'geraet:offline-simulation' };

let readers: OfflineDb[] = [];

/** What a sender that opens the database now reads: another tab, a new document, the worker. */
async function freshRule() {
  const reader = openOfflineDb();
  readers.push(reader);
  return readDeviceRule(async (key) => (await reader.settings.get(key))?.value);
}

async function stored(key: string): Promise<unknown> {
  const reader = openOfflineDb();
  readers.push(reader);
  return (await reader.settings.get(key))?.value;
}

async function store(values: Record<string, unknown>) {
  const writer = openOfflineDb();
  await writer.settings.bulkPut(Object.entries(values).map(([key, value]) => ({ key, value })));
  writer.close();
}

beforeEach(() => {
  localStorage.clear();
});

afterEach(async () => {
  vi.restoreAllMocks();
  readers.forEach((reader) => reader.close());
  readers = [];
  const db = openOfflineDb();
  await db.settings.clear();
  db.close();
  localStorage.clear();
});

describe('writeDeviceSetting', () => {
  it('resolves once a new reader sees the setting', async () => {
    await writeDeviceSetting('simulateOffline', true);
    expect(await freshRule()).toEqual({ simulateOffline: true, kiosk: false });
    expect(readDeviceSetting('simulateOffline')).toBe(true);

    await writeDeviceSetting('kiosk', true);
    await writeDeviceSetting('simulateOffline', false);
    expect(await freshRule()).toEqual({ simulateOffline: false, kiosk: true });
    expect(readDeviceSetting('simulateOffline')).toBe(false);
  });

  it('changes the mirror only after the IndexedDB transaction committed', async () => {
    // A navigation right after the click may cut a write short: the mirror, which screens and
    // other tabs go by, must never say more than what every sender reads.
    const events: string[] = [];
    const transaction = IDBDatabase.prototype.transaction;
    vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (
      this: IDBDatabase,
      ...args: Parameters<IDBDatabase['transaction']>
    ) {
      const tx = transaction.apply(this, args);
      if (tx.mode === 'readwrite' && tx.objectStoreNames.contains('settings')) {
        tx.addEventListener('complete', () => events.push('committed'));
      }
      return tx;
    });
    const setItem = Storage.prototype.setItem;
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (
      this: Storage,
      key: string,
      value: string,
    ) {
      events.push(`mirror ${key}=${value}`);
      setItem.call(this, key, value);
    });
    const removeItem = Storage.prototype.removeItem;
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(function (
      this: Storage,
      key: string,
    ) {
      events.push(`mirror ${key} removed`);
      removeItem.call(this, key);
    });

    await writeDeviceSetting('simulateOffline', true);
    await writeDeviceSetting('simulateOffline', false);

    expect(events).toEqual([
      'committed',
      `mirror ${mirrorKeys.simulateOffline}=an`,
      'committed',
      `mirror ${mirrorKeys.simulateOffline} removed`,
    ]);
  });

  it('tells the listeners of this page after IndexedDB holds it', async () => {
    const seen: Promise<unknown>[] = [];
    const stop = subscribeDeviceSettings(() => seen.push(freshRule()));
    await writeDeviceSetting('kiosk', true);
    stop();
    expect(await Promise.all(seen)).toEqual([{ simulateOffline: false, kiosk: true }]);
  });

  it('keeps the order of quick changes: the last one stands in both places', async () => {
    await Promise.all([
      writeDeviceSetting('simulateOffline', true),
      writeDeviceSetting('simulateOffline', false),
      writeDeviceSetting('simulateOffline', true),
    ]);
    expect(await stored('simulateOffline')).toBe(true);
    expect(readDeviceSetting('simulateOffline')).toBe(true);
  });

  it('rejects when IndexedDB refuses; a simulation switched on still holds this page', async () => {
    vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(() => {
      throw new DOMException('Der Speicher ist voll', 'QuotaExceededError');
    });
    await expect(writeDeviceSetting('simulateOffline', true)).rejects.toBeInstanceOf(
      DeviceSettingWriteError,
    );
    expect(readDeviceSetting('simulateOffline')).toBe(true);

    await expect(writeDeviceSetting('kiosk', true)).rejects.toBeInstanceOf(DeviceSettingWriteError);
    expect(readDeviceSetting('kiosk')).toBe(false);
  });
});

describe('readStoredDeviceSettings', () => {
  it('reads what the senders read, not the mirror', async () => {
    await store({ kiosk: true });
    expect(readDeviceSetting('kiosk')).toBe(false);
    expect(await readStoredDeviceSettings()).toEqual({ kiosk: true, simulateOffline: false });

    await store({ kiosk: 'an' });
    expect(await readStoredDeviceSettings()).toBeUndefined();
  });
});

describe('reconcileDeviceSettings', () => {
  it('IndexedDB wins: the mirror is rewritten from it, and listeners hear of it', async () => {
    await store({ simulateOffline: false, kiosk: true });
    localStorage.setItem(mirrorKeys.simulateOffline, 'an');
    const heard = vi.fn();
    const stop = subscribeDeviceSettings(heard);

    await reconcileDeviceSettings();
    stop();

    expect(readDeviceSetting('simulateOffline')).toBe(false);
    expect(readDeviceSetting('kiosk')).toBe(true);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(await freshRule()).toEqual({ simulateOffline: false, kiosk: true });
  });

  it('copies a setting that only the mirror has on (a device set up before the store held it)', async () => {
    localStorage.setItem(mirrorKeys.kiosk, 'an');
    localStorage.setItem(mirrorKeys.simulateOffline, 'an');

    await reconcileDeviceSettings();

    expect(await freshRule()).toEqual({ simulateOffline: true, kiosk: true });
    expect(readDeviceSetting('kiosk')).toBe(true);
    expect(readDeviceSetting('simulateOffline')).toBe(true);
  });

  it('writes nothing for a new device', async () => {
    await reconcileDeviceSettings();
    expect(await stored('kiosk')).toBeUndefined();
    expect(await stored('simulateOffline')).toBeUndefined();
    expect(readDeviceSetting('simulateOffline')).toBe(false);
  });

  it('shows an unreadable simulation record as on, as the senders read it', async () => {
    await store({ simulateOffline: 'an' });
    await reconcileDeviceSettings();
    expect(readDeviceSetting('simulateOffline')).toBe(true);
    expect(await freshRule()).toBeUndefined();
  });

  it('corrects a mirror another tab wrote from an older read', async () => {
    await store({ simulateOffline: true });
    await keepDeviceSettingsReconciled();
    expect(readDeviceSetting('simulateOffline')).toBe(true);

    // Another tab, reading before the simulation went on, clears the mirror afterwards.
    localStorage.removeItem(mirrorKeys.simulateOffline);
    window.dispatchEvent(
      new StorageEvent('storage', { key: mirrorKeys.simulateOffline, newValue: null }),
    );

    await vi.waitFor(() => expect(readDeviceSetting('simulateOffline')).toBe(true));
  });
});
