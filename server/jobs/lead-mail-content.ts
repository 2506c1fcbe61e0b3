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

/** Longest a visitor's value appears in a mail; the desk shows it whole. */
export const mailValueMaxLength = 120;

// Characters that end or bend a line, or hide or reorder text: C0 and C1 controls, the line and
// paragraph separators, zero-width and bidi formatting characters, the byte order mark.
const lineBreaking =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]+/gu;
// Dots a mail client (or the IDNA rules behind a link) reads as a domain's dot when a letter or
// digit follows: "evil.example", "evil。example".
const domainDot = /[.\u2024\u3002\ufe52\uff0e\uff61](?=[\p{L}\p{N}])/gu;
// Quote marks that would close the quotes around a value.
const quoteMarks = /[„“”"«»‹›]/gu;

/**
 * A visitor's value (a name, a callback wish) as quoted data that cannot form a line or a link of
 * its own: line breaks and control or formatting characters become a space, runs of spaces one;
 * what a mail client links (a scheme's ':', an address's '@', a domain's '.') is defused by
 * brackets ("https[:]//evil[.]example"), as security notices write links nobody should follow;
 * quote marks inside become apostrophes; the value is cut to mailValueMaxLength characters and
 * set in German quotes. The forms and the database already refuse such names; this holds for
 * whatever a row holds.
 */
export function quoted(value: string): string {
  return `„${mailValue(value)}“`;
}

/** A visitor's value made plain and defused as for quoted(), without the quotes (the subject). */
export function mailValue(value: string): string {
  let plain = value.replace(lineBreaking, ' ').replace(/\s+/gu, ' ').trim();
  const characters = [...plain];
  if (characters.length > mailValueMaxLength) {
    plain = `${characters.slice(0, mailValueMaxLength).join('').trimEnd()}…`;
  }
  return plain
    .replace(quoteMarks, "'")
    .replace(domainDot, '[.]')
    .replace(/[:：]/gu, '[:]')
    .replace(/[@＠]/gu, '[@]');
}

const fullName = (lead: LeadMailFacts) => quoted(`${lead.firstName} ${lead.lastName}`);

function timeLine(lead: LeadMailFacts): string {
  const received = berlinDateTime(lead.receivedAt);
  if (isLate(lead)) {
    return `Erfasst am ${berlinDateTime(lead.capturedAt!)} auf dem Messe-Tablet, eingegangen am ${received} (nachgereicht).`;
  }
  return `Eingegangen am ${received}.`;
}

/**
 * The mail for one lead, sent right after it arrived: plain text only (no HTML part), each
 * visitor value quoted on its own labelled line, the desk's link the only link.
 */
export function leadMail(to: string, baseUrl: string, lead: LeadMailFacts): Mail {
  const lines = [
    `Neue Anfrage über ${quoted(lead.formTitle)}.`,
    '',
    `Name: ${fullName(lead)}`,
    ...(lead.callTime ? [`Rückruf gewünscht: ${quoted(lead.callTime)}`] : []),
    timeLine(lead),
    '',
    `Im Survey Desk ansehen: ${deskLink(baseUrl, lead)}`,
    '',
    footer,
  ];
  return {
    to,
    subject: `Neue Anfrage: ${mailValue(lead.formTitle)} – ${mailValue(`${lead.firstName} ${lead.lastName}`)}`,
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
      const wish = lead.callTime ? `, Rückruf: ${quoted(lead.callTime)}` : '';
      return `- ${quoted(lead.formTitle)}: ${fullName(lead)} (${when}${wish})`;
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
