// The agent's calendar: days in Germany, whatever zone the browser or server runs in. Analyse's
// periods and the dashboard's 'Heute' count by it, as the database does (Europe/Berlin).

const berlinDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today's date in Berlin as 'YYYY-MM-DD', whatever the browser's zone. */
export function berlinToday(now: Date = new Date()): string {
  return berlinDay.format(now);
}

/** Calendar arithmetic on 'YYYY-MM-DD' in UTC, where every day has 24 hours. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
