import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { writeDeviceSetting } from '../offline/device-settings.ts';
import { useDeviceStatus } from '../offline/use-device-status.ts';
import { useDismiss } from '../ui/use-dismiss.ts';

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

// Kiosk mode's PIN (setting, unlocking, forgetting) and its crypto: only for the fair tablet.
const KioskLockUi = lazy(async () => ({
  default: (await import('./kiosk-lock-ui.tsx')).KioskLockUi,
}));

function withOutbox(action: (actions: Awaited<ReturnType<typeof loadOutboxActions>>) => unknown) {
  void loadOutboxActions().then(action, () => undefined);
}

const sourceLabels = { questionnaire: 'Fragebogen', kfz: 'KFZ-Rückruf', contact: 'Kontakt' };

function waitingText(count: number) {
  return count === 1 ? '1 Anfrage wartet' : `${count} Anfragen warten`;
}

/**
 * Where the leads of this device are: online or offline, how many wait, which the hub
 * rejected. No personal data is shown here, only counts and the hub's reasons.
 * Loaded lazily: it brings the offline database code, which the first paint does not need.
 */
export function DeviceStatus() {
  const status = useDeviceStatus();
  const panelId = useId();
  const details = useRef<HTMLDetailsElement>(null);
  useDismiss(details);
  const [setupRequested, setSetupRequested] = useState(false);
  // What a kiosk action did; kept here, since turning kiosk mode off unloads its part.
  const [kioskNotice, setKioskNotice] = useState('');
  const closeSetup = useCallback(() => setSetupRequested(false), []);
  const locked = status.kiosk && status.sealed > 0 && !status.kioskUnlocked;

  // The simulation banner sits over the page bottom; room below keeps the footer readable.
  useEffect(() => {
    document.body.style.paddingBottom = status.simulateOffline ? '4rem' : '';
  }, [status.simulateOffline]);

  const offline = status.simulateOffline || !status.online;
  const waiting = status.waiting ?? 0;
  const label = status.simulateOffline
    ? 'Offline (simuliert)'
    : !status.online
      ? 'Offline'
      : status.hubUnreachable && waiting > 0
        ? 'Server nicht erreichbar'
        : 'Online';

  return (
    <>
      {status.simulateOffline ? (
        <div
          role="status"
          className="pointer-events-none fixed inset-x-0 bottom-0 z-50 border-t-4 border-amber-600 bg-amber-100 px-4 py-3 text-center font-semibold text-amber-950"
        >
          Offline-Simulation aktiv: Es wird nichts gesendet, Fragebögen kommen nur vom Gerät.
        </div>
      ) : null}
      <details
        ref={details}
        className="relative text-sm"
        onToggle={(event) => {
          if (event.currentTarget.open) void loadOutboxActions().catch(() => undefined);
        }}
      >
        <summary
          aria-controls={panelId}
          className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-full border border-slate-300 bg-white px-3 py-1 text-slate-800"
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
          {status.rejected.length > 0 ? (
            <span className="font-semibold text-red-800">· {status.rejected.length} abgelehnt</span>
          ) : null}
          {locked ? <span className="font-semibold text-amber-900">· Gesperrt</span> : null}
        </summary>
        <div
          id={panelId}
          className="absolute right-0 z-50 mt-2 w-80 max-w-[calc(100vw-2rem)] space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-lg"
        >
          <p>
            {waiting > 0
              ? `${waitingText(waiting)} auf diesem Gerät und ${waiting === 1 ? 'wird' : 'werden'} automatisch gesendet.`
              : 'Alle Anfragen dieses Geräts sind gesendet.'}
          </p>
          <button
            type="button"
            onClick={() => withOutbox(({ syncNow }) => syncNow(true))}
            // Sealed leads of a locked tablet go only after the PIN.
            disabled={waiting - (locked ? status.sealed : 0) === 0 || offline}
            className="min-h-11 w-full rounded-lg bg-brand-700 px-4 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
          >
            Jetzt senden
          </button>
          <SettingSwitch
            label="Offline simulieren"
            hint="Hält alles Senden an und lädt Fragebögen nur vom Gerät, wie bei einem echten Ausfall."
            checked={status.simulateOffline}
            onChange={(on) => writeDeviceSetting('simulateOffline', on)}
          />
          <SettingSwitch
            label="Messe-Modus"
            hint="Nach jeder Anfrage und nach 3 Minuten ohne Eingabe beginnt der Fragebogen leer; keine Entwürfe. Wartende Anfragen werden mit einer PIN verschlüsselt."
            checked={status.kiosk}
            // On asks for a PIN first; off is refused while sealed leads wait (kiosk-lock-ui).
            onChange={(on) => {
              setKioskNotice('');
              if (on) {
                setSetupRequested(true);
                return;
              }
              import('./kiosk-lock-ui.tsx')
                .then(({ switchKioskOff }) => switchKioskOff())
                .then(setKioskNotice, () =>
                  setKioskNotice('Das hat nicht geklappt. Bitte versuchen Sie es erneut.'),
                );
            }}
          />
          {status.kiosk || setupRequested ? (
            <Suspense fallback={<p>PIN-Schutz wird geladen …</p>}>
              <KioskLockUi
                kiosk={status.kiosk}
                sealed={status.sealed}
                unlocked={status.kioskUnlocked}
                setupRequested={setupRequested}
                onSetupClosed={closeSetup}
                onNotice={setKioskNotice}
              />
            </Suspense>
          ) : null}
          <p aria-live="polite" className="empty:hidden" data-testid="kiosk-meldung">
            {kioskNotice}
          </p>
          {status.rejected.length > 0 ? (
            <section aria-label="Abgelehnte Anfragen">
              <h2 className="font-semibold text-red-800">Vom Server abgelehnt</h2>
              <ul className="mt-2 space-y-3">
                {status.rejected.map((item) => (
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

function SettingSwitch(props: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-describedby={`${id}-hinweis`}
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
        className="mt-1 size-5 shrink-0 accent-brand-700"
      />
      <div>
        <label htmlFor={id} className="font-medium">
          {props.label}
        </label>
        <p id={`${id}-hinweis`} className="text-slate-600">
          {props.hint}
        </p>
      </div>
    </div>
  );
}
