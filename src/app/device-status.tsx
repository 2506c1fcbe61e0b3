import { StrictMode, useEffect, useId, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { DeviceStatus as Status } from '../offline/device-status-store.ts';
import { useDeviceStatus } from '../offline/use-device-status.ts';
import { useDismiss } from '../ui/use-dismiss.ts';
import { StatusSummary } from './device-status-markup.tsx';
import {
  connectionText,
  deliveryText,
  detailsClassName,
  panelClassName,
  statusFacts,
  waitingSentence,
} from './device-status-view.ts';
import { SimulationBanner } from './simulation-banner.tsx';
import { outboxSourceLabels as sourceLabels } from '../offline/outbox-source-labels.ts';

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

/** The open panel's content: what waits and why, and the outbox's actions. */
function DeviceStatusPanel({ status }: { status: Status }) {
  const { fairMode, locked, offline, waiting, sendable, rejected, hasActions } =
    statusFacts(status);
  return (
    <>
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
                    onClick={() => withOutbox((outbox) => outbox.removeRejected(item.client_id))}
                  >
                    Verwerfen
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/**
 * Where the leads of this device are: online or offline, how many wait, and on an ordinary device
 * which the hub rejected and what was delivered last. No personal data is shown here, only counts
 * and the hub's reasons. On the fair tablet a visitor sees the connection and the count only; the
 * agent's and a tester's controls are on the device page (/geraet).
 * The app shell's version (src/app/public-layout.tsx), loaded lazily; a prerendered page runs the
 * plain DOM one (device-status-dom.ts) and loads only the panel from here.
 */
export function DeviceStatus() {
  const status = useDeviceStatus();
  const panelId = useId();
  const details = useRef<HTMLDetailsElement>(null);
  useDismiss(details);
  const { hasActions } = statusFacts(status);

  return (
    <>
      <SimulationBanner active={status.simulateOffline} />
      <details
        ref={details}
        className={detailsClassName}
        onToggle={(event) => {
          // Fetched ahead only when the panel has something to do; a visitor with nothing
          // waiting opens it without loading the offline database.
          if (event.currentTarget.open && hasActions) {
            void loadOutboxActions().catch(() => undefined);
          }
        }}
      >
        <StatusSummary status={status} panelId={panelId} />
        <div id={panelId} className={panelClassName}>
          <DeviceStatusPanel status={status} />
        </div>
      </details>
    </>
  );
}

/** The panel of the plain DOM status, from its first opening on. */
function LivePanel({ details }: { details: HTMLDetailsElement }) {
  const status = useDeviceStatus();
  const { hasActions } = statusFacts(status);
  useEffect(() => {
    const prefetch = () => {
      if (details.open && hasActions) void loadOutboxActions().catch(() => undefined);
    };
    prefetch();
    details.addEventListener('toggle', prefetch);
    return () => details.removeEventListener('toggle', prefetch);
  }, [details, hasActions]);
  return <DeviceStatusPanel status={status} />;
}

/**
 * Gives the plain DOM status's panel (device-status-dom.ts) its React content, when the visitor
 * first opens it: the rejected leads and the outbox's actions need more than a text.
 */
export function mountDeviceStatusPanel(panel: HTMLElement, details: HTMLDetailsElement): void {
  createRoot(panel).render(
    <StrictMode>
      <LivePanel details={details} />
    </StrictMode>,
  );
}
