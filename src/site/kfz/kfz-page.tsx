import { emptyKfzRequest, kfzRequestSchema } from '../../domain/contact-forms.ts';
import { buildKfzSubmission } from '../../domain/lead-submissions.ts';
import { publicPages } from '../../config/page-meta.ts';
import { CallTimeField, PersonField } from '../../ui/lead-form-parts.tsx';
import { LeadForm, LeadFormPage } from '../shared/lead-form-page.tsx';

const kfzPage = {
  meta: publicPages.kfz,
  title: 'KFZ-Versicherung: Rückruf anfordern',
  intro:
    'Sie möchten Ihre KFZ-Versicherung wechseln? Hinterlassen Sie Ihre Nummer: Wir rufen Sie zurück und beraten Sie kostenlos zu einem Wechsel.',
  label: 'KFZ-Rückruf anfordern',
  consentPurpose: 'zu meiner KFZ-Versicherung anrufen und beraten können',
  width: 'max-w-2xl',
  // The spec: the KFZ form shows its errors only after a submit attempt (the form's default).
  schema: kfzRequestSchema,
  emptyValues: emptyKfzRequest,
  toLead: buildKfzSubmission,
};

export function KfzPage() {
  return (
    <LeadFormPage page={kfzPage} island="kfz-form">
      <KfzForm />
    </LeadFormPage>
  );
}

/** The page's form, its island (src/islands.tsx). */
export function KfzForm() {
  return (
    <LeadForm page={kfzPage}>
      {(field) => (
        <>
          <PersonField required {...field('first_name')} />
          <PersonField required {...field('last_name')} />
          <PersonField required {...field('email')} />
          <PersonField required {...field('phone')} />
          <CallTimeField {...field('call_time')} />
        </>
      )}
    </LeadForm>
  );
}
