// The device page (/geraet): where the agent sets up and leaves the fair tablet, unlocks it so it
// sends what it sealed, looks after this device's outbox, and where a tester finds 'Offline
// simulieren'. Opened on purpose by its address, linked from no public page, kept out of search
// engines. While kiosk mode is on, every setting here asks for the PIN ('PIN bestätigen'), under
// the unlock throttle; a forgotten PIN needs a member of Survey Desk's staff.

import { useEffect, useId, useState, type ReactNode } from 'react';
import { devicePagePath } from '../../domain/routes.ts';
import {
  changeKioskPin,
  keysDeletedMessage,
  kioskCounterLeft,
  leaveKioskMode,
  lockKiosk,
  readKioskKeys,
  verifyKioskPin,
  writeSettingWithPin,
} from '../../offline/kiosk-lock.ts';
import { offlineDb } from '../../offline/offline-db.ts';
import { removeRejected, retryRejected } from '../../offline/outbox.ts';
import { syncNow } from '../../offline/sync-scheduler.ts';
import { useDeviceStatus } from '../../offline/use-device-status.ts';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { useNoindex } from '../../ui/use-noindex.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';
import { ForgetDialog, type StaffChecker } from './forget-dialog.tsx';
import {
  failed,
  leads,
  NewPinDialog,
  PinConfirmDialog,
  SetupDialog,
  UnlockDialog,
  type PinGateResult,
} from './pin-dialogs.tsx';
import { outboxSourceLabels as sourceLabels } from '../../offline/outbox-source-labels.ts';

export const devicePageMeta = {
  title: 'Dieses Gerät',
  description:
    'Einstellungen dieses Geräts für die Agentur: Messe-Modus mit PIN, wartende Anfragen und ' +
    'das Testwerkzeug „Offline simulieren“.',
  path: devicePagePath,
};

function waitingText(count: number) {
  return count === 1 ? '1 Anfrage wartet' : `${count} Anfragen warten`;
}

/** 14:32 today, else with the day: "am 27.11. um 14:32". */
function deliveryTime(at: number, today = new Date()): string {
  const when = new Date(at);
  const time = when.toLocaleTimeString('de-DE', { hour: '2-digit', minute: '2-digit' });
  return when.toDateString() === today.toDateString()
    ? time
    : `am ${when.toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit' })} um ${time}`;
}

/** "Alle 14 Anfragen gesendet, zuletzt 14:32"; one lead: "Die Anfrage wurde gesendet, um 14:32". */
export function deliveryText(delivery: { sent: number; at: number }, waiting: number): string {
  const time = deliveryTime(delivery.at);
  if (delivery.sent === 1) {
    return waiting === 0
      ? `Die Anfrage wurde gesendet, um ${time}.`
      : `1 Anfrage wurde gesendet, um ${time}.`;
  }
  return waiting === 0
    ? `Alle ${delivery.sent} Anfragen gesendet, zuletzt ${time}.`
    : `${delivery.sent} Anfragen gesendet, zuletzt ${time}.`;
}

type Dialog =
  | { kind: 'setup' }
  | { kind: 'unlock' }
  | { kind: 'forget' }
  | {
      kind: 'confirm';
      purpose: string;
      confirm: (pin: string) => Promise<PinGateResult>;
      /** The dialog that follows a confirmed PIN ('PIN ändern': the new PIN). */
      after?: (pin: string) => Dialog;
    }
  | { kind: 'new-pin'; pin: string };

const refusedSetting =
  'Die Einstellung konnte nicht gespeichert werden. Bitte versuchen Sie es erneut.';

function sealedRefusal(sealed: number): string {
  return (
    `Der Messe-Modus bleibt an: ${leads(sealed)} ${sealed === 1 ? 'wartet' : 'warten'} noch ` +
    'verschlüsselt. Entsperren Sie das Gerät mit der PIN, damit sie gesendet werden, oder ' +
    'löschen Sie sie mit „PIN vergessen“.'
  );
}

