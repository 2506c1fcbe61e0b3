import { useId, useRef } from 'react';
import { useDeviceStatus, type DeviceStatus as Status } from '../offline/use-device-status.ts';
import { useDismiss } from '../ui/use-dismiss.ts';
import { SimulationBanner } from './simulation-banner.tsx';

// The panel's actions need the outbox code (Dexie); it is fetched when the panel opens, not with
// the header, which only reads counts.
const loadOutboxActions = () =>
  Promise.all([
    import('../offline/sync-scheduler.ts'),
    import('../offline/outbox.ts'),
    import('../offline/offline-db.ts'),
  ]).then(([scheduler, outbox, db]) => ({
    syncNow: scheduler.syncNow,
    retryRejected: (clientId: string) => outbox.retryRejected(db.offlineDb(), clientId),
    removeRejected: (clientId: string) => outbox.removeRejected(db.offlineDb(), clientId),
  }));

function withOutbox(action: (actions: Awaited<ReturnType<typeof loadOutboxActions>>) => unknown) {
  void loadOutboxActions().then(action, () => undefined);
}

const sourceLabels = { questionnaire: 'Fragebogen', kfz: 'KFZ-Rückruf', contact: 'Kontakt' };

function waitingText(count: number) {
  return count === 1 ? '1 Anfrage wartet' : `${count} Anfragen warten`;
}

function connectionLabel(status: Status, waiting: number) {
  if (status.simulateOffline) return 'Offline (simuliert)';
  if (!status.online) return 'Offline';
  return status.hubUnreachable && waiting > 0 ? 'Server nicht erreichbar' : 'Online';
}

function connectionText(status: Status, waiting: number) {
  if (status.simulateOffline) return 'Die Offline-Simulation hält alles Senden an.';
  if (!status.online) return 'Dieses Gerät ist offline.';
  return status.hubUnreachable && waiting > 0
    ? 'Der Server ist gerade nicht erreichbar.'
    : 'Dieses Gerät ist online.';
}

/** When the waiting leads go: never "automatisch" for leads that wait for the PIN. */
function waitingSentence(status: Status, waiting: number, locked: boolean) {
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
function deliveryText({ sent, at }: { sent: number; at: number }, now = new Date()) {
  const when = new Date(at);
  const time =
    when.toDateString() === now.toDateString()
      ? clock.format(when)
      : `am ${day.format(when)} um ${clock.format(when)}`;
  return sent === 1
    ? `1 Anfrage gesendet, ${time}`
    : `Alle ${sent} Anfragen gesendet, zuletzt ${time}`;
}

/**
 * Where the leads of this device are: online or offline, how many wait, and on an ordinary device
 * which the hub rejected and what was delivered last. No personal data is shown here, only counts
 * and the hub's reasons. On the fair tablet a visitor sees the connection and the count only; the
 * agent's and a tester's controls are on the device page (/geraet).
 * Loaded lazily: it brings the offline database code, which the first paint does not need.
 */
export function DeviceStatus() {
  const status = useDeviceStatus();
  const panelId = useId();
  const details = useRef<HTMLDetailsElement>(null);
  useDismiss(details);

  const fairMode = status.kiosk;
  const locked = fairMode && status.sealed > 0 && !status.kioskUnlocked;
  const offline = status.simulateOffline || !status.online;
  const waiting = status.waiting ?? 0;
  // Sealed leads go only from a page that holds the fair tablet's key.
  const sendable = waiting - (status.kioskUnlocked ? 0 : status.sealed);
  const rejected = fairMode ? [] : status.rejected;
  const label = connectionLabel(status, waiting);
  const detailed = label !== 'Online' || waiting > 0 || rejected.length > 0 || locked;
  const hasActions = !fairMode && (waiting > 0 || rejected.length > 0);

  return (
    <>
      <SimulationBanner active={status.simulateOffline} />
      <details
        ref={details}
        className="relative text-sm"
        onToggle={(event) => {
          // Fetched ahead only when the panel has something to do; a visitor with nothing
          // waiting opens it without loading the offline database.
          if (event.currentTarget.open && hasActions) {
            void loadOutboxActions().catch(() => undefined);
          }
        }}
      >
        <summary
          aria-controls={panelId}
          // More than "Online": on a phone the header gives the status the agency name's room.
          data-detailed={detailed || undefined}
          className="flex min-h-11 cursor-pointer list-none flex-wrap items-center gap-x-2 rounded-full border border-slate-300 bg-white px-3 py-1 leading-tight text-slate-800 max-sm:text-xs"
        >
          <span
            aria-hidden="true"
            className={`size-2.5 rounded-full ${offline ? 'bg-amber-500' : 'bg-emerald-600'}`}
          />
          <span data-testid="verbindungsstatus">{label}</span>
          {status.waiting === undefined ? null : status.waiting > 0 ? (
            <span data-testid="wartende-anfragen" className="font-semibold">
              · {waitingText(status.waiting)}
            </span>
          ) : (
            <span data-testid="wartende-anfragen" className="sr-only">
              · keine Anfragen warten
            </span>
          )}
          {rejected.length > 0 ? (
            <span className="font-semibold text-red-800">· {rejected.length} abgelehnt</span>
          ) : null}
          {locked ? <span className="font-semibold text-amber-900">· Gesperrt</span> : null}
        </summary>
        <div
          id={panelId}
          className="absolute right-0 z-50 mt-2 w-80 max-w-[calc(100vw-2rem)] space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-lg"
        >
          <p>{connectionText(status, waiting)}</p>
          {status.waiting === undefined ? null : waiting > 0 ? (
            <p>{waitingSentence(status, waiting, locked)}</p>
          ) : fairMode || !status.lastDelivery ? (
            <p>Auf diesem Gerät wartet keine Anfrage.</p>
          ) : (
            <p data-testid="zuletzt-gesendet">{deliveryText(status.lastDelivery)}.</p>
          )}
          {hasActions && waiting > 0 ? (
            <button
              type="button"
              onClick={() => withOutbox(({ syncNow }) => syncNow(true))}
              disabled={sendable <= 0 || offline}
              className="min-h-11 w-full rounded-lg bg-brand-700 px-4 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
            >
              Jetzt senden
            </button>
          ) : null}
          {rejected.length > 0 ? (
            <section aria-label="Abgelehnte Anfragen">
              <h2 className="font-semibold text-red-800">Vom Server abgelehnt</h2>
              <ul className="mt-2 space-y-3">
                {rejected.map((item) => (
                  <li key={item.client_id} className="rounded-lg bg-red-50 p-2">
                    <p>
                      {sourceLabels[item.source]} vom{' '}
                      {new Date(item.created_at).toLocaleString('de-DE')}
                    </p>
                    <p className="text-red-900">{item.last_error}</p>
                    <div className="mt-1 flex gap-3">
                      <button
                        type="button"
                        className="underline"
                        onClick={() => withOutbox((outbox) => outbox.retryRejected(item.client_id))}
                      >
                        Erneut senden
                      </button>
                      <button
                        type="button"
                        className="underline"
                        onClick={() =>
                          withOutbox((outbox) => outbox.removeRejected(item.client_id))
                        }
                      >
                        Verwerfen
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      </details>
    </>
  );
}
