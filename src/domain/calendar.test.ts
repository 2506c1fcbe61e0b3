import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addDays,
  addYears,
  berlinDate,
  berlinDateTime,
  berlinInstant,
  berlinMinute,
  berlinTime,
  berlinToday,
  berlinWallClock,
  daysInRange,
  isCalendarDay,
  localDay,
  parseLocalDay,
  weekStart,
} from './calendar.ts';

describe('localDay', () => {
  it('writes the local calendar day, zero-padded', () => {
    expect(localDay(new Date(2026, 2, 5, 12))).toBe('2026-03-05');
    expect(localDay(new Date(2026, 11, 31, 23, 59, 59, 999))).toBe('2026-12-31');
    expect(localDay(new Date(2027, 0, 1, 0, 0))).toBe('2027-01-01');
  });

  it("gives the spreadsheet's wall clock to the minute around both switches (cached offsets)", () => {
    for (const start of ['2026-03-28T20:00:00Z', '2026-10-24T20:00:00Z']) {
      for (let step = 0; step < 12 * 60; step += 7) {
        const instant = new Date(Date.parse(start) + step * 60_000 + 59_000).toISOString();
        const wall = berlinWallClock(instant);
        const [day, time] = berlinMinute(instant).split(' ');
        expect(formatWall(wall)).toBe(`${day} ${time}`);
      }
    }
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

describe('isCalendarDay', () => {
  it('takes real days only', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-13-01')).toBe(false);
    expect(isCalendarDay('29.03.2026')).toBe(false);
    expect(isCalendarDay(null)).toBe(false);
    expect(isCalendarDay(undefined)).toBe(false);
  });
});

describe('daysInRange', () => {
  it('counts both ends, also across a clock change', () => {
    expect(daysInRange('2026-11-23', '2026-11-23')).toBe(1);
    expect(daysInRange('2026-03-28', '2026-03-30')).toBe(3);
    expect(daysInRange('2026-10-24', '2026-10-26')).toBe(3);
    expect(daysInRange('2026-11-24', '2026-11-23')).toBe(0);
  });
});

describe('weekStart', () => {
  it('finds the Monday of a week', () => {
    expect(weekStart('2026-11-23')).toBe('2026-11-23');
    expect(weekStart('2026-11-29')).toBe('2026-11-23');
    expect(weekStart('2026-01-01')).toBe('2025-12-29');
  });
});

// The agent's clock, whatever zone the machine runs in: each case is checked with the process in
// New York as well, where midnight in Berlin is the afternoon before.
describe.each(['UTC', 'America/New_York'])('Berlin time with the process in %s', (zone) => {
  beforeEach(() => vi.stubEnv('TZ', zone));
  afterEach(() => vi.unstubAllEnvs());

  it.each([
    // Spring forward on 29 March 2026: 02:00 CET becomes 03:00 CEST at 01:00 UTC.
    ['2026-03-28T22:59:00Z', '2026-03-28', '28.03.2026 23:59', '28.03.2026, 23:59'],
    ['2026-03-28T23:00:00Z', '2026-03-29', '29.03.2026 00:00', '29.03.2026, 00:00'],
    ['2026-03-29T00:59:00Z', '2026-03-29', '29.03.2026 01:59', '29.03.2026, 01:59'],
    ['2026-03-29T01:00:00Z', '2026-03-29', '29.03.2026 03:00', '29.03.2026, 03:00'],
    ['2026-03-29T21:59:00Z', '2026-03-29', '29.03.2026 23:59', '29.03.2026, 23:59'],
    ['2026-03-29T22:00:00Z', '2026-03-30', '30.03.2026 00:00', '30.03.2026, 00:00'],
    // Fall back on 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00 UTC.
    ['2026-10-24T21:59:00Z', '2026-10-24', '24.10.2026 23:59', '24.10.2026, 23:59'],
    ['2026-10-24T22:00:00Z', '2026-10-25', '25.10.2026 00:00', '25.10.2026, 00:00'],
    ['2026-10-25T00:59:00Z', '2026-10-25', '25.10.2026 02:59', '25.10.2026, 02:59'],
    ['2026-10-25T01:00:00Z', '2026-10-25', '25.10.2026 02:00', '25.10.2026, 02:00'],
    ['2026-10-25T22:59:00Z', '2026-10-25', '25.10.2026 23:59', '25.10.2026, 23:59'],
    ['2026-10-25T23:00:00Z', '2026-10-26', '26.10.2026 00:00', '26.10.2026, 00:00'],
  ])('%s is %s, %s in Berlin', (instant, day, minute, dateTime) => {
    expect(berlinToday(new Date(instant))).toBe(day);
    expect(berlinMinute(instant)).toBe(minute);
    expect(berlinDateTime(instant)).toBe(dateTime);
    expect(berlinDate(instant)).toBe(minute.slice(0, 10));
    const wall = berlinWallClock(instant);
    expect(wall.toISOString().slice(0, 10)).toBe(day);
    expect(wall.toISOString().slice(11, 16)).toBe(minute.slice(-5));
  });

  it('reads the clock when given no date', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-10-25T23:30:00Z'));
    expect(berlinToday()).toBe('2026-10-26');
    vi.useRealTimers();
  });
});

describe('berlinInstant and berlinTime', () => {
  it('turns a Berlin day and time into the instant, in winter and summer time', () => {
    expect(berlinInstant('2026-11-25', '14:00')).toBe('2026-11-25T13:00:00.000Z');
    expect(berlinInstant('2026-07-14', '09:30')).toBe('2026-07-14T07:30:00.000Z');
  });

  it('lands right on the days after both changes of the clocks', () => {
    expect(berlinInstant('2026-03-30', '08:00')).toBe('2026-03-30T06:00:00.000Z');
    expect(berlinInstant('2026-03-29', '12:00')).toBe('2026-03-29T10:00:00.000Z');
    expect(berlinInstant('2026-10-25', '12:00')).toBe('2026-10-25T11:00:00.000Z');
    expect(berlinInstant('2026-10-26', '14:00')).toBe('2026-10-26T13:00:00.000Z');
  });

  it('reads the time of day back in Berlin', () => {
    expect(berlinTime('2026-03-30T06:00:00.000Z')).toBe('08:00');
    expect(berlinTime('2026-11-25T13:05:00.000Z')).toBe('14:05');
  });
});

/** A wall-clock Date as 'TT.MM.JJJJ HH:MM' from its UTC fields. */
function formatWall(wall: Date): string {
  const [date, time] = wall.toISOString().split('T');
  const [year, month, day] = date!.split('-');
  return `${day}.${month}.${year} ${time!.slice(0, 5)}`;
}
