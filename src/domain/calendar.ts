// Every calendar day and clock time of the product, in one place. Two calendars count:
// - the visitor's device: a date input's value, a birthday and the questionnaire's "today" are
//   local days; reading UTC instead would put a visitor in Germany on yesterday between midnight
//   and 1 or 2 a.m.;
// - the agent's, in Germany: Analyse's periods, the dashboard's 'Heute', export file names and
//   the times of leads, exports and support messages count in Europe/Berlin, as the database
//   does, whatever zone the browser or server runs in.
// Intl.DateTimeFormat knows the zone's rules (summer time included) in every browser and in Node,
// so no date library is needed for this and none is loaded on the public pages.

/** A calendar day as a date input gives it: 'YYYY-MM-DD'. Such values sort as the days do. */
export type CalendarDay = string;

const localDayPattern = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

// Noon, because a few time zones skip local midnight when their clocks change. `setFullYear`
// rather than the constructor, which reads the years 0 to 99 as 1900 to 1999.
function noonOf(year: number, monthIndex: number, day: number): Date {
  const date = new Date(2000, 0, 1, 12);
  date.setFullYear(year, monthIndex, day);
  return date;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** The local calendar day of `now` (by default the device's clock). */
export function localDay(now: Date = new Date()): CalendarDay {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1, 2)}-${pad(now.getDate(), 2)}`;
}

/**
 * A date input's value as noon of that day, or undefined when it is no real day
 * ('2023-02-30', '15.03.2000', '2000-3-5').
 */
export function parseLocalDay(value: string): Date | undefined {
  const match = localDayPattern.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  const date = noonOf(year, month - 1, day);
  // The calendar moves an impossible day on ('2023-02-30' becomes 2 March): a real day stays.
  return localDay(date) === value ? date : undefined;
}

/** The day `days` later (earlier when negative): calendar arithmetic, the same in any zone. */
export function addDays(day: CalendarDay, days: number): CalendarDay {
  const date = requireDay(day);
  date.setDate(date.getDate() + days);
  return localDay(date);
}

/** Whether `value` is a real calendar day 'YYYY-MM-DD' (no 2026-02-30). */
export function isCalendarDay(value: string | null | undefined): value is CalendarDay {
  return typeof value === 'string' && parseLocalDay(value) !== undefined;
}

/** The days from `first` to `last`, both counted: 1 for a single day, 0 or less when reversed. */
export function daysInRange(first: CalendarDay, last: CalendarDay): number {
  const ms = Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`);
  return Math.round(ms / 86_400_000) + 1;
}

/** Monday of the ISO week that holds this day. */
export function weekStart(day: CalendarDay): CalendarDay {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * The same day `years` later (or earlier, when negative). A 29 February that lands in a common
 * year becomes 28 February. The calendar would move it on to 1 March; the spec's age rules
 * count from 28 February instead (on 29 Feb 2028 the youngest adult was born on 28 Feb 2010), so
 * this step is written by hand. Someone born on 29 February is still of age only from 1 March
 * of a common year, as German law (§ 188 Abs. 3 BGB) counts it.
 */
export function addYears(day: CalendarDay, years: number): CalendarDay {
  const date = requireDay(day);
  const year = date.getFullYear() + years;
  const month = date.getMonth();
  const lastDayOfMonth = noonOf(year, month + 1, 0).getDate();
  return localDay(noonOf(year, month, Math.min(date.getDate(), lastDayOfMonth)));
}

function requireDay(day: CalendarDay): Date {
  const date = parseLocalDay(day);
  // The value stays out of the message: it may be someone's birthdate.
  if (!date) throw new RangeError('Kein gültiger Kalendertag.');
  return date;
}

const berlinZone = 'Europe/Berlin';

// Numbers only, 24-hour clock: the parts every Berlin day and time below is assembled from.
const berlinParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: berlinZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type BerlinParts = Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>;

function partsInBerlin(instant: Date): BerlinParts {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of berlinParts.formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: parts.year ?? '',
    month: parts.month ?? '',
    day: parts.day ?? '',
    hour: parts.hour ?? '',
    minute: parts.minute ?? '',
  };
}

/** The calendar day in Berlin at `now` as 'YYYY-MM-DD', whatever the browser's zone. */
export function berlinToday(now: Date = new Date()): CalendarDay {
  const { year, month, day } = partsInBerlin(now);
  return `${year}-${month}-${day}`;
}

/** A stored instant as 'TT.MM.JJJJ HH:MM' on the clock in Berlin. */
export function berlinMinute(instant: string): string {
  const { year, month, day, hour, minute } = partsInBerlin(new Date(instant));
  return `${day}.${month}.${year} ${hour}:${minute}`;
}

/**
 * A stored instant as the agent's clock in Berlin showed it, as the UTC fields of a Date (a
 * spreadsheet cell has no zone: it shows those fields as they are).
 */
export function berlinWallClock(instant: string): Date {
  const at = new Date(instant).getTime();
  const hour = Math.floor(at / 3_600_000);
  // Berlin's offset changes only at a full UTC hour: one Intl lookup per hour, not per instant
  // (an export of 100,000 leads asks 200,000 times; Intl took 1.4 s of it).
  let offset = berlinOffsets.get(hour);
  if (offset === undefined) {
    const { year, month, day, hour: h, minute } = partsInBerlin(new Date(hour * 3_600_000));
    offset =
      Date.UTC(Number(year), Number(month) - 1, Number(day), Number(h), Number(minute)) -
      hour * 3_600_000;
    if (berlinOffsets.size > 100_000) berlinOffsets.clear();
    berlinOffsets.set(hour, offset);
  }
  // To the minute, as the spreadsheet shows it.
  return new Date(Math.floor((at + offset) / 60_000) * 60_000);
}

/** Berlin's offset from UTC in ms, by UTC hour since the epoch. */
const berlinOffsets = new Map<number, number>();

const berlinDateTimeFormat = new Intl.DateTimeFormat('de-DE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: berlinZone,
});

/** A stored instant's calendar day in Berlin as 'TT.MM.JJJJ' (e.g. a questionnaire's creation). */
export function berlinDate(instant: string): string {
  const { year, month, day } = partsInBerlin(new Date(instant));
  return `${day}.${month}.${year}`;
}

/** A stored instant as the desk's lists show it: '25.11.2026, 10:15' in Berlin. */
export function berlinDateTime(instant: string): string {
  return berlinDateTimeFormat.format(new Date(instant));
}

/** A stored instant's time of day in Berlin as 'HH:MM' (a time input's value). */
export function berlinTime(instant: string): string {
  const { hour, minute } = partsInBerlin(new Date(instant));
  return `${hour}:${minute}`;
}

/**
 * The instant (ISO, UTC) at which Berlin's clocks show `day` at `time` ('HH:MM'). The zone's
 * offset is read at the guess and once more at the result, so a time after a change of the
 * clocks lands right; a time in the hour skipped in spring is read as the hour after.
 */
export function berlinInstant(day: CalendarDay, time: string): string {
  const date = requireDay(day);
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const wanted = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), hour, minute);
  const offsetAt = (instant: number) =>
    berlinWallClock(new Date(instant).toISOString()).getTime() - instant;
  let instant = wanted - offsetAt(wanted);
  instant = wanted - offsetAt(instant);
  return new Date(instant).toISOString();
}
