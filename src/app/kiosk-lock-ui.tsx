// Kiosk mode's PIN in the header's device panel, as it was before the device page (/geraet): kept
// only while the header still imports it (issue 34 moves every kiosk control out of the header;
// the dialogs live in src/site/device/pin-dialogs.tsx). Deleted once the header stops importing
// it. Loaded only on a device in kiosk mode (or when the agent turns it on): visitors' phones
// never fetch it, nor the crypto and Dexie code it brings.

import { useEffect, useState } from 'react';
import {
  forgetPin,
  keysDeletedMessage,
  kioskCounterLeft,
  lockKiosk,
  readKioskKeys,
  turnKioskOff,
} from '../offline/kiosk-lock.ts';
import { offlineDb } from '../offline/offline-db.ts';
import { syncNow } from '../offline/sync-scheduler.ts';
import { failed, leads, Modal, SetupDialog, UnlockDialog } from '../site/device/pin-dialogs.tsx';
import { Button } from '../ui/button.tsx';
import { LoadError } from '../ui/load-error.tsx';

type DialogKind = 'setup' | 'unlock' | 'forget';

export interface KioskLockUiProps {
  kiosk: boolean;
  /** Sealed leads waiting on the device. */
  sealed: number;
  unlocked: boolean;
  /** The agent switched 'Messe-Modus' on: the PIN dialog is open until onSetupClosed. */
  setupRequested: boolean;
  onSetupClosed: () => void;
  /** What an action did, for the panel's live region (it outlives this part). */
  onNotice: (text: string) => void;
}

/**
 * The 'Messe-Modus' switch turned off: refused, with the reason, while sealed leads wait.
 * Returns the message for the panel.
 */
export async function switchKioskOff(): Promise<string> {
  const result = await turnKioskOff(offlineDb());
  if (result.ok) return 'Der Messe-Modus ist aus.';
  const verb = result.sealed === 1 ? 'wartet' : 'warten';
  return (
    `Der Messe-Modus bleibt an: ${leads(result.sealed)} ${verb} noch verschlüsselt. ` +
    'Entsperren Sie das Gerät mit der PIN, damit sie gesendet werden, oder löschen Sie sie mit ' +
    '„PIN vergessen“.'
  );
}

