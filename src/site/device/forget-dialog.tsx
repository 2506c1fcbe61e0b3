// 'PIN vergessen' on the device page. Without the PIN nobody can read the sealed leads, so they can
// only be deleted, and kiosk mode goes off with them. That must not be a way for a visitor to
// leave kiosk mode: a member of Survey Desk's staff signs in first (online only), then confirms
// the deletion, which names how many leads go.

import { useEffect, useState, type FormEvent } from 'react';
import { countSealed, forgetPin } from '../../offline/kiosk-lock.ts';
import { offlineDb } from '../../offline/offline-db.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-fields.tsx';
import { failed, leads, Modal } from './pin-dialogs.tsx';
import { confirmStaff, staffCheckMessages, type StaffCheck } from './staff-check.ts';

export type StaffChecker = (credentials: {
  email: string;
  password: string;
}) => Promise<StaffCheck>;

export function ForgetDialog(props: {
  onClose: () => void;
  onDone: (discarded: number) => void;
  /** The staff check (the gateway's password grant and is_staff by default). */
  checkStaff?: StaffChecker;
}) {
  const [confirmed, setConfirmed] = useState(false);
  return (
    <Modal title="PIN vergessen?" onClose={props.onClose}>
      {confirmed ? (
        <ConfirmDeletion onClose={props.onClose} onDone={props.onDone} />
      ) : (
        <StaffSignIn
          checkStaff={props.checkStaff ?? ((credentials) => confirmStaff(credentials))}
          onClose={props.onClose}
          onConfirmed={() => setConfirmed(true)}
        />
      )}
    </Modal>
  );
}

function StaffSignIn(props: {
  checkStaff: StaffChecker;
  onClose: () => void;
  onConfirmed: () => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  /** A refusal that is no field's fault: offline, server unreachable, too many attempts. */
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    const next = {
      email: email.trim() === '' ? 'Bitte geben Sie Ihre E-Mail-Adresse ein.' : undefined,
      password: password === '' ? 'Bitte geben Sie Ihr Passwort ein.' : undefined,
    };
    setErrors(next);
    if (next.email || next.password) return;
    setState('busy');
    props.checkStaff({ email: email.trim(), password }).then(
      (result) => {
        setState('idle');
        // The password leaves this form's memory whatever the answer.
        setPassword('');
        if (result.ok) {
          props.onConfirmed();
          return;
        }
        const message = staffCheckMessages[result.reason];
        if (['credentials', 'not-staff', 'unconfirmed'].includes(result.reason)) {
          setErrors({ email: message });
        } else {
          setProblem(message);
        }
      },
      () => setState('failed'),
    );
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-3">
      <p>
        Ohne die PIN kann niemand die verschlüsselten Anfragen auf diesem Gerät lesen oder senden,
        auch wir nicht; sie können nur gelöscht werden, und der Messe-Modus geht dann aus. Damit
        niemand am Stand das Gerät so aus dem Messe-Modus holt, melden Sie sich zuerst mit Ihrem
        Konto von Survey Desk an. Dafür braucht das Gerät eine Verbindung zum Server.
      </p>
      <TextField
        label="E-Mail"
        type="email"
        autoComplete="off"
        required
        value={email}
        error={errors.email}
        onChange={(event) => setEmail(event.target.value)}
        autoFocus
      />
      <TextField
        label="Passwort"
        type="password"
        autoComplete="off"
        required
        value={password}
        error={errors.password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <p role="status" aria-live="polite" className="empty:hidden">
        {state === 'busy' ? 'Die Anmeldung wird geprüft …' : ''}
      </p>
      {state === 'failed' || problem !== undefined ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
          {problem ?? failed}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={props.onClose}>
          Abbrechen
        </Button>
        <Button type="submit" disabled={state === 'busy'}>
          Anmelden und prüfen
        </Button>
      </div>
    </form>
  );
}

function ConfirmDeletion(props: { onClose: () => void; onDone: (discarded: number) => void }) {
  const [sealed, setSealed] = useState<number | undefined>(undefined);
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  useEffect(() => {
    let stopped = false;
    countSealed(offlineDb()).then(
      (count) => {
        if (!stopped) setSealed(count);
      },
      () => {
        if (!stopped) setState('failed');
      },
    );
    return () => {
      stopped = true;
    };
  }, []);

  return (
    <div className="space-y-3">
      <p>
        Angemeldet und bestätigt.{' '}
        {sealed === undefined
          ? 'Die verschlüsselten Anfragen werden gezählt …'
          : sealed === 0
            ? 'Auf diesem Gerät wartet keine verschlüsselte Anfrage.'
            : `${leads(sealed)} ${sealed === 1 ? 'wird' : 'werden'} endgültig gelöscht.`}{' '}
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
          disabled={state === 'busy' || sealed === undefined}
          onClick={() => {
            setState('busy');
            forgetPin(offlineDb()).then(props.onDone, () => setState('failed'));
          }}
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400"
        >
          {sealed === 0 ? 'Messe-Modus ausschalten' : 'Anfragen löschen'}
        </button>
      </div>
    </div>
  );
}
