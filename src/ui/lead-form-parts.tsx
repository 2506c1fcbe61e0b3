import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { callTimes } from '../domain/contact-forms.ts';
import type { LeadSendState } from '../offline/use-lead-sender.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { CheckboxField, HoneypotField } from './form-fields.tsx';

export const callTimeOptions = [
  { value: '', label: 'Bitte wählen' },
  ...callTimes.map((time) => ({ value: time, label: time })),
];

type CheckboxProps = UseFormRegisterReturn & { error: string | undefined };

/**
 * The two consents of a lead form, separate and never pre-ticked: the terms, and the
 * processing of the visitor's data for `purpose` (DESIGN 10 fixes how both labels begin).
 */
export function LeadConsentFields(props: {
  purpose: string;
  terms: CheckboxProps;
  privacy: CheckboxProps;
}) {
  const { purpose, terms, privacy } = props;
  return (
    <div className="mt-6 space-y-4">
      <CheckboxField
        label={
          <>
            Ich akzeptiere die AGB (
            <Link to="/agb" target="_blank" className="text-brand-700 underline">
              Allgemeine Geschäftsbedingungen
            </Link>
            ). *
          </>
        }
        {...terms}
      />
      <CheckboxField
        label={
          <>
            Ich willige in die Verarbeitung meiner Daten ein, damit Sie mich {purpose}. Einzelheiten
            in der{' '}
            <Link to="/datenschutz" target="_blank" className="text-brand-700 underline">
              Datenschutzerklärung
            </Link>
            . *
          </>
        }
        {...privacy}
      />
    </div>
  );
}

/** Honeypot, the reason a send failed, and the submit button with its 'Senden...' state. */
export function LeadFormFooter({ state }: { state: LeadSendState }) {
  return (
    <>
      <HoneypotField />
      {state.status === 'failed' ? (
        <div className="mt-6">
          <Alert tone="error">{state.message}</Alert>
        </div>
      ) : null}
      <Button type="submit" className="mt-6" disabled={state.status === 'sending'}>
        {state.status === 'sending' ? 'Senden...' : 'Absenden'}
      </Button>
    </>
  );
}
