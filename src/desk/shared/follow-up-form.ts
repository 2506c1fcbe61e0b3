import { z } from 'zod';
import {
  addDays,
  berlinInstant,
  berlinTime,
  berlinToday,
  isCalendarDay,
  weekStart,
  type CalendarDay,
} from '../../domain/calendar.ts';

// A follow-up as staff enter it: a day and a time on the clock in Berlin, an assignee (or
// nobody) and a short text. The database checks the same limits (body ≤ 500, an enabled
// assignee); these rules say it in German, at the field, before anything is sent. A time already
// past is refused here too: a follow-up made overdue would only swell 'Heute fällig'.

export const followUpBodyMax = 500;

/** The office's working hours in Berlin: Monday to Friday, slots from 9:00 to 17:00. */
export const workingHours = { first: 9, last: 17 } as const;

export const pastDayMessage = 'Das Datum liegt in der Vergangenheit. Bitte ein späteres wählen.';
export const pastTimeMessage = 'Diese Uhrzeit ist heute schon vorbei. Bitte eine spätere wählen.';

const timePattern = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** The start of the current minute: a follow-up due this minute is not past yet. */
const minuteStart = (now: Date) => Math.floor(now.getTime() / 60_000) * 60_000;

export const followUpFormSchema = z
  .object({
    day: z.string().refine((value) => isCalendarDay(value), { error: 'Bitte ein Datum wählen.' }),
    time: z.string().regex(timePattern, { error: 'Bitte eine Uhrzeit wählen.' }),
    assignee: z.string(),
    body: z
      .string()
      .trim()
      .max(followUpBodyMax, { error: `Höchstens ${followUpBodyMax} Zeichen.` }),
  })
  .superRefine((values, context) => {
    // Checked at every submit against the clock of that moment (the dialog may stay open).
    const now = new Date();
    if (!isCalendarDay(values.day) || !timePattern.test(values.time)) return;
    const today = berlinToday(now);
    if (values.day < today) {
      context.addIssue({ code: 'custom', path: ['day'], message: pastDayMessage });
    } else if (Date.parse(berlinInstant(values.day, values.time)) < minuteStart(now)) {
      context.addIssue({ code: 'custom', path: ['time'], message: pastTimeMessage });
    }
  });

export type FollowUpFormInput = z.input<typeof followUpFormSchema>;
export type FollowUpFormValues = z.output<typeof followUpFormSchema>;

const weekday = (day: CalendarDay) => new Date(`${day}T00:00:00Z`).getUTCDay();
const isWorkingDay = (day: CalendarDay) => weekday(day) >= 1 && weekday(day) <= 5;
const clock = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

function nextWorkingDay(day: CalendarDay): CalendarDay {
  let next = addDays(day, 1);
  while (!isWorkingDay(next)) next = addDays(next, 1);
  return next;
}

/**
 * The next slot in working hours: the next full hour on a working day between 9:00 and 17:00,
 * else 9:00 of that morning or of the next working day (never 02:00 at night or a Sunday).
 */
export function nextWorkingSlot(now: Date = new Date()): { day: CalendarDay; time: string } {
  const nextHour = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000).toISOString();
  const day = berlinToday(new Date(nextHour));
  const hour = Number(berlinTime(nextHour).slice(0, 2));
  if (isWorkingDay(day) && hour <= workingHours.last) {
    return { day, time: clock(Math.max(hour, workingHours.first)) };
  }
  return { day: nextWorkingDay(day), time: clock(workingHours.first) };
}

/** A new follow-up's fields: for me, at the next slot in working hours in Berlin. */
export function followUpDefaults(
  me: string | undefined,
  now: Date = new Date(),
): FollowUpFormInput {
  return { ...nextWorkingSlot(now), assignee: me ?? '', body: '' };
}

export interface QuickChoice {
  label: string;
  day: CalendarDay;
  time: string;
}

/**
 * The dialog's quick choices at `now`: 'Heute 16 Uhr' while that is still ahead, 'Morgen 9 Uhr',
 * 'In 3 Tagen' (9:00) and 'Nächste Woche' (Monday 9:00), all on the clock in Berlin.
 */
export function quickChoices(now: Date = new Date()): QuickChoice[] {
  const today = berlinToday(now);
  const morning = clock(workingHours.first);
  const choices: QuickChoice[] = [];
  if (Date.parse(berlinInstant(today, '16:00')) > now.getTime()) {
    choices.push({ label: 'Heute 16 Uhr', day: today, time: '16:00' });
  }
  choices.push(
    { label: 'Morgen 9 Uhr', day: addDays(today, 1), time: morning },
    { label: 'In 3 Tagen', day: addDays(today, 3), time: morning },
    { label: 'Nächste Woche', day: addDays(weekStart(today), 7), time: morning },
  );
  return choices;
}

/** The instant the follow-up is due (ISO) and the assignee (null for nobody). */
export function followUpDue(values: FollowUpFormValues): {
  dueAt: string;
  assignee: string | null;
} {
  return {
    dueAt: berlinInstant(values.day, values.time),
    assignee: values.assignee === '' ? null : values.assignee,
  };
}

/** The database's refusal of an assignee who is not (or no longer) enabled. */
export const assigneeRefused = 'Zuständig kann nur ein freigeschaltetes Konto sein.';

/** Why a follow-up was not saved, in German; the database's own German reasons pass through. */
export function followUpSaveProblem(error: unknown): string {
  const message =
    error instanceof Error || (error && typeof error === 'object' && 'message' in error)
      ? String((error as { message: unknown }).message)
      : '';
  if (message === assigneeRefused || message === 'Der Lead gehört nicht zu diesem Kunden.') {
    return message;
  }
  return 'Die Wiedervorlage wurde nicht gespeichert. Bitte versuche es erneut.';
}
