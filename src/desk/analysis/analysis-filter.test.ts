import { describe, expect, it } from 'vitest';
import { berlinToday } from '../../domain/calendar.ts';
import {
  bucketFor,
  parseSelection,
  presetRange,
  selectionParams,
  toFilter,
  validateRange,
} from './analysis-filter.ts';

const today = '2026-11-23';
const parse = (query: string) => parseSelection(new URLSearchParams(query), today);

describe('berlinToday', () => {
  it('takes the date in Berlin, not in UTC', () => {
    // 23:30 UTC on 31 March is already 1 April in Berlin (summer time, UTC+2).
    expect(berlinToday(new Date('2026-03-31T23:30:00Z'))).toBe('2026-04-01');
    // 22:59 UTC in winter is 23:59 in Berlin: still the same day.
    expect(berlinToday(new Date('2026-11-23T22:59:00Z'))).toBe('2026-11-23');
    expect(berlinToday(new Date('2026-11-23T23:00:00Z'))).toBe('2026-11-24');
  });
});

describe('presets', () => {
  it('count today as the last of 7, 30 or 90 days', () => {
    expect(presetRange('7', today)).toEqual({ dayFrom: '2026-11-17', dayTo: today });
    expect(presetRange('30', today)).toEqual({ dayFrom: '2026-10-25', dayTo: today });
    expect(presetRange('90', '2026-03-01')).toEqual({ dayFrom: '2025-12-02', dayTo: '2026-03-01' });
  });
});

describe('parseSelection', () => {
  it('defaults to the last 30 days, every lead, both sources', () => {
    expect(parse('')).toEqual({
      period: '30',
      dayFrom: '2026-10-25',
      dayTo: today,
      questionnaireId: null,
      source: 'alle',
    });
  });

  it('reads a preset, a questionnaire and a source', () => {
    expect(parse('zeitraum=7&fragebogen=2&quelle=messe')).toEqual({
      period: '7',
      dayFrom: '2026-11-17',
      dayTo: today,
      questionnaireId: 2,
      source: 'messe',
    });
    expect(toFilter(parse('zeitraum=90&quelle=website'))).toEqual({
      dayFrom: '2026-08-26',
      dayTo: today,
      questionnaireId: null,
      channel: 'web',
    });
    expect(toFilter(parse('quelle=messe')).channel).toBe('fair_tablet');
  });

  it('reads a valid custom range', () => {
    expect(parse('zeitraum=eigener&von=2026-01-01&bis=2026-01-31')).toMatchObject({
      period: 'eigener',
      dayFrom: '2026-01-01',
      dayTo: '2026-01-31',
    });
  });

  it.each([
    'zeitraum=14',
    'zeitraum=eigener',
    'zeitraum=eigener&von=2026-02-30&bis=2026-03-01',
    'zeitraum=eigener&von=2026-13-01&bis=2026-11-01',
    'zeitraum=eigener&von=2026-11-01&bis=2026-11-00',
    'zeitraum=eigener&von=2026-03-02&bis=2026-03-01',
    'zeitraum=eigener&von=2026-11-01&bis=2026-11-24',
    'zeitraum=eigener&von=gestern&bis=heute',
  ])('falls back to 30 days for %s', (query) => {
    expect(parse(query)).toMatchObject({ period: '30', dayFrom: '2026-10-25', dayTo: today });
  });

  it.each(['fragebogen=0', 'fragebogen=abc', 'fragebogen=1.5', 'fragebogen=99999999999'])(
    'ignores a bad questionnaire in %s',
    (query) => {
      expect(parse(query).questionnaireId).toBeNull();
    },
  );

  it('ignores an unknown source', () => {
    expect(parse('quelle=fax').source).toBe('alle');
  });

  it('round-trips through the address and leaves defaults out', () => {
    const custom = parse(
      'zeitraum=eigener&von=2026-01-01&bis=2026-01-31&fragebogen=1&quelle=website',
    );
    expect(parseSelection(selectionParams(custom), today)).toEqual(custom);
    expect(selectionParams(parse('')).toString()).toBe('');
    expect(selectionParams(parse('zeitraum=7')).toString()).toBe('zeitraum=7');
  });
});

describe('validateRange', () => {
  it('accepts a range up to today', () => {
    expect(validateRange('2026-11-01', today, today)).toEqual({});
    expect(validateRange(today, today, today)).toEqual({});
  });

  it('ties each problem to its field in German', () => {
    expect(validateRange('', '', today)).toEqual({
      von: 'Bitte gib ein Startdatum ein.',
      bis: 'Bitte gib ein Enddatum ein.',
    });
    expect(validateRange('2026-11-10', '2026-11-01', today)).toEqual({
      bis: 'Das Enddatum darf nicht vor dem Startdatum liegen.',
    });
    expect(validateRange('2026-11-24', '2026-11-25', today)).toEqual({
      von: 'Das Startdatum darf nicht in der Zukunft liegen.',
      bis: 'Das Enddatum darf nicht in der Zukunft liegen.',
    });
    expect(validateRange('2026-02-29', today, today).von).toMatch(/gültiges Datum/);
  });
});

describe('bucketFor', () => {
  it('counts per day up to 31 days, per week beyond', () => {
    expect(bucketFor({ dayFrom: '2026-11-01', dayTo: '2026-12-01' })).toBe('day');
    expect(bucketFor({ dayFrom: '2026-11-01', dayTo: '2026-12-02' })).toBe('week');
    // 31 days across the switch to winter time are still 31 calendar days.
    expect(bucketFor({ dayFrom: '2026-10-01', dayTo: '2026-10-31' })).toBe('day');
  });
});
