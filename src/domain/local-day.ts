// Calendar days as the visitor's device sees them. A date input's value, a birthday and "today"
// are local days: reading UTC instead would put a visitor in Germany on yesterday between
// midnight and 1 or 2 a.m. Every form and rule that speaks of days goes through this module.

/** A calendar day as a date input gives it: 'YYYY-MM-DD'. Such values sort as the days do. */
export type LocalDay = string;

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
export function localDay(now: Date = new Date()): LocalDay {
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

export function addDays(day: LocalDay, days: number): LocalDay {
  const date = requireDay(day);
  date.setDate(date.getDate() + days);
  return localDay(date);
}

/**
 * The same day `years` later (or earlier, when negative). A 29 February that lands in a common
 * year becomes 28 February. The calendar would move it on to 1 March; the spec's age rules
 * count from 28 February instead (on 29 Feb 2028 the youngest adult was born on 28 Feb 2010), so
 * this step is written by hand. Someone born on 29 February is still of age only from 1 March
 * of a common year, as German law (§ 188 Abs. 3 BGB) counts it.
 */
export function addYears(day: LocalDay, years: number): LocalDay {
  const date = requireDay(day);
  const year = date.getFullYear() + years;
  const month = date.getMonth();
  const lastDayOfMonth = noonOf(year, month + 1, 0).getDate();
  return localDay(noonOf(year, month, Math.min(date.getDate(), lastDayOfMonth)));
}

function requireDay(day: LocalDay): Date {
  const date = parseLocalDay(day);
  // The value stays out of the message: it may be someone's birthdate.
  if (!date) throw new RangeError('Kein gültiger Kalendertag.');
  return date;
}
