import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { callTimes } from '../domain/call-times.ts';
import { sitePaths } from '../domain/routes.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { CheckboxField, HoneypotField, SelectField, TextField } from './form-fields.tsx';
import { useHydrated } from './use-hydrated.ts';

const callTimeOptions = [
  { value: '', label: 'Bitte wählen' },
  ...callTimes.map((time) => ({ value: time, label: time })),
];

/** A form field's input attributes with the problem to show under it, if any. */
export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  ref?: Ref<HTMLInputElement>;
  name: string;
  error: string | undefined;
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name'> & {
  ref?: Ref<HTMLSelectElement>;
  name: string;
  error: string | undefined;
};

// Label and browser hints of the fields that describe a person; the three lead forms name their
// fields alike, so a field's name picks its definition.
const personFields = {
  first_name: { label: 'Vorname', autoComplete: 'given-name' },
  last_name: { label: 'Nachname', autoComplete: 'family-name' },
  adress: { label: 'Straße und Hausnummer', autoComplete: 'street-address' },
  postcode: { label: 'PLZ', autoComplete: 'postal-code', inputMode: 'numeric', maxLength: 5 },
  city: { label: 'Ort', autoComplete: 'address-level2' },
  email: { label: 'E-Mail', type: 'email', autoComplete: 'email' },
  phone: { label: 'Telefonnummer', type: 'tel', autoComplete: 'tel' },
} as const satisfies Record<string, InputHTMLAttributes<HTMLInputElement> & { label: string }>;

export type PersonFieldName = keyof typeof personFields;

/** One of a person's fields (name, address, e-mail, phone), labelled as every lead form labels it. */
export function PersonField(props: FieldProps & { name: PersonFieldName }) {
  return <TextField {...personFields[props.name]} {...props} />;
}

/** When the visitor would like to be called back; optional. */
export function CallTimeField(props: SelectProps) {
  return <SelectField label="Gewünschte Rückrufzeit" options={callTimeOptions} {...props} />;
}

/**
 * The two consents of a lead form, separate and never pre-ticked: the terms, and the
 * processing of the visitor's data for `purpose` (DESIGN 10 fixes how both labels begin).
 */
export function LeadConsentFields(props: {
  purpose: string;
  terms: FieldProps;
  privacy: FieldProps;
}) {
  const { purpose, terms, privacy } = props;
  return (
    <div className="mt-6 space-y-4">
      <CheckboxField
        label={
          <>
            Ich akzeptiere die AGB (
            <a href={sitePaths.terms} target="_blank" className="text-brand-700 underline">
              Allgemeine Geschäftsbedingungen
            </a>
            ).
          </>
        }
        required
        {...terms}
      />
      <CheckboxField
        label={
          <>
            Ich willige in die Verarbeitung meiner Daten ein, damit Sie mich {purpose}. Einzelheiten
            in der{' '}
            <a href={sitePaths.privacy} target="_blank" className="text-brand-700 underline">
              Datenschutzerklärung
            </a>
            .
          </>
        }
        required
        {...privacy}
      />
    </div>
  );
}

/** Why a lead could not be sent or saved; shown above the button that tries again. */
export function SendFailure({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <div className="mt-6">
      <Alert tone="error">{message}</Alert>
    </div>
  );
}

/**
 * The card every lead form sits in (KFZ, contact, each questionnaire step and the thank-you):
 * white, rounded, the same padding on a phone and a desktop.
 */
export const formCardClass = 'rounded-2xl bg-white p-5 shadow-sm sm:p-8';

/**
 * The row of a form's buttons, the same on every lead form: the submit at the end (right), 'Zurück'
 * or nothing at the start. On a phone the buttons take the full width, the submit on top, in
 * reach of the thumb.
 */
export function FormActions({ start, children }: { start?: ReactNode; children?: ReactNode }) {
  return (
    <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
      {start ?? <span className="hidden sm:block" />}
      {children}
    </div>
  );
}

/** A lead form's submit button: 'Senden...' and not pressable while the lead is on its way. */
export function SendButton(props: { sending: boolean; label: string }) {
  // The prerendered page paints before its code runs: a press then would submit the bare HTML form
  // (a reload that loses what was typed). Until the form is live the button waits, disabled.
  const hydrated = useHydrated();
  return (
    <Button type="submit" className="w-full sm:w-auto" disabled={props.sending || !hydrated}>
      {props.sending ? 'Senden...' : props.label}
    </Button>
  );
}

/** Honeypot, the reason a send failed, and the submit button of the KFZ and contact page. */
export function LeadFormFooter(props: { sending: boolean; failure: string | undefined }) {
  return (
    <>
      <HoneypotField />
      <SendFailure message={props.failure} />
      <FormActions>
        <SendButton sending={props.sending} label="Absenden" />
      </FormActions>
    </>
  );
}
