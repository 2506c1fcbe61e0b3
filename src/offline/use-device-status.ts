import { liveQuery } from 'dexie';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { readDeviceSetting, subscribeDeviceSettings } from './device-settings.ts';
import { offlineDb } from './offline-db.ts';
import { countWaiting, listRejected } from './outbox.ts';
import type { OutboxItem } from './outbox-db.ts';
import { onSyncReport } from './sync-scheduler.ts';

export interface DeviceStatus {
  online: boolean;
  simulateOffline: boolean;
  kiosk: boolean;
  /** Leads saved on this device, not yet at the hub; undefined until the outbox was read. */
  waiting: number | undefined;
  rejected: OutboxItem[];
  /** The last send attempt failed although the browser thinks it is online. */
  hubUnreachable: boolean;
}

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** What the status element shows; the outbox counts update live, across tabs too. */
export function useDeviceStatus(): DeviceStatus {
  const online = useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
  const simulateOffline = useSyncExternalStore(
    subscribeDeviceSettings,
    () => readDeviceSetting('simulateOffline'),
    () => false,
  );
  const kiosk = useSyncExternalStore(
    subscribeDeviceSettings,
    () => readDeviceSetting('kiosk'),
    () => false,
  );
  const [outbox, setOutbox] = useState<{ waiting: number | undefined; rejected: OutboxItem[] }>({
    waiting: undefined,
    rejected: [],
  });
  const [hubUnreachable, setHubUnreachable] = useState(false);

  useEffect(() => {
    const db = offlineDb();
    const subscription = liveQuery(async () => ({
      waiting: await countWaiting(db),
      rejected: await listRejected(db),
    })).subscribe({ next: setOutbox, error: () => undefined });
    const stopReports = onSyncReport((report) => {
      setHubUnreachable(report ? report.failed > 0 : true);
    });
    return () => {
      subscription.unsubscribe();
      stopReports();
    };
  }, []);

  return { online, simulateOffline, kiosk, hubUnreachable, ...outbox };
}
