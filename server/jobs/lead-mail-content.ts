import { berlinDateTime } from '../../src/domain/calendar.ts';
import { deskCustomerAnswersPath, deskPaths } from '../../src/domain/routes.ts';
import type { Mail } from '../gateway/auth/mail.ts';

/** What a new-lead mail may tell: form, name, callback wish and times. No answers, no contact. */
export interface LeadMailFacts {
  responseId: number;
  customerId: number | null;
  formTitle: string;
  firstName: string;
  lastName: string;
  callTime: string | null;
  capturedAt: string | null;
  receivedAt: string;
}

/** A lead captured more than this before it arrived waited offline (on the fair's tablet). */
export const lateAfterMs = 60 * 60 * 1000;

export function isLate(lead: Pick<LeadMailFacts, 'capturedAt' | 'receivedAt'>): boolean {
  if (!lead.capturedAt) return false;
  return new Date(lead.receivedAt).getTime() - new Date(lead.capturedAt).getTime() > lateAfterMs;
}

/**
 * The desk's page of the lead's customer, below the configured public address (PUBLIC_URL, or
 * the address the server listens on): never from a request's Host header, which a caller picks.
 */
export function deskLink(baseUrl: string, lead: Pick<LeadMailFacts, 'customerId'>): string {
  const page =
    lead.customerId === null ? deskPaths.customers : deskCustomerAnswersPath(lead.customerId);
  return new URL(page, baseUrl).toString();
}

const fullName = (lead: LeadMailFacts) => `${lead.firstName} ${lead.lastName}`.trim();

function timeLine(lead: LeadMailFacts): string {
  const received = berlinDateTime(lead.receivedAt);
  if (isLate(lead)) {
    return `Erfasst am ${berlinDateTime(lead.capturedAt!)} auf dem Messe-Tablet, eingegangen am ${received} (nachgereicht).`;
  }
  return `Eingegangen am ${received}.`;
}

/** The mail for one lead, sent right after it arrived. */
export function leadMail(to: string, baseUrl: string, lead: LeadMailFacts): Mail {
  const lines = [
    `Neue Anfrage über „${lead.formTitle}“.`,
    '',
    `Name: ${fullName(lead)}`,
    ...(lead.callTime ? [`Rückruf gewünscht: ${lead.callTime}`] : []),
    timeLine(lead),
    '',
    `Im Survey Desk ansehen: ${deskLink(baseUrl, lead)}`,
    '',
    footer,
  ];
  return {
    to,
    subject: `Neue Anfrage: ${lead.formTitle} – ${fullName(lead)}`,
    text: lines.join('\n') + '\n',
  };
}

/** The day's digest: one line per lead (form, name, time), oldest first. */
export function digestMail(to: string, baseUrl: string, day: string, leads: LeadMailFacts[]): Mail {
  const [year, month, date] = day.split('-');
  const lines = [
    leads.length === 1
      ? 'Seit der letzten Zusammenfassung ist 1 neue Anfrage eingegangen:'
      : `Seit der letzten Zusammenfassung sind ${leads.length} neue Anfragen eingegangen:`,
    '',
    ...leads.map((lead) => {
      const when = isLate(lead)
        ? `erfasst ${berlinDateTime(lead.capturedAt!)} auf dem Messe-Tablet, eingegangen ${berlinDateTime(lead.receivedAt)}`
        : berlinDateTime(lead.receivedAt);
      const wish = lead.callTime ? `, Rückruf: ${lead.callTime}` : '';
      return `- ${lead.formTitle}: ${fullName(lead)} (${when}${wish})`;
    }),
    '',
    `Im Survey Desk ansehen: ${new URL(deskPaths.customers, baseUrl).toString()}`,
    '',
    footer,
  ];
  return {
    to,
    subject: `Neue Anfragen am ${date}.${month}.${year}: ${leads.length}`,
    text: lines.join('\n') + '\n',
  };
}

const footer =
  'Antworten und Kontaktdaten stehen aus Datenschutzgründen nicht in dieser Mail, nur im Survey Desk.';
