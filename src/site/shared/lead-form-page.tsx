import type { ReactNode } from 'react';
import { Island, type IslandName } from '../../islands/island.tsx';
import type { PageMeta } from '../../config/page-meta.ts';
import { RequiredNote } from '../../ui/form-fields.tsx';
import { formCardClass, LeadConsentFields, LeadFormFooter } from '../../ui/lead-form-parts.tsx';
import { callbackSentText, LeadSent } from '../../ui/lead-sent.tsx';
import { PageWithIntro } from './page-with-intro.tsx';
import { useLeadForm, type ConsentSchema, type LeadFormOptions } from './use-lead-form.ts';
import type { OutboxSubmissionKeys } from '../../offline/offline-schema.ts';

/** A public page that asks for a callback: its texts and its form's rules, empty values and lead. */
export interface LeadPage<
  Schema extends ConsentSchema,
  Lead extends OutboxSubmissionKeys,
> extends LeadFormOptions<Schema, Lead> {
  meta: PageMeta;
  title: string;
  intro: string;
  /** The form's accessible name. */
  label: string;
  /** Completes "damit Sie mich …" in the privacy consent. */
  consentPurpose: string;
  /** Tailwind width of the form's card. */
  width: string;
}

type FieldOf<Schema extends ConsentSchema, Lead extends OutboxSubmissionKeys> = ReturnType<
  typeof useLeadForm<Schema, Lead>
>['field'];

/**
 * A public page that asks for a callback (KFZ, contact): heading and introduction as static HTML,
 * and the page's form (a `LeadForm`) as an island that runs once the visitor uses it.
 */
export function LeadFormPage({
  page,
  island,
  children,
}: {
  page: Pick<LeadPage<ConsentSchema, OutboxSubmissionKeys>, 'meta' | 'title' | 'intro'>;
  island: IslandName;
  /** The page's `LeadForm`. */
  children: ReactNode;
}) {
  return (
    <PageWithIntro meta={page.meta} title={page.title} intro={page.intro}>
      <Island name={island}>{children}</Island>
    </PageWithIntro>
  );
}

/**
 * The lead form of such a page with its fields, the two consents, honeypot and submit button; it
 * gives way to the thank-you every lead form shows (LeadSent) once the lead is sent or saved on
 * this device.
 */
export function LeadForm<Schema extends ConsentSchema, Lead extends OutboxSubmissionKeys>({
  page,
  children,
}: {
  page: LeadPage<Schema, Lead>;
  /** The form's own fields, laid out in two columns. */
  children: (field: FieldOf<Schema, Lead>) => ReactNode;
}) {
  const lead = useLeadForm(page);
  return lead.delivered ? (
    <div className={page.width}>
      <LeadSent delivery={lead.delivered} sentText={callbackSentText} onAgain={lead.again} />
    </div>
  ) : (
    <form
      noValidate
      onSubmit={lead.submit}
      aria-label={page.label}
      className={`relative ${page.width} ${formCardClass}`}
    >
      <RequiredNote className="mb-4" />
      <div className="grid gap-4 sm:grid-cols-2">{children(lead.field)}</div>
      <LeadConsentFields purpose={page.consentPurpose} {...lead.consents} />
      <LeadFormFooter sending={lead.sending} failure={lead.failure} />
    </form>
  );
}
