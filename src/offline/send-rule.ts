// The one rule that decides whether this device may send its leads to the hub. Every sender (the
// page's scheduler, 'Jetzt senden', the unlock, the service worker's Background Sync) asks it
// through the sync engine, inside the outbox lock, right before each request
// (SyncOptions.mayPost in sync-engine.ts). Its state is stored in IndexedDB (the settings store,
// keys `simulateOffline` and `kiosk`), so a new document, another tab or a worker that wakes
// alone reads the same answer at once. Fair mode's lock is no part of it: sealed leads go only
// with the key a page holds in memory after the PIN (SyncOptions.unseal).
//
// No Dexie and no browser API here: the page reads the store with its reader, the worker with its.

import type { DeviceSetting } from './offline-schema.ts';

/** The stored settings that decide about sending. */
export interface DeviceRule {
  /** 'Offline simulieren': a tester holds all sending of this device. */
  simulateOffline: boolean;
  /** Fair mode: leads are sealed and go only while a page is unlocked with the PIN. */
  kiosk: boolean;
}

/** Why a device holds its leads: the simulation, no connection, or a rule it cannot read. */
export type HoldReason = 'simulated' | 'offline' | 'unreadable';

export type SendDecision = { send: true } | { send: false; reason: HoldReason };

/**
 * Whether to send now. `rule` undefined means it could not be read: the device holds (fail
 * closed), as it does while the simulation is on or the browser says it is offline.
 */
export function decideSend(
  rule: DeviceRule | undefined,
  { online }: { online: boolean },
): SendDecision {
  if (rule === undefined) return { send: false, reason: 'unreadable' };
  if (rule.simulateOffline) return { send: false, reason: 'simulated' };
  if (!online) return { send: false, reason: 'offline' };
  return { send: true };
}

/**
 * A stored setting: true or false as written; never written (a new device) is off. Anything
 * else is unreadable (undefined).
 */
export function parseDeviceSetting(value: unknown): boolean | undefined {
  if (value === undefined) return false;
  return typeof value === 'boolean' ? value : undefined;
}

/**
 * The rule as stored, read through `get` (a settings-store lookup by key). Undefined when a read
 * fails or a record is unreadable.
 */
export async function readDeviceRule(
  get: (key: DeviceSetting) => Promise<unknown>,
): Promise<DeviceRule | undefined> {
  try {
    const [simulateOffline, kiosk] = await Promise.all([
      get('simulateOffline').then(parseDeviceSetting),
      get('kiosk').then(parseDeviceSetting),
    ]);
    if (simulateOffline === undefined || kiosk === undefined) return undefined;
    return { simulateOffline, kiosk };
  } catch {
    return undefined;
  }
}
