import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, addYears, localDay, parseLocalDay } from './local-day.ts';

describe('localDay', () => {
  it('writes the local calendar day, zero-padded', () => {
    expect(localDay(new Date(2026, 2, 5, 12))).toBe('2026-03-05');
    expect(localDay(new Date(2026, 11, 31, 23, 59, 59, 999))).toBe('2026-12-31');
    expect(localDay(new Date(2027, 0, 1, 0, 0))).toBe('2027-01-01');
  });

  it('reads the clock when given no date', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 6, 4, 9, 15));
    expect(localDay()).toBe('2026-07-04');
    vi.useRealTimers();
  });
});

// Shortly after midnight in Germany the UTC date is still yesterday: the questionnaire used to
// take "today" from toISOString() and so refused a child born on the visitor's today.
describe('00:30 in Berlin', () => {
  beforeEach(() => {
    vi.stubEnv('TZ', 'Europe/Berlin');
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it.each([
    ['winter time (UTC+1)', '2026-03-14T23:30:00Z', '2026-03-15'],
    ['summer time (UTC+2)', '2026-06-14T22:30:00Z', '2026-06-15'],
  ])('in %s, today is the Berlin day, not the UTC one', (_, instant, berlinDay) => {
    vi.setSystemTime(new Date(instant));
    expect(new Date().getHours()).toBe(0);
    expect(new Date().getMinutes()).toBe(30);

    expect(localDay()).toBe(berlinDay);
    // The old computation: yesterday, so a child born today was after the date input's max.
    const utcToday = new Date().toISOString().slice(0, 10);
    expect(utcToday).toBe(addDays(berlinDay, -1));
    expect(berlinDay > utcToday).toBe(true);
    expect(berlinDay > localDay()).toBe(false);
  });
});

describe('parseLocalDay', () => {
  it('reads a date input value as that local day', () => {
    const date = parseLocalDay('2000-02-29');
    expect(date && localDay(date)).toBe('2000-02-29');
  });

  it('reads years below 100 as they are', () => {
    expect(parseLocalDay('0001-01-01')?.getFullYear()).toBe(1);
  });

  it.each([
    '2023-02-30',
    '2001-02-29',
    '2000-01-00',
    '2000-01-32',
    '2000-00-10',
    '2000-13-10',
    '15.03.2000',
    '2000-3-5',
    '2000-03-05T00:00:00Z',
    '',
    'gestern',
  ])('refuses %j', (value) => {
    expect(parseLocalDay(value)).toBeUndefined();
  });
});

describe('addDays', () => {
  it('crosses months, years and leap days', () => {
    expect(addDays('2026-03-15', -1)).toBe('2026-03-14');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('counts calendar days across a clock change', () => {
    vi.stubEnv('TZ', 'Europe/Berlin');
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2026-10-25', 1)).toBe('2026-10-26');
    vi.unstubAllEnvs();
  });
});

describe('addYears', () => {
  it('keeps month and day', () => {
    expect(addYears('2026-03-15', -18)).toBe('2008-03-15');
    expect(addYears('2026-01-01', -120)).toBe('1906-01-01');
    expect(addYears('2008-03-15', 18)).toBe('2026-03-15');
  });

  it('moves 29 February to 28 February in a common year, not to 1 March', () => {
    expect(addYears('2028-02-29', -18)).toBe('2010-02-28');
    expect(addYears('2008-02-29', 18)).toBe('2026-02-28');
  });

  it('keeps 29 February in a leap year', () => {
    expect(addYears('2028-02-29', -120)).toBe('1908-02-29');
  });

  it('refuses a value that is no day', () => {
    expect(() => addYears('2023-02-30', 1)).toThrow(RangeError);
  });
});
