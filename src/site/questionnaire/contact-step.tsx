import { useEffect } from 'react';
import {
  emptyQuestionnaireContact,
  questionnaireContactSchema,
  type QuestionnaireContact,
  type QuestionnaireContactInput,
} from '../../domain/contact-forms.ts';
import type { LeadContext } from '../../domain/lead-submissions.ts';
import type { QuestionnaireSubmission } from '../../domain/questionnaire.ts';
import { sitePaths } from '../../domain/routes.ts';
import { CheckboxField, RequiredNote } from '../../ui/form-fields.tsx';
import { PersonField, SendButton, SendFailure } from '../../ui/lead-form-parts.tsx';
import { useLeadForm } from '../shared/use-lead-form.ts';
import { StepActions, StepSection } from './step-parts.tsx';

export interface ContactStepProps {
  initialValues: Partial<QuestionnaireContactInput>;
  onChange: (values: QuestionnaireContactInput) => void;
  /** The questionnaire's lead for these contact details. */
  toLead: (contact: QuestionnaireContact, context: LeadContext) => QuestionnaireSubmission;
  onDelivered: (delivery: 'sent' | 'queued') => void;
  /** The lead is safe in the outbox (the hub may answer seconds later). */
  onStored: () => void;
  onBack: () => void;
  headingRef: (element: HTMLHeadingElement | null) => void;
}

export function ContactStep(props: ContactStepProps) {
  const { onChange, onBack, headingRef } = props;
  const lead = useLeadForm({
    schema: questionnaireContactSchema,
    emptyValues: emptyQuestionnaireContact,
    initialValues: props.initialValues,
    // The spec: errors show once a field is touched; a submit touches every field.
    showErrors: 'once-touched',
    toLead: props.toLead,
    onDelivered: props.onDelivered,
    onStored: props.onStored,
  });
  const { field } = lead;
  const { subscribe } = lead.form;

  // Typed values go into the draft, so a reload on the contact form loses nothing.
  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ values }) => onChange({ ...emptyQuestionnaireContact, ...values }),
      }),
    [subscribe, onChange],
  );

  return (
    <StepSection
      title="Fast geschafft: Wohin dürfen wir Ihr Angebot schicken?"
      headingRef={headingRef}
    >
      <p className="mt-2 text-slate-600">
        Ihre Angaben nutzen wir nur, um Ihnen Ihr kostenloses, unverbindliches Angebot zu erstellen
        und Sie dazu zu beraten.
      </p>
      <form noValidate onSubmit={lead.submit} className="mt-6">
        <RequiredNote className="mb-4" />
        <div className="grid gap-4 sm:grid-cols-2">
          <PersonField required {...field('first_name')} />
          <PersonField required {...field('last_name')} />
          <PersonField required className="sm:col-span-2" {...field('adress')} />
          <PersonField required {...field('postcode')} />
          <PersonField required {...field('city')} />
          <PersonField required {...field('phone')} />
          <PersonField required {...field('email')} />
        </div>
        <div className="mt-6 space-y-4">
          <CheckboxField label="Ich akzeptiere die AGB." required {...field('terms_accepted')} />
          <CheckboxField
            label={
              <>
                Ich willige in die Verarbeitung meiner Daten ein, damit mein Angebot erstellt und
                ich dazu beraten werden kann. Details in der{' '}
                <a href={sitePaths.privacy} className="text-brand-700 underline" target="_blank">
                  Datenschutzerklärung
                </a>
                .
              </>
            }
            required
            {...field('data_processing_consent')}
          />
          <CheckboxField
            label="Ich möchte auch über weitere passende Angebote informiert werden (freiwillig)."
            {...field('offer_info')}
          />
          <p className="text-sm text-slate-600">
            Zu den{' '}
            <a href={sitePaths.terms} className="text-brand-700 underline" target="_blank">
              AGB
            </a>
            . Sie können Ihre Einwilligungen jederzeit widerrufen.
          </p>
        </div>
        <SendFailure message={lead.failure} />
        <StepActions onBack={onBack}>
          <SendButton sending={lead.sending} label="Angebot anfordern" />
        </StepActions>
      </form>
    </StepSection>
  );
}
