import type { ReactNode } from 'react';
import { Island, type IslandName } from '../../islands/island.tsx';
import type { PageMeta } from '../../config/page-meta.ts';
import { LeadConsentFields, LeadFormFooter } from '../../ui/lead-form-parts.tsx';
import { LeadSent } from '../../ui/lead-sent.tsx';
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
  /** The note on required fields, as each page words it. */
  requiredNote: string;
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
 * gives way to the success message once the lead is sent or saved on this device.
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
    <LeadSent delivery={lead.delivered} onAgain={lead.again} />
  ) : (
    <form
      noValidate
      onSubmit={lead.submit}
      aria-label={page.label}
      className={`relative ${page.width} rounded-2xl bg-white p-6 shadow-sm`}
    >
      <p className="mb-4 text-sm text-slate-600">{page.requiredNote}</p>
      <div className="grid gap-4 sm:grid-cols-2">{children(lead.field)}</div>
      <LeadConsentFields purpose={page.consentPurpose} {...lead.consents} />
      <LeadFormFooter sending={lead.sending} failure={lead.failure} />
    </form>
  );
}
