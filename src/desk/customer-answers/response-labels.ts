import type { CustomerResponse } from '../../api/desk-customers.ts';

// German wording of a stored response's record: where it came from and what was consented to.

export const sourceLabels: Record<CustomerResponse['source'], string> = {
  questionnaire: 'Fragebogen',
  kfz: 'KFZ-Rückruf',
  contact: 'Kontaktformular',
};

export function sourceLabel(response: Pick<CustomerResponse, 'source' | 'channel'>): string {
  const source = sourceLabels[response.source] ?? response.source;
  return response.channel === 'fair_tablet' ? `${source} · Messe-Tablet` : source;
}

const cookieCategories: Record<string, string> = {
  necessary: 'Unbedingt erforderlich',
  preferences: 'Präferenzen',
  statistics: 'Statistik',
  marketing: 'Marketing',
};

/** The stored cookie choice ('necessary,statistics') in the banner's own category names. */
export function cookieChoiceLabel(choice: string | null): string {
  if (!choice) return 'Keine Auswahl übermittelt';
  return choice
    .split(',')
    .map((category) => cookieCategories[category.trim()] ?? category.trim())
    .join(', ');
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
