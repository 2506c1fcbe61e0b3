import { useState } from 'react';
import {
  errorCode,
  noAccountCode,
  notPendingCode,
  useApproveAccount,
  useRefuseAccount,
  type StaffAccount,
} from '../api/staff.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { Button } from '../../ui/button.tsx';
import { Modal, ModalActions, ModalDescription, ModalTitle } from '../../ui/modal.tsx';

type Decision = { kind: 'approve' | 'refuse'; account: StaffAccount };

/** What the admin is told after a decision; read out by the status region. */
export const decisionDoneText = (decision: Decision) =>
  decision.kind === 'approve'
    ? `${decision.account.email} ist freigeschaltet. Eine E-Mail mit dem Link zur Anmeldung ist unterwegs.`
    : `Die Registrierung von ${decision.account.email} ist abgelehnt und gelöscht.`;

/** Why a decision failed, in German, from the database's code. */
export function decisionFailureText(decision: Decision, error: unknown): string {
  const code = errorCode(error);
  if (code === noAccountCode) {
    return 'Diese Registrierung gibt es nicht mehr. Die Liste wurde neu geladen.';
  }
  if (code === notPendingCode) {
    return 'Dieses Konto ist inzwischen freigeschaltet und kann nicht mehr abgelehnt werden. Die Liste wurde neu geladen.';
  }
  return decision.kind === 'approve'
    ? 'Das Konto konnte nicht freigegeben werden. Bitte versuche es erneut.'
    : 'Die Registrierung konnte nicht abgelehnt werden. Bitte versuche es erneut.';
}

function DecisionDialog(props: {
  decision: Decision | null;
  onClose: () => void;
  onDone: (decision: Decision) => void;
}) {
  const { decision } = props;
  const approve = useApproveAccount();
  const refuse = useRefuseAccount();
  const mutation = decision?.kind === 'refuse' ? refuse : approve;
  const close = () => {
    approve.reset();
    refuse.reset();
    props.onClose();
  };
  const email = decision?.account.email ?? '';

  return (
    <Modal open={decision !== null} onClose={close} role="alertdialog">
      {decision?.kind === 'refuse' ? (
        <>
          <ModalTitle>Registrierung ablehnen?</ModalTitle>
          <ModalDescription>
            Die Registrierung von <strong>{email}</strong> wird gelöscht. Mit dieser Adresse kann
            sich danach niemand anmelden; die Person bekommt keine Nachricht und kann sich später
            erneut registrieren.
          </ModalDescription>
        </>
      ) : (
        <>
          <ModalTitle>Konto freigeben?</ModalTitle>
          <ModalDescription>
            <strong>{email}</strong> wird Mitarbeiter und sieht danach Kunden, Anfragen und
            Fragebögen. Die Person bekommt eine E-Mail, dass ihr Konto freigeschaltet ist. Zum Admin
            machst du ein Konto in der Tabelle unten.
          </ModalDescription>
        </>
      )}
      {mutation.error && decision ? (
        <p
          role="alert"
          className="mb-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
        >
          {decisionFailureText(decision, mutation.error)}
        </p>
      ) : null}
      <ModalActions>
        {/* The harmless choice first: Enter right after opening changes nothing. */}
        <Button variant="secondary" onClick={close} data-autofocus>
          Abbrechen
        </Button>
        {decision?.kind === 'refuse' ? (
          <button
            type="button"
            disabled={refuse.isPending}
            onClick={() =>
              refuse.mutate(decision.account, {
                onSuccess: () => {
                  close();
                  props.onDone(decision);
                },
              })
            }
            className="inline-flex min-h-11 items-center justify-center rounded-lg bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400"
          >
            Ablehnen
          </button>
        ) : (
          <Button
            disabled={approve.isPending || decision === null}
            onClick={() => {
              if (!decision) return;
              approve.mutate(decision.account, {
                onSuccess: () => {
                  close();
                  props.onDone(decision);
                },
              });
            }}
          >
            Freigeben
          </Button>
        )}
      </ModalActions>
    </Modal>
  );
}

/**
 * The registrations that wait for an admin, each with 'Freigeben' and 'Ablehnen'; both ask
 * first. Enabling makes the account staff and mails the colleague; refusing deletes the
 * registration. What happened stays said below the heading after the entry has gone.
 */
export function PendingAccounts({ accounts }: { accounts: StaffAccount[] }) {
  const [decision, setDecision] = useState<Decision | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const pending = accounts.filter((account) => account.role === 'pending');

  return (
    <section aria-labelledby="freigabe" className="space-y-3">
      <h2 id="freigabe" className="text-xl font-semibold text-slate-900">
        Warten auf Freigabe
      </h2>
      <p role="status" className="text-sm font-medium text-green-800 empty:hidden">
        {done}
      </p>
      {pending.length === 0 ? (
        <p className="text-slate-700">Keine Registrierung wartet auf Freigabe.</p>
      ) : (
        <ul className="space-y-3">
          {pending.map((account) => (
            <li
              key={account.user_id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-white p-4 shadow"
            >
              <div>
                <p className="font-semibold break-all text-slate-900">{account.email}</p>
                <p className="text-sm text-slate-700">
                  {account.registered_at
                    ? `Registriert am ${berlinDateTime(account.registered_at)}`
                    : 'Registrierung ohne Datum'}
                  {' · '}
                  {account.confirmed_at
                    ? 'E-Mail-Adresse bestätigt'
                    : 'E-Mail-Adresse noch nicht bestätigt'}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  aria-label={`${account.email} freigeben`}
                  onClick={() => {
                    setDone(null);
                    setDecision({ kind: 'approve', account });
                  }}
                >
                  Freigeben
                </Button>
                <Button
                  variant="secondary"
                  aria-label={`Registrierung von ${account.email} ablehnen`}
                  onClick={() => {
                    setDone(null);
                    setDecision({ kind: 'refuse', account });
                  }}
                >
                  Ablehnen
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <DecisionDialog
        decision={decision}
        onClose={() => setDecision(null)}
        onDone={(finished) => setDone(decisionDoneText(finished))}
      />
    </section>
  );
}
