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

/**
 * What is known at once, without reading the outbox (`waiting` is undefined). Rendered on a
 * server (no `navigator`), the device counts as online.
 */
export function readDeviceStatus(): DeviceStatus {
  return {
    online: typeof navigator === 'undefined' || navigator.onLine,
    simulateOffline: readDeviceSetting('simulateOffline'),
    kiosk: readDeviceSetting('kiosk'),
    kioskUnlocked: isKioskUnlocked(),
    hubUnreachable: false,
    waiting: undefined,
    sealed: 0,
    rejected: [],
    lastDelivery: undefined,
  };
}

/**
 * Tells `listener` the device's status now and after every change, across tabs and from the
 * service worker too, until the returned function stops it. No React and no Dexie: the outbox is
 * read with plain IndexedDB and read again on Dexie's change notices, so the header's status on a
 * prerendered page (src/app/device-status-dom.ts) runs before anything else loads.
 */
export function watchDeviceStatus(listener: (status: DeviceStatus) => void): () => void {
  let status = readDeviceStatus();
  let stopped = false;
  const update = (patch: Partial<DeviceStatus>) => {
    if (stopped) return;
    status = { ...status, ...patch };
    listener(status);
  };

  const onOnline = () => update({ online: navigator.onLine });
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOnline);
  const stopSettings = subscribeDeviceSettings(() =>
    update({
      simulateOffline: readDeviceSetting('simulateOffline'),
      kiosk: readDeviceSetting('kiosk'),
    }),
  );
  const stopKiosk = subscribeKioskSession(() => update({ kioskUnlocked: isKioskUnlocked() }));

  // Reads are numbered so that a slow earlier read never overwrites a later one.
  let latest = 0;
  const read = () => {
    const current = (latest += 1);
    peekOutbox().then(
      ({ waiting, sealed, rejected, lastDelivery }) => {
        if (current === latest) update({ waiting, sealed, rejected, lastDelivery });
      },
      () => undefined,
    );
  };
  const stopChanges = onOfflineDbChange(read);
  // A page restored from the back-forward cache missed the notices of its time away.
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) read();
  };
  window.addEventListener('pageshow', onPageShow);
  const stopReports = onSyncReport((report) =>
    update({ hubUnreachable: report ? report.failed > 0 : true }),
  );

  listener(status);
  read();
  return () => {
    stopped = true;
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOnline);
    window.removeEventListener('pageshow', onPageShow);
    stopSettings();
    stopKiosk();
    stopChanges();
    stopReports();
  };
}
