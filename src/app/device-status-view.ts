import type { DeviceStatus } from '../offline/device-status-store.ts';

// What the header's status says and how it looks, shared by its plain DOM version on prerendered
// pages (device-status-dom.ts), its React version in the app shell and the panel
// (device-status.tsx) and the markup the build writes (device-status-markup.tsx): one wording.

/** The status the build writes into every page, before the device was asked. */
export const prerenderedStatus: DeviceStatus = {
  online: true,
  simulateOffline: false,
  kiosk: false,
  waiting: undefined,
  sealed: 0,
  kioskUnlocked: false,
  rejected: [],
  lastDelivery: undefined,
  hubUnreachable: false,
};

/** The prerendered panel's id: a page has one header. */
export const prerenderedPanelId = 'geraetestatus';

export const detailsClassName = 'relative text-sm';
export const summaryClassName =
  'flex min-h-11 cursor-pointer list-none flex-wrap items-center gap-x-2 rounded-full border border-slate-300 bg-white px-3 py-1 leading-tight text-slate-800 max-sm:text-xs';
export const panelClassName =
  'absolute right-0 z-50 mt-2 w-80 max-w-[calc(100vw-2rem)] space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-lg';
export const dotClassName = (offline: boolean) =>
  `size-2.5 rounded-full ${offline ? 'bg-amber-500' : 'bg-emerald-600'}`;

function waitingText(count: number) {
  return count === 1 ? '1 Anfrage wartet' : `${count} Anfragen warten`;
}

function connectionLabel(status: DeviceStatus, waiting: number) {
  if (status.simulateOffline) return 'Offline (simuliert)';
  if (!status.online) return 'Offline';
  return status.hubUnreachable && waiting > 0 ? 'Server nicht erreichbar' : 'Online';
}

export function connectionText(status: DeviceStatus, waiting: number) {
  if (status.simulateOffline) return 'Die Offline-Simulation hält alles Senden an.';
  if (!status.online) return 'Dieses Gerät ist offline.';
  return status.hubUnreachable && waiting > 0
    ? 'Der Server ist gerade nicht erreichbar.'
    : 'Dieses Gerät ist online.';
}

/** When the waiting leads go: never "automatisch" for leads that wait for the PIN. */
export function waitingSentence(status: DeviceStatus, waiting: number, locked: boolean) {
  const when = status.simulateOffline
    ? 'gesendet, sobald die Offline-Simulation aus ist'
    : status.online
      ? 'automatisch gesendet'
      : 'gesendet, sobald das Gerät wieder online ist';
  const free = locked ? waiting - status.sealed : waiting;
  const freeText = `${free === 1 ? 'wird' : 'werden'} ${when}`;
  if (!locked) return `${waitingText(waiting)} auf diesem Gerät und ${freeText}.`;
  const sealed = `${waitingText(status.sealed)} auf diesem Gerät, bis die PIN eingegeben ist.`;
  return free > 0
    ? `${sealed} ${free === 1 ? 'Eine weitere' : `${free} weitere`} ${freeText}.`
    : sealed;
}

const clock = new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit' });
const day = new Intl.DateTimeFormat('de-DE', { day: 'numeric', month: 'numeric' });

/** "Alle 14 Anfragen gesendet, zuletzt 14:32"; the day too when it was not today. */
export function deliveryText({ sent, at }: { sent: number; at: number }, now = new Date()) {
  const when = new Date(at);
  const time =
    when.toDateString() === now.toDateString()
      ? clock.format(when)
      : `am ${day.format(when)} um ${clock.format(when)}`;
  return sent === 1
    ? `1 Anfrage gesendet, ${time}`
    : `Alle ${sent} Anfragen gesendet, zuletzt ${time}`;
}

/** What the summary and the panel derive from the status. */
export function statusFacts(status: DeviceStatus) {
  const fairMode = status.kiosk;
  const locked = fairMode && status.sealed > 0 && !status.kioskUnlocked;
  const offline = status.simulateOffline || !status.online;
  const waiting = status.waiting ?? 0;
  // Sealed leads go only from a page that holds the fair tablet's key.
  const sendable = waiting - (status.kioskUnlocked ? 0 : status.sealed);
  const rejected = fairMode ? [] : status.rejected;
  const label = connectionLabel(status, waiting);
  // More than "Online": on a phone the header gives the status the agency name's room.
  const detailed = label !== 'Online' || waiting > 0 || rejected.length > 0 || locked;
  const hasActions = !fairMode && (waiting > 0 || rejected.length > 0);
  return { fairMode, locked, offline, waiting, sendable, rejected, label, detailed, hasActions };
}

/** The summary's parts after the connection, in order: the waiting count, rejected, locked. */
export function summaryExtras(status: DeviceStatus) {
  const { rejected, locked } = statusFacts(status);
  return {
    waiting:
      status.waiting === undefined
        ? undefined
        : status.waiting > 0
          ? { text: `· ${waitingText(status.waiting)}`, className: 'font-semibold' }
          : { text: '· keine Anfragen warten', className: 'sr-only' },
    rejected: rejected.length > 0 ? `· ${rejected.length} abgelehnt` : undefined,
    locked: locked ? '· Gesperrt' : undefined,
  };
}

export const rejectedClassName = 'font-semibold text-red-800';
export const lockedClassName = 'font-semibold text-amber-900';
