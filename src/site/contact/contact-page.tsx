import { zodResolver } from '@hookform/resolvers/zod';
import type { BaseSyntheticEvent } from 'react';
import { useForm } from 'react-hook-form';
import {
  birthdateBounds,
  createContactRequestSchema,
  salutations,
  type ContactRequest,
  type ContactRequestInput,
} from '../../domain/contact-forms.ts';
import { buildContactSubmission } from '../../domain/lead-submissions.ts';
import { useLeadSender } from '../../offline/use-lead-sender.ts';
import { currentCookieConsent } from '../../ui/cookie-consent.ts';
import {
  CheckboxField,
  honeypotFilled,
  SelectField,
  TextAreaField,
  TextField,
} from '../../ui/form-fields.tsx';
import { callTimeOptions, LeadConsentFields, LeadFormFooter } from '../../ui/lead-form-parts.tsx';
import { LeadSent } from '../../ui/lead-sent.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { useHydrated } from '../../ui/use-hydrated.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

// The clock is read at every validation, so a page left open past midnight stays right.
const contactSchema = createContactRequestSchema(() => new Date());

const emptyContact: ContactRequestInput = {
  salutation: '',
  title: '',
  birthdate: '',
  first_name: '',
  last_name: '',
  adress: '',
  postcode: '',
  city: '',
  email: '',
  phone: '',
  call_time: '',
  existing_customer: false,
  message: '',
  terms_accepted: false,
  data_processing_consent: false,
};

const salutationOptions = [
  { value: '', label: 'Bitte wählen' },
  ...salutations.map((s) => ({ value: s, label: s })),
];

export function ContactPage() {
  usePageMeta(publicPages.contact);
  const sender = useLeadSender<ReturnType<typeof buildContactSubmission>>();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, submitCount, touchedFields },
  } = useForm<ContactRequestInput, unknown, ContactRequest>({
    resolver: zodResolver(contactSchema),
    mode: 'onTouched',
    defaultValues: emptyContact,
  });
  // The spec: the birthdate shows its problem once touched; every other field after a submit.
  const submitted = submitCount > 0;
  const shown = (message: string | undefined) => (submitted ? message : undefined);
  // The date picker's limits depend on today: set once hydrated, never from the build day's HTML
  // (React does not correct attributes when it hydrates). The rules check the date on submit.
  const bounds = useHydrated() ? birthdateBounds(new Date()) : undefined;

  const onSubmit = async (values: ContactRequest, event?: BaseSyntheticEvent) => {
    if (honeypotFilled(event)) return sender.pretendSent();
    const cookieConsent = currentCookieConsent();
    const result = await sender.send((clientId, now) =>
      buildContactSubmission(values, {
        clientId,
        now,
        cookieConsent,
      }),
    );
    if (result.status === 'sent' || result.status === 'queued') reset(emptyContact);
  };

  const { state } = sender;
  return (
    <div className="py-8">
      <PageHeader title="Kostenlosen Versicherungscheck buchen">
        <p>
          Wir prüfen Ihre bestehenden Versicherungen und zeigen Ihnen, wo Sie besser oder günstiger
          versichert sein können: persönlich, kostenlos und unverbindlich.
        </p>
      </PageHeader>
      {state.status === 'sent' || state.status === 'queued' ? (
        <LeadSent delivery={state.status} onAgain={sender.reset} />
      ) : (
        <form
          noValidate
          onSubmit={handleSubmit(onSubmit)}
          aria-label="Versicherungscheck buchen"
          className="relative max-w-3xl rounded-2xl bg-white p-6 shadow-sm"
        >
          <p className="mb-4 text-sm text-slate-600">Mit * markierte Felder sind Pflichtfelder.</p>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Anrede"
              options={salutationOptions}
              error={shown(errors.salutation?.message)}
              {...register('salutation')}
            />
            <TextField
              label="Titel"
              autoComplete="honorific-prefix"
              error={shown(errors.title?.message)}
              {...register('title')}
            />
            <TextField
              label="Vorname"
              autoComplete="given-name"
              required
              error={shown(errors.first_name?.message)}
              {...register('first_name')}
            />
            <TextField
              label="Nachname"
              autoComplete="family-name"
              required
              error={shown(errors.last_name?.message)}
              {...register('last_name')}
            />
            <TextField
              label="Geburtsdatum"
              type="date"
              autoComplete="bday"
              required
              min={bounds?.min}
              max={bounds?.max}
              error={submitted || touchedFields.birthdate ? errors.birthdate?.message : undefined}
              {...register('birthdate')}
            />
            <TextField
              label="Straße und Hausnummer"
              autoComplete="street-address"
              error={shown(errors.adress?.message)}
              {...register('adress')}
            />
            <TextField
              label="PLZ"
              autoComplete="postal-code"
              inputMode="numeric"
              maxLength={5}
              error={shown(errors.postcode?.message)}
              {...register('postcode')}
            />
            <TextField
              label="Ort"
              autoComplete="address-level2"
              error={shown(errors.city?.message)}
              {...register('city')}
            />
            <TextField
              label="E-Mail"
              type="email"
              autoComplete="email"
              required
              error={shown(errors.email?.message)}
              {...register('email')}
            />
            <TextField
              label="Telefonnummer"
              type="tel"
              autoComplete="tel"
              required
              error={shown(errors.phone?.message)}
              {...register('phone')}
            />
            <SelectField
              label="Gewünschte Rückrufzeit"
              options={callTimeOptions}
              error={shown(errors.call_time?.message)}
              {...register('call_time')}
            />
            <CheckboxField
              label="Bereits Kunde"
              className="self-end pb-2"
              {...register('existing_customer')}
            />
            <TextAreaField
              label="Nachricht"
              className="sm:col-span-2"
              maxLength={5000}
              error={shown(errors.message?.message)}
              {...register('message')}
            />
          </div>
          <LeadConsentFields
            purpose="zum Versicherungscheck kontaktieren und beraten können"
            terms={{ ...register('terms_accepted'), error: shown(errors.terms_accepted?.message) }}
            privacy={{
              ...register('data_processing_consent'),
              error: shown(errors.data_processing_consent?.message),
            }}
          />
          <LeadFormFooter state={state} />
        </form>
      )}
    </div>
  );
}
