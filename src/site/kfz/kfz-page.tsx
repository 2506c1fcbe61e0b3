import { zodResolver } from '@hookform/resolvers/zod';
import type { BaseSyntheticEvent } from 'react';
import { useForm } from 'react-hook-form';
import {
  kfzRequestSchema,
  type KfzRequest,
  type KfzRequestInput,
} from '../../domain/contact-forms.ts';
import { buildKfzSubmission } from '../../domain/lead-submissions.ts';
import { useLeadSender } from '../../offline/use-lead-sender.ts';
import { currentCookieConsent } from '../../ui/cookie-consent.ts';
import { honeypotFilled, SelectField, TextField } from '../../ui/form-fields.tsx';
import { callTimeOptions, LeadConsentFields, LeadFormFooter } from '../../ui/lead-form-parts.tsx';
import { LeadSent } from '../../ui/lead-sent.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

const emptyKfz: KfzRequestInput = {
  first_name: '',
  last_name: '',
  email: '',
  phone: '',
  call_time: '',
  terms_accepted: false,
  data_processing_consent: false,
};

export function KfzPage() {
  usePageMeta(publicPages.kfz);
  const sender = useLeadSender<ReturnType<typeof buildKfzSubmission>>();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, submitCount },
  } = useForm<KfzRequestInput, unknown, KfzRequest>({
    resolver: zodResolver(kfzRequestSchema),
    defaultValues: emptyKfz,
  });
  // The spec: the KFZ form shows its errors only after a submit attempt.
  const shown = (message: string | undefined) => (submitCount > 0 ? message : undefined);

  const onSubmit = async (values: KfzRequest, event?: BaseSyntheticEvent) => {
    if (honeypotFilled(event)) return sender.pretendSent();
    const cookieConsent = currentCookieConsent();
    const result = await sender.send((clientId, now) =>
      buildKfzSubmission(values, {
        clientId,
        now,
        cookieConsent,
      }),
    );
    if (result.status === 'sent' || result.status === 'queued') reset(emptyKfz);
  };

  const { state } = sender;
  return (
    <div className="py-8">
      <PageHeader title="KFZ-Versicherung: Rückruf anfordern">
        <p>
          Sie möchten Ihre KFZ-Versicherung wechseln? Hinterlassen Sie Ihre Nummer: Wir rufen Sie
          zurück und beraten Sie kostenlos zu einem Wechsel.
        </p>
      </PageHeader>
      {state.status === 'sent' || state.status === 'queued' ? (
        <LeadSent delivery={state.status} onAgain={sender.reset} />
      ) : (
        <form
          noValidate
          onSubmit={handleSubmit(onSubmit)}
          className="relative max-w-2xl rounded-2xl bg-white p-6 shadow-sm"
          aria-label="KFZ-Rückruf anfordern"
        >
          <p className="mb-4 text-sm text-slate-600">Felder mit * sind Pflichtfelder.</p>
          <div className="grid gap-4 sm:grid-cols-2">
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
          </div>
          <LeadConsentFields
            purpose="zu meiner KFZ-Versicherung anrufen und beraten können"
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