/** The kiosk part of the device panel: the lock's state, its actions and dialogs. */
export function KioskLockUi(props: KioskLockUiProps) {
  const { kiosk, sealed, unlocked, setupRequested, onSetupClosed, onNotice } = props;
  // undefined while the settings store is read.
  const [hasPin, setHasPin] = useState<boolean | undefined>(undefined);
  const [loadFailed, setLoadFailed] = useState(false);
  const [chosen, setDialog] = useState<DialogKind | null>(null);
  const [reads, setReads] = useState(0);
  const dialog = setupRequested ? 'setup' : chosen;

  useEffect(() => {
    let stopped = false;
    readKioskKeys(offlineDb()).then(
      (keys) => {
        if (stopped) return;
        setHasPin(keys !== undefined);
        setLoadFailed(false);
      },
      () => {
        if (!stopped) setLoadFailed(true);
      },
    );
    return () => {
      stopped = true;
    };
  }, [kiosk, reads]);
  const reread = () => setReads((n) => n + 1);

  const closeDialog = () => {
    setDialog(null);
    if (setupRequested) onSetupClosed();
  };

  return (
    <section aria-label="PIN-Schutz des Messe-Modus" className="space-y-2">
      {!kiosk ? null : loadFailed ? (
        <LoadError framed={false} onRetry={reread}>
          Der PIN-Schutz konnte nicht gelesen werden.
        </LoadError>
      ) : hasPin === undefined ? (
        <p role="status">PIN-Schutz wird geladen …</p>
      ) : !hasPin ? (
        <div className="space-y-2">
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
          <Button variant="secondary" className="w-full" onClick={() => setDialog('setup')}>
            PIN festlegen
          </Button>
        </div>
      ) : (
        <div className="space-y-2">
          {unlocked ? (
            <p>Entsperrt: Verschlüsselte Anfragen werden gesendet.</p>
          ) : sealed > 0 ? (
            <p className="font-semibold text-amber-900" data-testid="kiosk-gesperrt">
              Gesperrt – PIN eingeben, um {leads(sealed)} zu senden
            </p>
          ) : (
            <p>
              Gesperrt: Anfragen werden verschlüsselt gespeichert und erst nach der PIN gesendet.
            </p>
          )}
          {unlocked ? (
            <Button
              variant="secondary"
              className="w-full"
              onClick={() => {
                lockKiosk();
                onNotice('Das Gerät ist gesperrt.');
              }}
            >
              Sperren
            </Button>
          ) : (
            <>
              <Button className="w-full" onClick={() => setDialog('unlock')}>
                PIN eingeben
              </Button>
              <Button variant="ghost" className="w-full" onClick={() => setDialog('forget')}>
                PIN vergessen
              </Button>
            </>
          )}
        </div>
      )}
      {dialog === 'setup' ? (
        <SetupDialog
          kiosk={kiosk}
          onClose={closeDialog}
          onDone={() => {
            closeDialog();
            reread();
            onNotice(
              kiosk
                ? 'Die PIN ist festgelegt.'
                : 'Der Messe-Modus ist an und mit der PIN geschützt.',
            );
          }}
        />
      ) : null}
      {dialog === 'unlock' ? (
        <UnlockDialog
          sealed={sealed}
          onClose={closeDialog}
          onDone={(warning) => {
            // A warning keeps the dialog open until the agent has read it; the panel keeps it too.
            if (warning === undefined) closeDialog();
            onNotice(
              warning ??
                (sealed > 0
                  ? `Entsperrt. ${leads(sealed)} ${sealed === 1 ? 'wird' : 'werden'} gesendet.`
                  : 'Entsperrt.'),
            );
            void syncNow(true);
          }}
        />
      ) : null}
      {dialog === 'forget' ? (
        <ForgetDialog
          sealed={sealed}
          onClose={closeDialog}
          onDone={(discarded) => {
            closeDialog();
            reread();
            onNotice(
              `${discarded === 1 ? '1 Anfrage wurde' : `${discarded} Anfragen wurden`} gelöscht. ` +
                'Der Messe-Modus ist aus; Sie können ihn mit einer neuen PIN wieder einschalten.',
            );
          }}
        />
      ) : null}
    </section>
  );
}

function ForgetDialog(props: {
  sealed: number;
  onClose: () => void;
  onDone: (discarded: number) => void;
}) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  return (
    <Modal title="PIN vergessen?" onClose={props.onClose}>
      <div className="space-y-3">
        <p>
          Ohne die PIN kann niemand die verschlüsselten Anfragen auf diesem Gerät lesen oder senden,
          auch wir nicht.{' '}
          {props.sealed > 0
            ? `${leads(props.sealed)} ${props.sealed === 1 ? 'wird' : 'werden'} endgültig gelöscht.`
            : 'Verschlüsselte Anfragen werden endgültig gelöscht.'}{' '}
          Der Messe-Modus wird ausgeschaltet; Sie können ihn danach mit einer neuen PIN wieder
          einschalten.
        </p>
        <p role="status" aria-live="polite" className="empty:hidden">
          {state === 'busy' ? 'Die Anfragen werden gelöscht …' : ''}
        </p>
        {state === 'failed' ? (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
            {failed}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-3">
          {/* The harmless choice first and focused: Enter right after opening deletes nothing. */}
          <Button variant="secondary" onClick={props.onClose} autoFocus>
            Abbrechen
          </Button>
          <button
            type="button"
            disabled={state === 'busy'}
            onClick={() => {
              setState('busy');
              forgetPin(offlineDb()).then(props.onDone, () => setState('failed'));
            }}
            className="inline-flex min-h-11 items-center justify-center rounded-lg bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400"
          >
            Anfragen löschen
          </button>
        </div>
      </div>
    </Modal>
  );
}
