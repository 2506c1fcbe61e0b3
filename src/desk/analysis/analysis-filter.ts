import type { AnalysisChannel, AnalysisFilter, TimeBucket } from '../api/analysis.ts';
import { addDays, daysInRange, isCalendarDay } from '../../domain/calendar.ts';

// The Analyse selection as it lives in the address bar, and the Berlin calendar days it means.
// Any value the screen cannot use falls back to the default (the last 30 days, everything).

export type PeriodChoice = '7' | '30' | '90' | 'eigener';
export type SourceChoice = 'alle' | 'website' | 'messe';

export interface AnalysisSelection {
  period: PeriodChoice;
  /** The applied range; for presets computed from Berlin's today. */
  dayFrom: string;
  dayTo: string;
  questionnaireId: number | null;
  source: SourceChoice;
}

export const periodOptions: readonly { value: PeriodChoice; label: string }[] = [
  { value: '7', label: 'Letzte 7 Tage' },
  { value: '30', label: 'Letzte 30 Tage' },
  { value: '90', label: 'Letzte 90 Tage' },
  { value: 'eigener', label: 'Eigener Zeitraum' },
];

export const sourceOptions: readonly { value: SourceChoice; label: string }[] = [
  { value: 'alle', label: 'Alle Quellen' },
  { value: 'website', label: 'Website' },
  { value: 'messe', label: 'Messe-Tablet' },
];

const channelOf: Record<SourceChoice, AnalysisChannel | null> = {
  alle: null,
  website: 'web',
  messe: 'fair_tablet',
};

export function presetRange(period: '7' | '30' | '90', today: string) {
  return { dayFrom: addDays(today, -(Number(period) - 1)), dayTo: today };
}

export interface RangeErrors {
  von?: string;
  bis?: string;
}

/** The custom range's problems, per field, in German; empty when it can be applied. */
export function validateRange(von: string, bis: string, today: string): RangeErrors {
  const errors: RangeErrors = {};
  if (!von) errors.von = 'Bitte gib ein Startdatum ein.';
  else if (!isCalendarDay(von)) errors.von = 'Bitte gib ein gültiges Datum ein (TT.MM.JJJJ).';
  else if (von > today) errors.von = 'Das Startdatum darf nicht in der Zukunft liegen.';
  if (!bis) errors.bis = 'Bitte gib ein Enddatum ein.';
  else if (!isCalendarDay(bis)) errors.bis = 'Bitte gib ein gültiges Datum ein (TT.MM.JJJJ).';
  else if (bis > today) errors.bis = 'Das Enddatum darf nicht in der Zukunft liegen.';
  else if (!errors.von && bis < von)
    errors.bis = 'Das Enddatum darf nicht vor dem Startdatum liegen.';
  return errors;
}

export const hasErrors = (errors: RangeErrors) => Boolean(errors.von ?? errors.bis);

export function parseSelection(params: URLSearchParams, today: string): AnalysisSelection {
  const rawPeriod = params.get('zeitraum');
  const rawSource = params.get('quelle');
  const source: SourceChoice =
    rawSource === 'website' || rawSource === 'messe' ? rawSource : 'alle';
  const rawForm = params.get('fragebogen');
  const questionnaireId =
    rawForm && /^[1-9]\d{0,9}$/.test(rawForm) && Number(rawForm) <= 2_147_483_647
      ? Number(rawForm)
      : null;

  let period: PeriodChoice = '30';
  let range = presetRange('30', today);
  if (rawPeriod === '7' || rawPeriod === '90') {
    period = rawPeriod;
    range = presetRange(rawPeriod, today);
  } else if (rawPeriod === 'eigener') {
    const von = params.get('von') ?? '';
    const bis = params.get('bis') ?? '';
    if (!hasErrors(validateRange(von, bis, today))) {
      period = 'eigener';
      range = { dayFrom: von, dayTo: bis };
    }
  }
  return { period, ...range, questionnaireId, source };
}

/** The address bar's form of a selection: defaults are left out to keep links short. */
export function selectionParams(selection: AnalysisSelection): URLSearchParams {
  const params = new URLSearchParams();
  if (selection.period !== '30') params.set('zeitraum', selection.period);
  if (selection.period === 'eigener') {
    params.set('von', selection.dayFrom);
    params.set('bis', selection.dayTo);
  }
  if (selection.questionnaireId !== null)
    params.set('fragebogen', String(selection.questionnaireId));
  if (selection.source !== 'alle') params.set('quelle', selection.source);
  return params;
}

export function toFilter(selection: AnalysisSelection): AnalysisFilter {
  return {
    dayFrom: selection.dayFrom,
    dayTo: selection.dayTo,
    questionnaireId: selection.questionnaireId,
    channel: channelOf[selection.source],
  };
}

/** Per day up to a month, beyond that per ISO week, so that a bar stays readable. */
export function bucketFor(filter: Pick<AnalysisFilter, 'dayFrom' | 'dayTo'>): TimeBucket {
  return daysInRange(filter.dayFrom, filter.dayTo) <= 31 ? 'day' : 'week';
}
