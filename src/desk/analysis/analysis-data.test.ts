import { describe, expect, it } from 'vitest';
import type { AnalysisOverview, AnswerRow } from '../api/analysis.ts';
import {
  delayBars,
  delayBucketLabel,
  delaySummary,
  distributions,
  distributionSummary,
  fillSeries,
  formatDuration,
  overviewSummary,
  seriesSummary,
  tooLittleData,
} from './analysis-data.ts';

const overview = (changes: Partial<AnalysisOverview>): AnalysisOverview => ({
  leads: 0,
  web_leads: 0,
  fair_tablet_leads: 0,
  questionnaire_leads: 0,
  kfz_leads: 0,
  contact_leads: 0,
  offer_requests: 0,
  offline_leads: 0,
  median_delay_seconds: null,
  first_lead_at: null,
  last_lead_at: null,
  data_since: null,
  ...changes,
});

describe('fillSeries', () => {
  it('lists every day of the range, days without leads at 0, both sources apart', () => {
    const points = fillSeries(
      [
        { period_start: '2026-11-10', channel: 'web', source: 'questionnaire', leads: 2 },
        { period_start: '2026-11-10', channel: 'web', source: 'kfz', leads: 1 },
        { period_start: '2026-11-12', channel: 'fair_tablet', source: 'questionnaire', leads: 4 },
      ],
      '2026-11-09',
      '2026-11-12',
      'day',
    );
    expect(points).toEqual([
      { period: '2026-11-09', web: 0, fairTablet: 0, total: 0 },
      { period: '2026-11-10', web: 3, fairTablet: 0, total: 3 },
      { period: '2026-11-11', web: 0, fairTablet: 0, total: 0 },
      { period: '2026-11-12', web: 0, fairTablet: 4, total: 4 },
    ]);
  });

  it('steps through ISO weeks from the Monday of the first day, across the clock change', () => {
    const points = fillSeries(
      [{ period_start: '2026-10-26', channel: 'web', source: 'questionnaire', leads: 5 }],
      '2026-10-22',
      '2026-11-03',
      'week',
    );
    expect(points.map((point) => [point.period, point.total])).toEqual([
      ['2026-10-19', 0],
      ['2026-10-26', 5],
      ['2026-11-02', 0],
    ]);
  });
});

describe('summaries', () => {
  it('names the total, the fair tablet share and the peak of a series', () => {
    const points = fillSeries(
      [
        { period_start: '2026-11-12', channel: 'web', source: 'questionnaire', leads: 6 },
        { period_start: '2026-11-12', channel: 'fair_tablet', source: 'questionnaire', leads: 3 },
        { period_start: '2026-11-13', channel: 'fair_tablet', source: 'questionnaire', leads: 2 },
      ],
      '2026-11-11',
      '2026-11-13',
      'day',
    );
    expect(seriesSummary(points, 'day')).toBe(
      '11 Anfragen, davon 5 vom Messe-Tablet; Höchstwert 9 am 12.11.2026.',
    );
    expect(seriesSummary(fillSeries([], '2026-11-11', '2026-11-13', 'day'), 'day')).toBe(
      'Keine Anfragen im gewählten Zeitraum.',
    );
  });

  it('gives the offer share of the questionnaire leads in German percent', () => {
    expect(
      overviewSummary(
        overview({
          leads: 1234,
          web_leads: 1200,
          fair_tablet_leads: 34,
          questionnaire_leads: 8,
          offer_requests: 3,
        }),
      ),
    ).toBe(
      '1.234 Anfragen, davon 1.200 über die Website und 34 vom Messe-Tablet; 37,5\u00a0% der Fragebogen-Anfragen wünschen Informationen zu weiteren Angeboten.',
    );
    expect(overviewSummary(overview({}))).toBe('Keine Anfragen im gewählten Zeitraum.');
  });

  it('reports the offline wait with its median and most frequent bucket', () => {
    const bars = delayBars([
      { lower_seconds: 0, upper_seconds: 300, n: 1 },
      { lower_seconds: 7200, upper_seconds: 21600, n: 2 },
      { lower_seconds: 259200, upper_seconds: null, n: 0 },
    ]);
    expect(delaySummary(overview({ offline_leads: 3, median_delay_seconds: 7300 }), bars)).toBe(
      '3 Anfragen haben offline gewartet; Median 2 Std. 2 Min.; am häufigsten 2–6 Std. (2).',
    );
    expect(delaySummary(overview({}), bars)).toBe(
      'Keine Anfrage hat im gewählten Zeitraum offline gewartet.',
    );
  });
});

