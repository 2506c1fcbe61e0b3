// The PIN's dialogs, for the device page (/geraet): setting the PIN when kiosk mode goes on,
// unlocking the tablet so it sends what it sealed, the one 'PIN bestätigen' dialog every setting
// asks while kiosk mode is on, and choosing a new PIN after it. Native <dialog> elements, so the
// focus stays inside and Escape closes them.

import { useId, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  freeUnlockAttempts,
  pinMessages,
  pinRuleMessage,
  tamperingMessage,
  turnKioskOn,
  unlockKiosk,
  type PinRefusal,
} from '../../offline/kiosk-lock.ts';
import { offlineDb } from '../../offline/offline-db.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-fields.tsx';

export function leads(count: number) {
  return count === 1 ? '1 Anfrage' : `${count} Anfragen`;
}

export function clockTime(epochMs: number) {
  return new Date(epochMs).toLocaleTimeString('de-DE', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export const failed = 'Das hat nicht geklappt. Bitte versuchen Sie es erneut.';

/** The German message for a PIN the throttle or the keys refused, for the PIN field. */
export function pinRefusalMessage(
  result: PinRefusal | { ok: false; reason: 'pin-needed' },
): string {
  if (result.reason === 'no-keys' || result.reason === 'pin-needed') {
    return 'Auf diesem Gerät ist keine PIN festgelegt.';
  }
  if (result.reason === 'wait') {
    return `Zu viele falsche Eingaben. Der nächste Versuch ist ab ${clockTime(result.waitUntil)} Uhr möglich.`;
  }
  const left = freeUnlockAttempts - result.failures;
  return left > 0
    ? `Die PIN ist nicht richtig. Noch ${left} ${left === 1 ? 'Versuch' : 'Versuche'} ohne Wartezeit.`
    : `Die PIN ist nicht richtig. Der nächste Versuch ist ab ${clockTime(result.waitUntil)} Uhr möglich.`;
}

/** A native modal dialog, open while mounted; Escape and 'Abbrechen' call onClose. */
export function Modal(props: { title: string; onClose: () => void; children: ReactNode }) {
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

export const pinInput = {
  type: 'password',
  inputMode: 'numeric',
  autoComplete: 'off',
  // Digits only, yet as a password: the screen must not show the PIN to the next visitor.
  pattern: '[0-9]*',
} as const;

export function SetupDialog(props: { kiosk: boolean; onClose: () => void; onDone: () => void }) {
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

export function UnlockDialog(props: {
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
        setError(pinRefusalMessage(result));
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

/** What a PIN-gated action answers: done (with what the PIN found altered, if anything) or why not. */
export type PinGateResult =
  | { ok: true; tampered?: Parameters<typeof tamperingMessage>[0] }
  | PinRefusal
  | { ok: false; reason: 'pin-needed' };

/**
 * 'PIN bestätigen': the one dialog for every setting that needs the PIN while kiosk mode is on
 * (leaving it, 'PIN ändern', 'Offline simulieren', discarding a rejected lead). `confirm` runs the
 * action with the PIN under the unlock throttle; a refusal stays on the field.
 */
export function PinConfirmDialog(props: {
  /** What the PIN is asked for, in one sentence. */
  purpose: string;
  confirm: (pin: string) => Promise<PinGateResult>;
  onClose: () => void;
  /** Done; `warning`: what the PIN found altered on the tablet; `pin` for a step that follows. */
  onConfirmed: (warning: string | undefined, pin: string) => void;
}) {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pin === '') {
      setError(pinMessages.empty);
      return;
    }
    setError(undefined);
    setState('busy');
    props.confirm(pin).then(
      (result) => {
        setState('idle');
        if (result.ok) {
          props.onConfirmed(result.tampered ? tamperingMessage(result.tampered) : undefined, pin);
          return;
        }
        setPin('');
        setError(pinRefusalMessage(result));
      },
      () => setState('failed'),
    );
  };

  return (
    <Modal title="PIN bestätigen" onClose={props.onClose}>
      <form noValidate onSubmit={submit} className="space-y-3">
        <p>{props.purpose}</p>
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
            Bestätigen
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * 'PIN ändern', after 'PIN bestätigen': the new PIN, twice. `change` re-wraps the device's key
 * under it (changeKioskPin), so the leads waiting now stay readable.
 */
export function NewPinDialog(props: {
  change: (newPin: string) => Promise<PinGateResult>;
  onClose: () => void;
  onDone: (warning?: string) => void;
}) {
  const [pin, setPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ pin?: string; repeat?: string }>({});
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const [refused, setRefused] = useState<string | undefined>(undefined);

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
    setRefused(undefined);
    props.change(pin).then(
      (result) => {
        setState('idle');
        if (result.ok) {
          props.onDone(result.tampered ? tamperingMessage(result.tampered) : undefined);
          return;
        }
        setRefused(pinRefusalMessage(result));
      },
      () => setState('failed'),
    );
  };

  return (
    <Modal title="Neue PIN festlegen" onClose={props.onClose}>
      <form noValidate onSubmit={submit} className="space-y-3">
        <p>
          Die wartenden Anfragen bleiben mit der neuen PIN lesbar; die bisherige PIN öffnet danach
          nichts mehr.
        </p>
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
          {state === 'busy' ? 'Die neue PIN wird gesichert …' : ''}
        </p>
        {refused !== undefined || state === 'failed' ? (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
            {refused ?? 'Die PIN konnte nicht geändert werden. Bitte versuchen Sie es erneut.'}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={props.onClose}>
            Abbrechen
          </Button>
          <Button type="submit" disabled={state === 'busy'}>
            PIN ändern
          </Button>
        </div>
      </form>
    </Modal>
  );
}
