// Kiosk mode's PIN in the device panel: setting it when kiosk mode goes on, unlocking the
// tablet so it sends what it sealed, locking it, and the way out when the PIN is forgotten.
// Loaded only on a device in kiosk mode (or when the agent turns it on): visitors' phones never
// fetch it, nor the crypto and Dexie code it brings.

import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import {
  forgetPin,
  freeUnlockAttempts,
  keysDeletedMessage,
  kioskCounterLeft,
  lockKiosk,
  pinMessages,
  pinRuleMessage,
  readKioskKeys,
  tamperingMessage,
  turnKioskOff,
  turnKioskOn,
  unlockKiosk,
} from '../offline/kiosk-lock.ts';
import { offlineDb } from '../offline/offline-db.ts';
import { syncNow } from '../offline/sync-scheduler.ts';
import { Button } from '../ui/button.tsx';
import { TextField } from '../ui/form-fields.tsx';
import { LoadError } from '../ui/load-error.tsx';

type DialogKind = 'setup' | 'unlock' | 'forget';

function leads(count: number) {
  return count === 1 ? '1 Anfrage' : `${count} Anfragen`;
}

function clockTime(epochMs: number) {
  return new Date(epochMs).toLocaleTimeString('de-DE', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

const failed = 'Das hat nicht geklappt. Bitte versuchen Sie es erneut.';

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

/** A native modal dialog, open while mounted; Escape and 'Abbrechen' call onClose. */
function Modal(props: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { onClose } = props;
  // Read while rendering: by the layout effect an autoFocus inside may have taken the focus.
  const [opener] = useState(() => document.activeElement);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    // Unmounted rather than closed: focus goes back to the button that opened it, if still there.
    return () => {
      if (dialog?.open) dialog.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [opener]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-full max-w-md rounded-xl bg-white p-6 text-base text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <h2 id={titleId} className="mb-3 text-xl font-bold">
        {props.title}
      </h2>
      {props.children}
    </dialog>
  );
}

const pinInput = {
  type: 'password',
  inputMode: 'numeric',
  autoComplete: 'off',
  // Digits only, yet as a password: the screen must not show the PIN to the next visitor.
  pattern: '[0-9]*',
} as const;

function SetupDialog(props: { kiosk: boolean; onClose: () => void; onDone: () => void }) {
  const [understood, setUnderstood] = useState(false);
  const [pin, setPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ pin?: string; repeat?: string }>({});
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const pinError = pinRuleMessage(pin);
    const repeatError = pinError
      ? undefined
      : repeat === ''
        ? pinMessages.empty
        : repeat !== pin
          ? pinMessages.mismatch
          : undefined;
    setErrors({ pin: pinError, repeat: repeatError });
    if (pinError || repeatError) return;
    setState('busy');
    turnKioskOn(offlineDb(), pin).then(props.onDone, () => setState('failed'));
  };

  const title = props.kiosk ? 'PIN festlegen' : 'Messe-Modus einschalten';
  if (!understood) {
    return (
      <Modal title={title} onClose={props.onClose}>
        <div className="space-y-3">
          <p>
            Im Messe-Modus werden Anfragen auf diesem Gerät verschlüsselt gespeichert. Zum Senden
            fragt das Gerät nach jedem Neustart nach einer PIN, die Sie jetzt festlegen.
          </p>
          <p className="rounded-lg border border-amber-400 bg-amber-50 p-3 font-semibold text-amber-950">
            Wichtig: Wird die PIN vergessen, kann niemand die wartenden Anfragen mehr lesen oder
            senden, auch wir nicht. Sie können dann nur noch gelöscht werden. Bewahren Sie die PIN
            sicher auf.
          </p>
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={props.onClose} autoFocus>
              Abbrechen
            </Button>
            <Button onClick={() => setUnderstood(true)}>Verstanden, PIN festlegen</Button>
          </div>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title={title} onClose={props.onClose}>
      <form noValidate onSubmit={submit} className="space-y-3">
        <TextField
          label="Neue PIN"
          hint="Mindestens 6 Ziffern; eine längere PIN schützt besser."
          required
          value={pin}
          error={errors.pin}
          onChange={(event) => setPin(event.target.value)}
          autoFocus
          {...pinInput}
        />
        <TextField
          label="PIN wiederholen"
          required
          value={repeat}
          error={errors.repeat}
          onChange={(event) => setRepeat(event.target.value)}
          {...pinInput}
        />
        <p role="status" aria-live="polite" className="empty:hidden">
          {state === 'busy' ? 'Die PIN wird gesichert …' : ''}
        </p>
        {state === 'failed' ? (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
            Die PIN konnte nicht gespeichert werden. Bitte versuchen Sie es erneut.
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={props.onClose}>
            Abbrechen
          </Button>
          <Button type="submit" disabled={state === 'busy'}>
            {props.kiosk ? 'PIN festlegen' : 'Messe-Modus einschalten'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function UnlockDialog(props: {
  sealed: number;
  onClose: () => void;
  /** Unlocked; `warning`: what the PIN found altered on the tablet, for the agent to read. */
  onDone: (warning?: string) => void;
}) {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const [warning, setWarning] = useState<string | undefined>(undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pin === '') {
      setError(pinMessages.empty);
      return;
    }
    setError(undefined);
    setState('busy');
    unlockKiosk(offlineDb(), pin).then(
      (result) => {
        setState('idle');
        if (result.ok) {
          const found = result.tampered ? tamperingMessage(result.tampered) : undefined;
          setWarning(found);
          props.onDone(found);
          return;
        }
        setPin('');
        if (result.reason === 'no-keys') {
          setError('Auf diesem Gerät ist keine PIN festgelegt.');
        } else if (result.reason === 'wait') {
          setError(
            `Zu viele falsche Eingaben. Der nächste Versuch ist ab ${clockTime(result.waitUntil)} Uhr möglich.`,
          );
        } else {
          const left = freeUnlockAttempts - result.failures;
          setError(
            left > 0
              ? `Die PIN ist nicht richtig. Noch ${left} ${left === 1 ? 'Versuch' : 'Versuche'} ohne Wartezeit.`
              : `Die PIN ist nicht richtig. Der nächste Versuch ist ab ${clockTime(result.waitUntil)} Uhr möglich.`,
          );
        }
      },
      () => setState('failed'),
    );
  };

  if (warning !== undefined) {
    return (
      <Modal title="Gerät entsperren" onClose={props.onClose}>
        <div className="space-y-3">
          <p
            role="alert"
            data-testid="kiosk-warnung"
            className="rounded-lg border border-red-300 bg-red-50 p-3 font-semibold text-red-900"
          >
            {warning}
          </p>
          <div className="flex justify-end">
            <Button onClick={props.onClose} autoFocus>
              Verstanden
            </Button>
          </div>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title="Gerät entsperren" onClose={props.onClose}>
      <form noValidate onSubmit={submit} className="space-y-3">
        <p>
          {props.sealed > 0
            ? `Geben Sie die PIN ein, um ${leads(props.sealed)} zu senden.`
            : 'Geben Sie die PIN ein, damit verschlüsselte Anfragen gesendet werden.'}
        </p>
        <TextField
          label="PIN"
          required
          value={pin}
          error={error}
          onChange={(event) => setPin(event.target.value)}
          autoFocus
          {...pinInput}
        />
        <p role="status" aria-live="polite" className="empty:hidden">
          {state === 'busy' ? 'Die PIN wird geprüft …' : ''}
        </p>
        {state === 'failed' ? (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
            {failed}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={props.onClose}>
            Abbrechen
          </Button>
          <Button type="submit" disabled={state === 'busy'}>
            Entsperren
          </Button>
        </div>
      </form>
    </Modal>
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