export function DevicePage(props: { checkStaff?: StaffChecker } = {}) {
  useNoindex();
  usePageMeta(devicePageMeta);
  const status = useDeviceStatus();
  const [notice, setNotice] = useState('');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [busy, setBusy] = useState<'kiosk' | 'simulate' | null>(null);
  // undefined while the settings store is read.
  const [hasPin, setHasPin] = useState<boolean | undefined>(undefined);
  const [pinLoadFailed, setPinLoadFailed] = useState(false);
  const [reads, setReads] = useState(0);
  const reread = () => setReads((n) => n + 1);

  useEffect(() => {
    let stopped = false;
    readKioskKeys(offlineDb()).then(
      (keys) => {
        if (stopped) return;
        setHasPin(keys !== undefined);
        setPinLoadFailed(false);
      },
      () => {
        if (!stopped) setPinLoadFailed(true);
      },
    );
    return () => {
      stopped = true;
    };
  }, [status.kiosk, reads]);

  const kiosk = status.kiosk;
  const locked = kiosk && status.sealed > 0 && !status.kioskUnlocked;
  const waiting = status.waiting ?? 0;
  const offline = status.simulateOffline || !status.online;
  const close = () => setDialog(null);

  /** Runs `action` with the PIN while kiosk mode is on, right away otherwise. */
  const gated = (
    purpose: string,
    action: (pin: string | undefined) => Promise<PinGateResult>,
    failure = failed,
  ) => {
    setNotice('');
    if (kiosk) {
      setDialog({ kind: 'confirm', purpose, confirm: action });
      return;
    }
    action(undefined).then(
      // The stored setting says fair mode although this page's mirror did not: the PIN after all.
      (result) => {
        if (!result.ok && result.reason === 'pin-needed') {
          setDialog({ kind: 'confirm', purpose, confirm: action });
        }
      },
      () => setNotice(failure),
    );
  };

  const switchKiosk = (on: boolean) => {
    setNotice('');
    if (on) {
      setDialog({ kind: 'setup' });
      return;
    }
    // Refused before the PIN is asked: no attempt is spent on it.
    if (status.sealed > 0) {
      setNotice(sealedRefusal(status.sealed));
      return;
    }
    setDialog({
      kind: 'confirm',
      purpose: 'Geben Sie die PIN ein, um den Messe-Modus auszuschalten.',
      confirm: async (pin) => {
        setBusy('kiosk');
        try {
          const result = await leaveKioskMode(offlineDb(), pin);
          if (result.ok) {
            setNotice('Der Messe-Modus ist aus.');
            return { ok: true };
          }
          if ('sealed' in result) {
            setNotice(sealedRefusal(result.sealed));
            return { ok: true };
          }
          return result;
        } finally {
          setBusy(null);
        }
      },
    });
  };

  const switchSimulation = (on: boolean) =>
    gated(
      on
        ? 'Geben Sie die PIN ein, um die Offline-Simulation einzuschalten.'
        : 'Geben Sie die PIN ein, um die Offline-Simulation auszuschalten.',
      async (pin) => {
        setBusy('simulate');
        try {
          const result = await writeSettingWithPin(offlineDb(), 'simulateOffline', on, pin);
          if (result.ok) {
            setNotice(
              on
                ? 'Die Offline-Simulation ist an: Dieses Gerät sendet nichts, bis Sie sie ausschalten.'
                : 'Die Offline-Simulation ist aus.',
            );
          }
          return result;
        } finally {
          setBusy(null);
        }
      },
      refusedSetting,
    );

  const discard = (clientId: string) =>
    gated('Geben Sie die PIN ein, um die abgelehnte Anfrage zu verwerfen.', async (pin) => {
      const db = offlineDb();
      if (pin !== undefined) {
        const verified = await verifyKioskPin(db, pin);
        if (!verified.ok) return verified;
      }
      await removeRejected(db, clientId);
      setNotice('Die Anfrage wurde verworfen.');
      return { ok: true };
    });

  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-8">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold text-slate-900">Dieses Gerät</h1>
        <p className="text-slate-700">
          Einstellungen für dieses Gerät und diesen Browser: für das Tablet auf der Messe und für
          Tests. Besucherinnen und Besucher brauchen diese Seite nicht.
        </p>
      </header>

      <Section title="Messe-Modus">
        <SettingSwitch
          label="Messe-Modus"
          hint="Nach jeder Anfrage und nach 3 Minuten ohne Eingabe beginnt der Fragebogen leer; keine Entwürfe. Wartende Anfragen werden mit einer PIN verschlüsselt. Solange der Messe-Modus an ist, braucht jede Einstellung auf dieser Seite die PIN."
          checked={kiosk}
          busy={busy === 'kiosk'}
          onChange={switchKiosk}
        />
        {!kiosk ? null : pinLoadFailed ? (
          <LoadError framed={false} onRetry={reread}>
            Der PIN-Schutz konnte nicht gelesen werden.
          </LoadError>
        ) : hasPin === undefined ? (
          <p role="status">PIN-Schutz wird geladen …</p>
        ) : !hasPin ? (
          <div className="space-y-3">
            {kioskCounterLeft() ? (
              <p
                role="alert"
                data-testid="kiosk-warnung"
                className="rounded-lg border border-red-300 bg-red-50 p-3 font-semibold text-red-900"
              >
                {keysDeletedMessage}
              </p>
            ) : null}
            <p>Ohne PIN werden Anfragen auf diesem Gerät unverschlüsselt gespeichert.</p>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'setup' })}>
              PIN festlegen
            </Button>
          </div>
        ) : (
          <div className="space-y-3">
            {status.kioskUnlocked ? (
              <p>
                Entsperrt: Verschlüsselte Anfragen werden gesendet, solange diese Seite geöffnet
                ist. Sperren Sie das Gerät, bevor Sie es aus der Hand geben.
              </p>
            ) : status.sealed > 0 ? (
              <p className="font-semibold text-amber-900" data-testid="kiosk-gesperrt">
                Gesperrt: {leads(status.sealed)} {status.sealed === 1 ? 'wartet' : 'warten'}, bis
                die PIN eingegeben ist.
              </p>
            ) : (
              <p>
                Gesperrt: Anfragen werden verschlüsselt gespeichert und warten, bis die PIN
                eingegeben ist.
              </p>
            )}
            <div className="flex flex-wrap gap-3">
              {status.kioskUnlocked ? (
                <Button
                  variant="secondary"
                  onClick={() => {
                    lockKiosk();
                    setNotice('Das Gerät ist gesperrt.');
                  }}
                >
                  Sperren
                </Button>
              ) : (
                <Button onClick={() => setDialog({ kind: 'unlock' })}>PIN eingeben</Button>
              )}
              <Button
                variant="secondary"
                onClick={() => {
                  setNotice('');
                  setDialog({
                    kind: 'confirm',
                    purpose: 'Geben Sie die bisherige PIN ein, um eine neue festzulegen.',
                    confirm: (pin) => verifyKioskPin(offlineDb(), pin),
                    after: (pin) => ({ kind: 'new-pin', pin }),
                  });
                }}
              >
                PIN ändern
              </Button>
              {status.kioskUnlocked ? null : (
                <Button variant="ghost" onClick={() => setDialog({ kind: 'forget' })}>
                  PIN vergessen
                </Button>
              )}
            </div>
          </div>
        )}
      </Section>

      <Section title="Anfragen auf diesem Gerät">
        <p>
          {waiting === 0
            ? 'Alle Anfragen dieses Geräts sind gesendet.'
            : locked
              ? `${waitingText(waiting)} auf diesem Gerät. Verschlüsselte Anfragen warten, bis die PIN eingegeben ist; danach werden sie gesendet, solange diese Seite geöffnet und entsperrt ist.`
              : status.simulateOffline
                ? `${waitingText(waiting)} auf diesem Gerät. Die Offline-Simulation hält sie zurück, bis Sie sie ausschalten.`
                : `${waitingText(waiting)} auf diesem Gerät und ${waiting === 1 ? 'wird' : 'werden'} gesendet, sobald eine Verbindung besteht.`}
        </p>
        {status.lastDelivery ? (
          <p data-testid="geraet-zuletzt-gesendet" className="text-emerald-800">
            {deliveryText(status.lastDelivery, waiting)}
          </p>
        ) : null}
        <Button
          onClick={() => void syncNow(true)}
          // Sealed leads of a locked tablet go only after the PIN.
          disabled={waiting - (locked ? status.sealed : 0) === 0 || offline}
        >
          Jetzt senden
        </Button>
        {status.rejected.length > 0 ? (
          <section aria-label="Abgelehnte Anfragen" className="space-y-2">
            <h3 className="font-semibold text-red-800">Vom Server abgelehnt</h3>
            <ul className="space-y-3">
              {status.rejected.map((item) => (
                <li key={item.client_id} className="rounded-lg bg-red-50 p-3">
                  <p>
                    {sourceLabels[item.source]} vom{' '}
                    {new Date(item.created_at).toLocaleString('de-DE')}
                  </p>
                  <p className="text-red-900">{item.last_error}</p>
                  <div className="mt-1 flex gap-3">
                    <Button
                      variant="ghost"
                      className="px-0"
                      onClick={() =>
                        void retryRejected(offlineDb(), item.client_id).catch(() =>
                          setNotice(failed),
                        )
                      }
                    >
                      Erneut senden
                    </Button>
                    <Button
                      variant="ghost"
                      className="px-0"
                      onClick={() => discard(item.client_id)}
                    >
                      Verwerfen
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </Section>

      <Section title="Testwerkzeug">
        <p className="rounded-lg border border-amber-400 bg-amber-50 p-3 text-amber-950">
          Nur für Tests: Die Simulation wirkt wie ein echter Ausfall. Solange sie an ist, sendet
          dieses Gerät keine Anfrage, auch nicht im Hintergrund, und lädt Fragebögen nur aus dem
          Speicher des Geräts.
        </p>
        <SettingSwitch
          label="Offline simulieren"
          hint="Hält alles Senden an, bis Sie die Simulation hier wieder ausschalten."
          checked={status.simulateOffline}
          busy={busy === 'simulate'}
          onChange={switchSimulation}
        />
      </Section>

      <p
        role="status"
        aria-live="polite"
        data-testid="geraet-meldung"
        className="font-semibold empty:hidden"
      >
        {notice}
      </p>

      {dialog?.kind === 'setup' ? (
        <SetupDialog
          kiosk={kiosk}
          onClose={close}
          onDone={() => {
            close();
            reread();
            setNotice(
              kiosk
                ? 'Die PIN ist festgelegt.'
                : 'Der Messe-Modus ist an und mit der PIN geschützt.',
            );
          }}
        />
      ) : null}
      {dialog?.kind === 'unlock' ? (
        <UnlockDialog
          sealed={status.sealed}
          onClose={close}
          onDone={(warning) => {
            // A warning keeps the dialog open until the agent has read it; the page keeps it too.
            if (warning === undefined) close();
            setNotice(
              warning ??
                (status.sealed > 0
                  ? `Entsperrt. ${leads(status.sealed)} ${status.sealed === 1 ? 'wird' : 'werden'} gesendet.`
                  : 'Entsperrt.'),
            );
            void syncNow(true);
          }}
        />
      ) : null}
      {dialog?.kind === 'confirm' ? (
        <PinConfirmDialog
          purpose={dialog.purpose}
          confirm={dialog.confirm}
          onClose={close}
          onConfirmed={(warning, pin) => {
            setDialog(dialog.after ? dialog.after(pin) : null);
            if (warning !== undefined) setNotice(warning);
          }}
        />
      ) : null}
      {dialog?.kind === 'new-pin' ? (
        <NewPinDialog
          change={(newPin) => changeKioskPin(offlineDb(), dialog.pin, newPin)}
          onClose={close}
          onDone={(warning) => {
            close();
            setNotice(
              warning ?? 'Die PIN ist geändert. Wartende Anfragen öffnet jetzt die neue PIN.',
            );
          }}
        />
      ) : null}
      {dialog?.kind === 'forget' ? (
        <ForgetDialog
          checkStaff={props.checkStaff}
          onClose={close}
          onDone={(discarded) => {
            close();
            reread();
            setNotice(
              `${discarded === 1 ? '1 Anfrage wurde' : `${discarded} Anfragen wurden`} gelöscht. ` +
                'Der Messe-Modus ist aus; Sie können ihn mit einer neuen PIN wieder einschalten.',
            );
          }}
        />
      ) : null}
    </div>
  );
}

function Section(props: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-4 rounded-xl border border-slate-200 p-5">
      <h2 id={id} className="text-xl font-bold text-slate-900">
        {props.title}
      </h2>
      {props.children}
    </section>
  );
}

/** A switch that shows "on" only once the setting is stored (`checked` comes from the store). */
function SettingSwitch(props: {
  label: string;
  hint: string;
  checked: boolean;
  busy: boolean;
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
        aria-busy={props.busy || undefined}
        disabled={props.busy}
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
