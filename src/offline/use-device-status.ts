import { useEffect, useState, useSyncExternalStore } from 'react';
import { readDeviceSetting, subscribeDeviceSettings } from './device-settings.ts';
import { isKioskUnlocked, subscribeKioskSession } from './kiosk-session.ts';
import { onOfflineDbChange, peekOutbox } from './offline-idb.ts';
import type { LastDelivery, OutboxItem } from './offline-schema.ts';
import { onSyncReport } from './sync-reports.ts';

export interface DeviceStatus {
  online: boolean;
  simulateOffline: boolean;
  kiosk: boolean;
  /** Leads saved on this device, not yet at the hub; undefined until the outbox was read. */
  waiting: number | undefined;
  /** Of the waiting leads, those sealed in kiosk mode: sent only while this page is unlocked. */
  sealed: number;
  /** This page holds the fair tablet's key (the PIN was entered since it loaded). */
  kioskUnlocked: boolean;
  rejected: OutboxItem[];
  /**
   * What this device delivered since its outbox last ran empty (count and time of the last one),
   * by this page, another tab or the service worker; undefined when nothing was since.
   */
  lastDelivery: LastDelivery | undefined;
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

/**
 * What the status element shows; the outbox counts update live, across tabs too. Read with plain
 * IndexedDB and refreshed on Dexie's change notices, so the header never loads Dexie itself.
 */
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
  const kioskUnlocked = useSyncExternalStore(subscribeKioskSession, isKioskUnlocked, () => false);
  const [outbox, setOutbox] = useState<{
    waiting: number | undefined;
    sealed: number;
    rejected: OutboxItem[];
    lastDelivery: LastDelivery | undefined;
  }>({
    waiting: undefined,
    sealed: 0,
    rejected: [],
    lastDelivery: undefined,
  });
  const [hubUnreachable, setHubUnreachable] = useState(false);

  useEffect(() => {
    let stopped = false;
    // Reads are numbered so that a slow earlier read never overwrites a later one.
    let latest = 0;
    const read = () => {
      const current = (latest += 1);
      peekOutbox().then(
        ({ waiting, sealed, rejected, lastDelivery }) => {
          if (!stopped && current === latest)
            setOutbox({ waiting, sealed, rejected, lastDelivery });
        },
        () => undefined,
      );
    };
    read();
    const stopChanges = onOfflineDbChange(read);
    // A page restored from the back-forward cache missed the notices of its time away.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) read();
    };
    window.addEventListener('pageshow', onPageShow);
    const stopReports = onSyncReport((report) => {
      setHubUnreachable(report ? report.failed > 0 : true);
    });
    return () => {
      stopped = true;
      stopChanges();
      window.removeEventListener('pageshow', onPageShow);
      stopReports();
    };
  }, []);

  return {
    online,
    simulateOffline,
    kiosk,
    kioskUnlocked,
    hubUnreachable,
    ...outbox,
  };
}
