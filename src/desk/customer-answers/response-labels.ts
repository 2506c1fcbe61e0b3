import type { CustomerResponse } from '../api/customers.ts';
import { cookieCategoryNames } from '../../domain/cookie-choice.ts';
import { leadSourceLabels as sourceLabels } from '../shared/lead-source-labels.ts';

// German wording of a stored response's record: where it came from and what was consented to.

export function sourceLabel(response: Pick<CustomerResponse, 'source' | 'channel'>): string {
  const source = sourceLabels[response.source] ?? response.source;
  return response.channel === 'fair_tablet' ? `${source} · Messe-Tablet` : source;
}

/**
 * A section's heading: the questionnaire's title, or the form a KFZ or contact request came
 * through (those leads carry a form id too, which names no questionnaire they answered).
 */
export function responseTitle(response: Pick<CustomerResponse, 'source' | 'forms'>): string {
  if (response.source === 'questionnaire')
    return response.forms?.title ?? sourceLabels.questionnaire;
  return sourceLabels[response.source] ?? response.source;
}

/** The contact page's and KFZ form's extra details that this response holds, as label and text. */
export function requestDetails(
  response: Pick<
    CustomerResponse,
    'salutation' | 'title' | 'birthdate' | 'call_time' | 'existing_customer' | 'message'
  >,
): { label: string; text: string }[] {
  const details: [string, string | null | undefined][] = [
    ['Anrede', response.salutation],
    ['Titel', response.title],
    ['Geburtsdatum', response.birthdate ? answerText(response.birthdate) : null],
    ['Gewünschte Rückrufzeit', response.call_time],
    [
      'Bereits Kunde',
      response.existing_customer === null || response.existing_customer === undefined
        ? null
        : yesNo(response.existing_customer),
    ],
    ['Nachricht', response.message],
  ];
  return details
    .filter((detail): detail is [string, string] => Boolean(detail[1]?.trim()))
    .map(([label, text]) => ({ label, text }));
}

/** The stored cookie choice ('necessary,statistics') in the banner's own category names. */
export function cookieChoiceLabel(choice: string | null): string {
  if (!choice) return 'Keine Auswahl übermittelt';
  return cookieCategoryNames(choice);
}

export const offerInfoLabel = 'Weitere Angebote erwünscht (freiwillig)';

/**
 * The questionnaire's optional box 'Ich möchte auch über weitere passende Angebote informiert
 * werden' under what it is. The KFZ and contact forms have no such box and send true whatever the
 * visitor wants (spec), so their value says nothing and is not shown at all.
 */
export function offerInfoEntry(
  response: Pick<CustomerResponse, 'source' | 'offer_info'>,
): { label: string; text: string } | null {
  if (response.source !== 'questionnaire') return null;
  return { label: offerInfoLabel, text: yesNo(response.offer_info) };
}

export function yesNo(value: boolean | null): string {
  if (value === null) return 'Nicht erfasst';
  return value ? 'Ja' : 'Nein';
}

/**
 * A fair tablet may hold a lead for hours before it reaches the server: both times are shown
 * when they differ by a minute or more; a web lead arrives as it is sent.
 */
export function capturedDiffers(response: Pick<CustomerResponse, 'captured_at' | 'received_at'>) {
  if (!response.captured_at) return false;
  const gap = Math.abs(Date.parse(response.received_at) - Date.parse(response.captured_at));
  return gap >= 60_000;
}

/** Dates in an answer (children's birthdates are stored as 2020-03-03) read the German way. */
export const answerText = (answer: string): string =>
  answer.replace(/\b(\d{4})-(\d{2})-(\d{2})\b/g, '$3.$2.$1') || '–';
