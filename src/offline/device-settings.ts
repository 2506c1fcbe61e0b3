// Settings of this device, chosen by the agent or a tester: fair mode ('kiosk') for the fair
// tablet and the offline simulation. They are the stored part of the sending rule
// (src/offline/send-rule.ts): IndexedDB's settings store holds them, where the page, every tab
// and the service worker read them before they send. localStorage keeps a mirror that screens
// read synchronously while rendering; it follows IndexedDB, never leads it. Both are strictly
// necessary for the service the operator set the device up for.
//
// Plain IndexedDB (offline-idb.ts), no Dexie: the header reads these settings on every public page.

import type { LeadChannel } from '../domain/submission.ts';
import { readSettings, writeSettings } from './offline-idb.ts';
import { deviceSettings, type DeviceSetting } from './offline-schema.ts';
import { parseDeviceSetting, readDeviceRule, type DeviceRule } from './send-rule.ts';

const keys: Record<DeviceSetting, string> = {
  kiosk: 'geraet:kiosk-modus',
  simulateOffline: 'geraet:offline-simulation',
};

const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** The mirror's value, for rendering: what IndexedDB said when this device last wrote or looked. */
export function readDeviceSetting(setting: DeviceSetting): boolean {
  try {
    return storage()?.getItem(keys[setting]) === 'an';
  } catch {
    return false;
  }
}

/**
 * The settings as every sender reads them: IndexedDB, not the mirror. Undefined when they cannot
 * be read (then a gate should assume the stricter value, e.g. fair mode on). Without IndexedDB
 * the mirror is all there is.
 */
export async function readStoredDeviceSettings(): Promise<DeviceRule | undefined> {
  if (!hasIndexedDb()) {
    return {
      kiosk: readDeviceSetting('kiosk'),
      simulateOffline: readDeviceSetting('simulateOffline'),
    };
  }
  const stored = await readSettings(deviceSettings).catch(() => undefined);
  if (stored === undefined) return undefined;
  return readDeviceRule((key) => Promise.resolve(stored.get(key)));
}

/** Sets the mirror; true when it changed. Blocked storage: screens fall back to "off". */
function mirror(setting: DeviceSetting, on: boolean): boolean {
  try {
    if (readDeviceSetting(setting) === on) return false;
    if (on) storage()?.setItem(keys[setting], 'an');
    else storage()?.removeItem(keys[setting]);
    return true;
  } catch {
    return false;
  }
}

function notify() {
  listeners.forEach((listener) => listener());
}

/** A browser without IndexedDB has no outbox and no worker: the mirror is all there is. */
function hasIndexedDb(): boolean {
  return typeof globalThis.indexedDB !== 'undefined';
}

// Writes and reconciliations of this page run one after the other, so the mirror ends as the
// last of them left IndexedDB.
let queue: Promise<unknown> = Promise.resolve();

function serially<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work);
  queue = run.catch(() => undefined);
  return run;
}

/** Writing a device setting to the device's storage failed; the message is for the screen. */
export class DeviceSettingWriteError extends Error {
  override readonly name = 'DeviceSettingWriteError';

  constructor(cause: unknown) {
    super('Die Einstellung konnte auf diesem Gerät nicht gespeichert werden.', { cause });
  }
}

/**
 * Stores a device setting. IndexedDB first, and only once its transaction has committed the
 * mirror and the listeners (this page's directly, other tabs' through the storage event): so a
 * sender that reads the rule after a screen showed the switch reads the new value, in whichever
 * document, tab or worker, and a navigation right after the click can no longer lose it. A screen
 * shows a setting as switched only once this resolves. Rejects with DeviceSettingWriteError when
 * IndexedDB refuses; a simulation switched on then still holds this page (its mirror says so).
 */
export function writeDeviceSetting(setting: DeviceSetting, on: boolean): Promise<void> {
  return serially(async () => {
    if (hasIndexedDb()) {
      try {
        await writeSettings({ [setting]: on });
      } catch (cause) {
        // Holding is the safe side: a simulation that failed to switch on still holds this page.
        if (on && setting === 'simulateOffline' && mirror(setting, true)) notify();
        throw new DeviceSettingWriteError(cause);
      }
    }
    if (mirror(setting, on)) notify();
  });
}

/**
 * Makes the mirror say what IndexedDB says, once at start and whenever another tab changed the
 * mirror (a tab that wrote its mirror from an older read is corrected so). One exception: a
 * setting switched on in the mirror but never written to IndexedDB (a device set up before
 * IndexedDB held the rule) is copied there. An unreadable simulation record counts as on, as it
 * does for the senders. Nothing changes when IndexedDB cannot be read; the senders hold then.
 */
export function reconcileDeviceSettings(): Promise<void> {
  return serially(async () => {
    if (!hasIndexedDb()) return;
    let stored: Map<string, unknown>;
    try {
      stored = await readSettings(deviceSettings);
    } catch {
      return;
    }
    const copies: Partial<Record<DeviceSetting, boolean>> = {};
    let changed = false;
    for (const setting of deviceSettings) {
      const value = stored.get(setting);
      const mirrored = readDeviceSetting(setting);
      if (value === undefined) {
        if (mirrored) copies[setting] = true;
        continue;
      }
      const on = parseDeviceSetting(value) ?? (setting === 'simulateOffline' || mirrored);
      changed = mirror(setting, on) || changed;
    }
    if (Object.keys(copies).length > 0) await writeSettings(copies).catch(() => undefined);
    if (changed) notify();
  });
}

function isMirrorKey(key: string | null): boolean {
  return key === null || Object.values(keys).includes(key);
}

/** Changes made here, and in other tabs of this device, reach every subscriber. */
export function subscribeDeviceSettings(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key && isMirrorKey(event.key)) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

/**
 * Reconciles now, and again whenever another tab changes the mirror (or clears the storage) for
 * as long as the page lives. Resolves when the first reconciliation is done.
 */
export function keepDeviceSettingsReconciled(): Promise<void> {
  globalThis.addEventListener?.('storage', (event: StorageEvent) => {
    if (isMirrorKey(event.key)) void reconcileDeviceSettings();
  });
  return reconcileDeviceSettings();
}

/** Where this device captures leads: kiosk mode means the agent's tablet at a fair. */
export function leadChannel(): LeadChannel {
  return readDeviceSetting('kiosk') ? 'fair_tablet' : 'web';
}
