import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import {
  questionnaireContactSchema,
  type QuestionnaireContact,
  type QuestionnaireContactInput,
} from '../../domain/contact-forms.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CheckboxField, TextField } from '../../ui/form-fields.tsx';
import { StepActions } from './question-step.tsx';

const emptyContact: QuestionnaireContactInput = {
  first_name: '',
  last_name: '',
  adress: '',
  postcode: '',
  city: '',
  phone: '',
  email: '',
  offer_info: false,
  terms_accepted: false,
  data_processing_consent: false,
};

interface ContactStepProps {
  initialValues: Partial<QuestionnaireContactInput>;
  onChange: (values: QuestionnaireContactInput) => void;
  onSubmit: (contact: QuestionnaireContact) => Promise<void>;
  onBack: () => void;
  sending: boolean;
  sendError: string | undefined;
  headingRef: (element: HTMLHeadingElement | null) => void;
}

export function ContactStep({
  initialValues,
  onChange,
  onSubmit,
  onBack,
  sending,
  sendError,
  headingRef,
}: ContactStepProps) {
  const headingId = useId();
  const {
    register,
    handleSubmit,
    subscribe,
    formState: { errors },
  } = useForm<QuestionnaireContactInput, unknown, QuestionnaireContact>({
    resolver: zodResolver(questionnaireContactSchema),
    // The spec: errors show once a field is touched; a submit touches every field.
    mode: 'onTouched',
    defaultValues: { ...emptyContact, ...initialValues },
  });

  // Typed values go into the draft, so a reload on the contact form loses nothing.
  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ values }) => onChange({ ...emptyContact, ...values }),
      }),
    [subscribe, onChange],
  );

  return (
    <section aria-labelledby={headingId}>
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="text-2xl font-semibold text-brand-900"
      >
        Fast geschafft: Wohin dürfen wir Ihr Angebot schicken?
      </h2>
      <p className="mt-2 text-slate-600">
        Ihre Angaben nutzen wir nur, um Ihnen Ihr kostenloses, unverbindliches Angebot zu erstellen
        und Sie dazu zu beraten. Felder mit * sind Pflichtfelder.
      </p>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="mt-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Vorname"
            autoComplete="given-name"
            required
            error={errors.first_name?.message}
            {...register('first_name')}
          />
          <TextField
            label="Nachname"
            autoComplete="family-name"
            required
            error={errors.last_name?.message}
            {...register('last_name')}
          />
          <TextField
            label="Straße und Hausnummer"
            autoComplete="street-address"
            required
            className="sm:col-span-2"
            error={errors.adress?.message}
            {...register('adress')}
          />
          <TextField
            label="PLZ"
            autoComplete="postal-code"
            inputMode="numeric"
            maxLength={5}
            required
            error={errors.postcode?.message}
            {...register('postcode')}
          />
          <TextField
            label="Ort"
            autoComplete="address-level2"
            required
            error={errors.city?.message}
            {...register('city')}
          />
          <TextField
            label="Telefonnummer"
            type="tel"
            autoComplete="tel"
            required
            error={errors.phone?.message}
            {...register('phone')}
          />
          <TextField
            label="E-Mail"
            type="email"
            autoComplete="email"
            required
            error={errors.email?.message}
            {...register('email')}
          />
        </div>
        <div className="mt-6 space-y-4">
          <CheckboxField
            label="Ich akzeptiere die AGB."
            error={errors.terms_accepted?.message}
            {...register('terms_accepted')}
          />
          <CheckboxField
            label={
              <>
                Ich willige in die Verarbeitung meiner Daten ein, damit mein Angebot erstellt und
                ich dazu beraten werden kann. Details in der{' '}
                <Link to="/datenschutz" className="text-brand-700 underline" target="_blank">
                  Datenschutzerklärung
                </Link>
                . (Pflichtfeld)
              </>
            }
            error={errors.data_processing_consent?.message}
            {...register('data_processing_consent')}
          />
          <CheckboxField
            label="Ich möchte auch über weitere passende Angebote informiert werden (freiwillig)."
            {...register('offer_info')}
          />
          <p className="text-sm text-slate-600">
            Zu den{' '}
            <Link to="/agb" className="text-brand-700 underline" target="_blank">
              AGB
            </Link>
            . Sie können Ihre Einwilligungen jederzeit widerrufen.
          </p>
        </div>
        {sendError ? (
          <div className="mt-6">
            <Alert tone="error">{sendError}</Alert>
          </div>
        ) : null}
        <StepActions onBack={onBack}>
          <Button type="submit" disabled={sending}>
            {sending ? 'Senden...' : 'Angebot anfordern'}
          </Button>
        </StepActions>
      </form>
    </section>
  );
}
