import type { DeviceSetting } from './device-settings.ts';
import { offlineDb } from './offline-db.ts';
import { putSetting } from './outbox-db.ts';

/** The service worker's copy of a device setting (it has no localStorage). */
export function copySetting(setting: DeviceSetting, on: boolean): Promise<void> {
  return putSetting(offlineDb(), setting, on);
}
