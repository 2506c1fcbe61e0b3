import { offlineDb } from './offline-db.ts';
import type { DeviceSetting } from './offline-schema.ts';
import { putSetting } from './outbox-db.ts';

/** The service worker's copy of a device setting (it has no localStorage). */
export function copySetting(setting: DeviceSetting, on: boolean): Promise<void> {
  return putSetting(offlineDb(), setting, on);
}
