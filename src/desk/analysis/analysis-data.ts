import type {
  AnalysisOverview,
  AnswerRow,
  DelayRow,
  OverTimeRow,
  TimeBucket,
} from '../api/analysis.ts';
import { addDays, daysInRange, weekStart } from '../../domain/calendar.ts';
import type { QuestionType } from '../../domain/database-enums.ts';
import { questionKeys } from '../../domain/questionnaire.ts';

// What the Analyse screen shows, computed from the database's aggregates: complete series,
// German labels and the one-sentence summaries that stand beside each chart.

export const numberFormat = new Intl.NumberFormat('de-DE');
const percentFormat = new Intl.NumberFormat('de-DE', {
  style: 'percent',
  maximumFractionDigits: 1,
});

export const formatNumber = (value: number) => numberFormat.format(value);

/** A share as German percent ('12,5 %'); '–' when there is nothing to divide by. */
export function formatShare(part: number, whole: number): string {
  return whole > 0 ? percentFormat.format(part / whole) : '–';
}

/** 'YYYY-MM-DD' as 'TT.MM.JJJJ'. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}.${month}.${year}`;
}

export const anfragen = (n: number) => (n === 1 ? '1 Anfrage' : `${formatNumber(n)} Anfragen`);

export interface SeriesPoint {
  /** First day of the day or ISO week. */
  period: string;
  web: number;
  fairTablet: number;
  total: number;
}

/** Every day (or week) of the range, those without leads at 0: the database lists only non-empty ones. */
export function fillSeries(
  rows: readonly OverTimeRow[],
  dayFrom: string,
  dayTo: string,
  bucket: TimeBucket,
): SeriesPoint[] {
  const points = new Map<string, SeriesPoint>();
  const first = bucket === 'day' ? dayFrom : weekStart(dayFrom);
  const step = bucket === 'day' ? 1 : 7;
  for (let period = first; period <= dayTo; period = addDays(period, step)) {
    points.set(period, { period, web: 0, fairTablet: 0, total: 0 });
  }
  for (const row of rows) {
    const point = points.get(row.period_start);
    if (!point) continue;
    if (row.channel === 'fair_tablet') point.fairTablet += row.leads;
    else point.web += row.leads;
    point.total += row.leads;
  }
  return [...points.values()];
}

export function periodLabel(period: string, bucket: TimeBucket): string {
  return bucket === 'day' ? formatDay(period) : `Woche ab ${formatDay(period)}`;
}

export function seriesSummary(points: readonly SeriesPoint[], bucket: TimeBucket): string {
  const total = points.reduce((sum, point) => sum + point.total, 0);
  if (total === 0) return 'Keine Anfragen im gewählten Zeitraum.';
  const tablet = points.reduce((sum, point) => sum + point.fairTablet, 0);
  const peak = points.reduce((best, point) => (point.total > best.total ? point : best));
  const where =
    bucket === 'day'
      ? `am ${formatDay(peak.period)}`
      : `in der ${periodLabel(peak.period, bucket)}`;
  return (
    `${anfragen(total)}, davon ${formatNumber(tablet)} vom Messe-Tablet; ` +
    `Höchstwert ${formatNumber(peak.total)} ${where}.`
  );
}

/** A readable German duration: '45 Sek.', '12 Min.', '2 Std. 5 Min.', '3 Tage 4 Std.'. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} Sek.`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} Min.`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    const rest = minutes % 60;
    return rest ? `${hours} Std. ${rest} Min.` : `${hours} Std.`;
  }
  const days = Math.floor(hours / 24);
  const restHours = hours % 24;
  const dayWord = days === 1 ? '1 Tag' : `${days} Tage`;
  return restHours ? `${dayWord} ${restHours} Std.` : dayWord;
}

// An upper bound stays in the smaller unit ('6–24 Std.'), a lower one moves up ('1–3 Tage').
function boundLabel(seconds: number, upper = false): { value: number; unit: string } {
  const below = (limit: number) => (upper ? seconds <= limit : seconds < limit);
  if (below(3600)) return { value: seconds / 60, unit: 'Min.' };
  if (below(86_400)) return { value: seconds / 3600, unit: 'Std.' };
  return { value: seconds / 86_400, unit: 'Tage' };
}

/**
 * 'unter 5 Min.', '30 Min.–2 Std.', 'über 3 Tage': the unit is written once when both ends share
 * it.
 */
export function delayBucketLabel(lower: number, upper: number | null): string {
  const low = boundLabel(lower);
  if (upper === null) return `über ${formatNumber(low.value)} ${low.unit}`;
  const high = boundLabel(upper, true);
  if (lower === 0) return `unter ${formatNumber(high.value)} ${high.unit}`;
  return low.unit === high.unit
    ? `${formatNumber(low.value)}–${formatNumber(high.value)} ${high.unit}`
    : `${formatNumber(low.value)} ${low.unit}–${formatNumber(high.value)} ${high.unit}`;
}

export interface DelayBar {
  label: string;
  n: number;
}

export const delayBars = (rows: readonly DelayRow[]): DelayBar[] =>
  rows.map((row) => ({ label: delayBucketLabel(row.lower_seconds, row.upper_seconds), n: row.n }));

