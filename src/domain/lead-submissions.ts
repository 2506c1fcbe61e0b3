import type { ContactRequest, KfzRequest } from './contact-forms.ts';
import { CONSENT_VERSION, TABALUGA_FORM_ID } from './questionnaire.ts';
import type { SubmissionEnvelope } from './submission.ts';

/** What every lead carries besides its form's fields. */
export interface LeadContext {
  clientId: string;
  now: Date;
  /** The visitor's cookie choice and the banner's text version, when a choice was made. */
  cookieConsent?: { choice: string; version: string } | undefined;
}

type Envelope = Omit<SubmissionEnvelope, 'source' | 'answers'> & { answers: [] };

function envelope(context: LeadContext, first: string, last: string): Envelope {
  const timestamp = context.now.toISOString();
  const name = `${first} ${last}`.trim();
  return {
    client_id: context.clientId,
    // The spec: KFZ and contact leads go to form 1 with an empty answer list.
    form_id: TABALUGA_FORM_ID,
    answers: [],
    create_date: timestamp,
    changed_date: timestamp,
    captured_at: timestamp,
    create_user: name,
    changed_user: name,
    consent_version: CONSENT_VERSION,
    ...(context.cookieConsent
      ? {
          cookie_consent: context.cookieConsent.choice,
          cookie_consent_version: context.cookieConsent.version,
        }
      : {}),
  };
}

export function buildKfzSubmission(values: KfzRequest, context: LeadContext) {
  return {
    ...envelope(context, values.first_name, values.last_name),
    source: 'kfz' as const,
    ...values,
    // The spec: the KFZ form always asks for an offer.
    offer_info: true,
  };
}

/**
 * The contact page's lead. The spec's page collected birthdate, salutation, title, call time,
 * existing-customer and message and threw them away; they are sent and stored (DESIGN 9).
 */
export function buildContactSubmission(values: ContactRequest, context: LeadContext) {
  return {
    ...envelope(context, values.first_name, values.last_name),
    source: 'contact' as const,
    ...values,
    offer_info: true,
  };
}
