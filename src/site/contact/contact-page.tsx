import {
  birthdateBounds,
  createContactRequestSchema,
  emptyContactRequest,
  salutations,
} from '../../domain/contact-forms.ts';
import { buildContactSubmission } from '../../domain/lead-submissions.ts';
import { publicPages } from '../../config/page-meta.ts';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../ui/form-fields.tsx';
import { CallTimeField, PersonField } from '../../ui/lead-form-parts.tsx';
import { useHydrated } from '../../ui/use-hydrated.ts';
import { LeadForm, LeadFormPage } from '../shared/lead-form-page.tsx';

const contactPage = {
  meta: publicPages.contact,
  title: 'Kostenlosen Versicherungscheck buchen',
  intro:
    'Wir prüfen Ihre bestehenden Versicherungen und zeigen Ihnen, wo Sie besser oder günstiger versichert sein können: persönlich, kostenlos und unverbindlich.',
  label: 'Versicherungscheck buchen',
  consentPurpose: 'zum Versicherungscheck kontaktieren und beraten können',
  width: 'max-w-3xl',
  // The clock is read at every validation, so a page left open past midnight stays right.
  schema: createContactRequestSchema(() => new Date()),
  emptyValues: emptyContactRequest,
  toLead: buildContactSubmission,
};

const salutationOptions = [
  { value: '', label: 'Bitte wählen' },
  ...salutations.map((s) => ({ value: s, label: s })),
];

export function ContactPage() {
  return (
    <LeadFormPage page={contactPage} island="contact-form">
      <ContactForm />
    </LeadFormPage>
  );
}

/** The page's form, its island (src/islands.tsx). */
export function ContactForm() {
  // The date picker's limits depend on today: set once hydrated, never from the build day's HTML
  // (React does not correct attributes when it hydrates). The rules check the date on submit.
  const bounds = useHydrated() ? birthdateBounds(new Date()) : undefined;
  return (
    <LeadForm page={contactPage}>
      {(field) => (
        <>
          <SelectField label="Anrede" options={salutationOptions} {...field('salutation')} />
          <TextField label="Titel" autoComplete="honorific-prefix" {...field('title')} />
          <PersonField required {...field('first_name')} />
          <PersonField required {...field('last_name')} />
          {/* The spec: the birthdate shows its problem once touched; the rest after a submit. */}
          <TextField
            label="Geburtsdatum"
            type="date"
            autoComplete="bday"
            required
            min={bounds?.min}
            max={bounds?.max}
            {...field('birthdate', { showOnceTouched: true })}
          />
          <PersonField {...field('adress')} />
          <PersonField {...field('postcode')} />
          <PersonField {...field('city')} />
          <PersonField required {...field('email')} />
          <PersonField required {...field('phone')} />
          <CallTimeField {...field('call_time')} />
          <CheckboxField
            label="Bereits Kunde"
            className="self-end pb-2"
            {...field('existing_customer')}
          />
          <TextAreaField
            label="Nachricht"
            className="sm:col-span-2"
            maxLength={5000}
            {...field('message')}
          />
        </>
      )}
    </LeadForm>
  );
}
