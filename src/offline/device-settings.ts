// Settings of this device, chosen by the agent or a tester: kiosk mode for the fair tablet and
// the offline simulation. Kept in localStorage because screens read them while rendering, and
// they are strictly necessary for the service the operator set the device up for.

import type { LeadChannel } from '../domain/submission.ts';
import type { DeviceSetting } from './offline-schema.ts';

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

export function readDeviceSetting(setting: DeviceSetting): boolean {
  try {
    return storage()?.getItem(keys[setting]) === 'an';
  } catch {
    return false;
  }
}

/**
 * Stores a device setting. Resolves once it is durable where every sender reads it (the page, other
 * tabs and the service worker); a screen shows a setting as switched only after that.
 */
export async function writeDeviceSetting(setting: DeviceSetting, on: boolean): Promise<void> {
  try {
    if (on) storage()?.setItem(keys[setting], 'an');
    else storage()?.removeItem(keys[setting]);
  } catch {
    // Blocked storage: the setting lasts until the page is reloaded.
  }
  // The service worker has no localStorage; it reads its copy from IndexedDB. Loaded here, on a
  // change, so that screens reading a setting never bring the offline database code.
  await import('./setting-copy.ts')
    .then(({ copySetting }) => copySetting(setting, on))
    .catch(() => undefined);
  listeners.forEach((listener) => listener());
}

/** Changes made here, and in other tabs of this device, reach every subscriber. */
export function subscribeDeviceSettings(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key && Object.values(keys).includes(event.key)) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

/** Where this device captures leads: kiosk mode means the agent's tablet at a fair. */
export function leadChannel(): LeadChannel {
  return readDeviceSetting('kiosk') ? 'fair_tablet' : 'web';
}
