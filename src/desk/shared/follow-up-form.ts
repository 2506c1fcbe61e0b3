import { z } from 'zod';
import { berlinInstant, berlinTime, berlinToday, isCalendarDay } from '../../domain/calendar.ts';

// A follow-up as staff enter it: a day and a time on the clock in Berlin, an assignee (or
// nobody) and a short text. The database checks the same limits (body ≤ 500, an enabled
// assignee); these rules say it in German, at the field, before anything is sent.

export const followUpBodyMax = 500;

export const followUpFormSchema = z.object({
  day: z.string().refine((value) => isCalendarDay(value), { error: 'Bitte ein Datum wählen.' }),
  time: z
    .string()
    .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, { error: 'Bitte eine Uhrzeit wählen.' }),
  assignee: z.string(),
  body: z
    .string()
    .trim()
    .max(followUpBodyMax, { error: `Höchstens ${followUpBodyMax} Zeichen.` }),
});

export type FollowUpFormInput = z.input<typeof followUpFormSchema>;
export type FollowUpFormValues = z.output<typeof followUpFormSchema>;

/** A new follow-up's fields: for me, today, at the next full hour in Berlin. */
export function followUpDefaults(
  me: string | undefined,
  now: Date = new Date(),
): FollowUpFormInput {
  const nextHour = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000).toISOString();
  return {
    day: berlinToday(new Date(nextHour)),
    time: berlinTime(nextHour),
    assignee: me ?? '',
    body: '',
  };
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