export function delaySummary(overview: AnalysisOverview, bars: readonly DelayBar[]): string {
  if (overview.offline_leads === 0) {
    return 'Keine Anfrage hat im gewählten Zeitraum offline gewartet.';
  }
  const peak = bars.reduce(
    (best, bar) => (bar.n > best.n ? bar : best),
    bars[0] ?? { label: '', n: 0 },
  );
  const median =
    overview.median_delay_seconds === null
      ? ''
      : `; Median ${formatDuration(overview.median_delay_seconds)}`;
  return (
    `${anfragen(overview.offline_leads)} ${overview.offline_leads === 1 ? 'hat' : 'haben'} offline gewartet` +
    `${median}; am häufigsten ${peak.label} (${formatNumber(peak.n)}).`
  );
}

export function overviewSummary(overview: AnalysisOverview): string {
  if (overview.leads === 0) return 'Keine Anfragen im gewählten Zeitraum.';
  const offers =
    overview.questionnaire_leads > 0
      ? `; ${formatShare(overview.offer_requests, overview.questionnaire_leads)} der Fragebogen-Anfragen wünschen Informationen zu weiteren Angeboten`
      : '';
  return (
    `${anfragen(overview.leads)}, davon ${formatNumber(overview.web_leads)} über die Website und ` +
    `${formatNumber(overview.fair_tablet_leads)} vom Messe-Tablet${offers}.`
  );
}

/** The spec's note: figures from less than about 30 days of data, or from few leads, mislead. */
export function tooLittleData(
  overview: AnalysisOverview,
  today: string,
): { shortHistory: boolean; fewLeads: boolean } {
  const since = overview.data_since?.slice(0, 10);
  return {
    shortHistory: !since || daysInRange(since, today) < 30,
    fewLeads: overview.leads < 30,
  };
}

export interface QuestionInfo {
  id: number;
  question: string;
  type: QuestionType;
  key: string | null;
}

export interface DistributionRow {
  kind: AnswerRow['kind'];
  label: string;
  n: number;
  /** Share of the selection's questionnaire leads, or of the children for their birth decades. */
  share: string;
}

export interface QuestionDistribution {
  question: QuestionInfo;
  /** 'Kinder' for the children's birth decades, else 'Anfragen'. */
  unit: 'Anfragen' | 'Kinder';
  rows: DistributionRow[];
}

function decadeLabel(value: string | null, children: boolean): string {
  const start = Number(value);
  const span = Number.isInteger(start) ? `${start}–${start + 9}` : (value ?? '');
  return children ? `Kinder geboren ${span}` : `Geboren ${span}`;
}

function rowLabel(row: AnswerRow, children: boolean): string {
  switch (row.kind) {
    case 'empty':
      return 'Ohne Antwort';
    case 'other':
      return 'Andere Antwort';
    case 'answered':
      return 'Beantwortet';
    case 'decade':
      return decadeLabel(row.value, children);
    default:
      return row.value ?? '';
  }
}

/**
 * The database's rows per question, in the questionnaire's order, with labels and shares. No row
 * carries a visitor's text: options are the questionnaire's, input questions give how many
 * answered and, for birth questions, decades.
 */
export function distributions(
  rows: readonly AnswerRow[],
  questions: readonly QuestionInfo[],
  leads: number,
): QuestionDistribution[] {
  return questions.map((question) => {
    const own = rows.filter((row) => row.question_id === question.id);
    const children = question.key === questionKeys.childDates;
    const childCount = own
      .filter((row) => row.kind === 'decade')
      .reduce((sum, row) => sum + row.n, 0);
    return {
      question,
      unit: children ? 'Kinder' : 'Anfragen',
      rows: own.map((row) => ({
        kind: row.kind,
        label: rowLabel(row, children),
        n: row.n,
        share: formatShare(row.n, children && row.kind === 'decade' ? childCount : leads),
      })),
    };
  });
}

export function distributionSummary(distribution: QuestionDistribution): string {
  const answered = distribution.rows.filter((row) => row.n > 0);
  if (answered.length === 0) return 'Keine Antworten im gewählten Zeitraum.';
  const empty = answered.find((row) => row.kind === 'empty');
  const emptyNote = empty ? ` ${anfragen(empty.n)} ohne Antwort.` : '';
  // 'Ohne Antwort' is no answer anybody gave, and 'Beantwortet' counts them all: the most
  // frequent is among the options or decades.
  const given = answered.filter((row) => row.kind !== 'empty' && row.kind !== 'answered');
  if (given.length === 0) {
    const total = answered.find((row) => row.kind === 'answered');
    return total
      ? `Beantwortet: ${anfragen(total.n)} (${total.share}).${emptyNote}`
      : `Keine Antworten im gewählten Zeitraum.${emptyNote}`;
  }
  const top = given.reduce((best, row) => (row.n > best.n ? row : best));
  const perChild = distribution.unit === 'Kinder' && top.kind === 'decade';
  const count = perChild
    ? `${formatNumber(top.n)} ${top.n === 1 ? 'Kind' : 'Kinder'}`
    : anfragen(top.n);
  return `Am häufigsten: ${top.label} (${count}, ${top.share}).${emptyNote}`;
}

export const isEmptyRange = (dayFrom: string, dayTo: string) => daysInRange(dayFrom, dayTo) < 1;
