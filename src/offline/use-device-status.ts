import { useEffect, useState } from 'react';
import { readDeviceStatus, watchDeviceStatus, type DeviceStatus } from './device-status-store.ts';

export type { DeviceStatus } from './device-status-store.ts';

/**
 * What the status element shows; the outbox counts update live, across tabs too. React's view of
 * src/offline/device-status-store.ts, which the prerendered pages' plain DOM status uses directly:
 * read with plain IndexedDB and refreshed on Dexie's change notices, so the header never loads
 * Dexie itself.
 */
export function useDeviceStatus(): DeviceStatus {
  const [status, setStatus] = useState(readDeviceStatus);
  useEffect(() => watchDeviceStatus(setStatus), []);
  return status;
}