describe('durations and buckets', () => {
  it('reads as German text', () => {
    expect(formatDuration(42)).toBe('42 Sek.');
    expect(formatDuration(90)).toBe('2 Min.');
    expect(formatDuration(3600)).toBe('1 Std.');
    expect(formatDuration(7260)).toBe('2 Std. 1 Min.');
    expect(formatDuration(86_400)).toBe('1 Tag');
    expect(formatDuration(3 * 86_400 + 5 * 3600)).toBe('3 Tage 5 Std.');
  });

  it('labels every histogram bucket of the database', () => {
    const bounds: [number, number | null][] = [
      [0, 300],
      [300, 1800],
      [1800, 7200],
      [7200, 21600],
      [21600, 86400],
      [86400, 259200],
      [259200, null],
    ];
    expect(bounds.map(([lower, upper]) => delayBucketLabel(lower, upper))).toEqual([
      'unter 5 Min.',
      '5–30 Min.',
      '30 Min.–2 Std.',
      '2–6 Std.',
      '6–24 Std.',
      '1–3 Tage',
      'über 3 Tage',
    ]);
  });
});

describe('tooLittleData', () => {
  it('warns about a short history or a small selection', () => {
    const today = '2026-11-23';
    expect(
      tooLittleData(overview({ leads: 50, data_since: '2026-10-01T08:00:00Z' }), today),
    ).toEqual({
      shortHistory: false,
      fewLeads: false,
    });
    expect(
      tooLittleData(overview({ leads: 50, data_since: '2026-11-01T08:00:00Z' }), today),
    ).toEqual({
      shortHistory: true,
      fewLeads: false,
    });
    expect(
      tooLittleData(overview({ leads: 29, data_since: '2026-01-01T08:00:00Z' }), today),
    ).toEqual({
      shortHistory: false,
      fewLeads: true,
    });
    expect(tooLittleData(overview({}), today).shortHistory).toBe(true);
  });
});

describe('distributions', () => {
  const questions = [
    {
      id: 1,
      question: 'Wie viele Kinder?',
      type: 'multiple-choice' as const,
      key: 'tabaluga_child_count',
    },
    { id: 2, question: 'Geburtsdaten', type: 'input' as const, key: 'tabaluga_child_dates' },
    { id: 9, question: 'Anmerkung', type: 'input' as const, key: null },
  ];
  const rows: AnswerRow[] = [
    { question_id: 1, kind: 'option', value: 'Eins', n: 3 },
    { question_id: 1, kind: 'option', value: 'Zwei', n: 0 },
    { question_id: 1, kind: 'other', value: null, n: 1 },
    { question_id: 2, kind: 'answered', value: null, n: 3 },
    { question_id: 2, kind: 'decade', value: '2010', n: 3 },
    { question_id: 2, kind: 'decade', value: '2020', n: 1 },
    { question_id: 9, kind: 'answered', value: null, n: 1 },
    { question_id: 9, kind: 'empty', value: '', n: 1 },
  ];

  it('labels each row in German without any typed text, shares of leads, decades of children', () => {
    const [count, years, note] = distributions(rows, questions, 4);
    expect(count!.rows).toEqual([
      { kind: 'option', label: 'Eins', n: 3, share: '75\u00a0%' },
      { kind: 'option', label: 'Zwei', n: 0, share: '0\u00a0%' },
      { kind: 'other', label: 'Andere Antwort', n: 1, share: '25\u00a0%' },
    ]);
    expect(years!.unit).toBe('Kinder');
    expect(years!.rows).toEqual([
      { kind: 'answered', label: 'Beantwortet', n: 3, share: '75\u00a0%' },
      { kind: 'decade', label: 'Kinder geboren 2010–2019', n: 3, share: '75\u00a0%' },
      { kind: 'decade', label: 'Kinder geboren 2020–2029', n: 1, share: '25\u00a0%' },
    ]);
    expect(note!.rows.map((row) => row.label)).toEqual(['Beantwortet', 'Ohne Antwort']);
    expect(distributionSummary(count!)).toBe('Am häufigsten: Eins (3 Anfragen, 75\u00a0%).');
    expect(distributionSummary(years!)).toBe(
      'Am häufigsten: Kinder geboren 2010–2019 (3 Kinder, 75\u00a0%).',
    );
    // An input question gives only how many answered.
    expect(distributionSummary(note!)).toBe(
      'Beantwortet: 1 Anfrage (25\u00a0%). 1 Anfrage ohne Antwort.',
    );
  });

  it('labels a birth year question by decade, shares of the leads', () => {
    const [, , birth] = distributions(
      [{ question_id: 9, kind: 'decade', value: '1980', n: 2 }],
      questions,
      4,
    );
    expect(birth!.rows).toEqual([
      { kind: 'decade', label: 'Geboren 1980–1989', n: 2, share: '50\u00a0%' },
    ]);
  });

  it('says when every answer was left empty', () => {
    const [, , note] = distributions(
      [{ question_id: 9, kind: 'empty', value: '', n: 4 }],
      questions,
      4,
    );
    expect(distributionSummary(note!)).toBe(
      'Keine Antworten im gewählten Zeitraum. 4 Anfragen ohne Antwort.',
    );
  });

  it('says when nobody answered', () => {
    const [count] = distributions(
      [{ question_id: 1, kind: 'option', value: 'Eins', n: 0 }],
      questions,
      0,
    );
    expect(distributionSummary(count!)).toBe('Keine Antworten im gewählten Zeitraum.');
  });
});
