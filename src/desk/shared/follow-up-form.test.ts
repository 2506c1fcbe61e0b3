import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  followUpDefaults,
  followUpDue,
  followUpFormSchema,
  nextWorkingSlot,
  pastDayMessage,
  pastTimeMessage,
  quickChoices,
} from './follow-up-form.ts';

afterEach(() => vi.useRealTimers());

/** The schema's messages per field at `now` (the past is judged by the clock of the check). */
function problemsAt(now: string, values: { day: string; time: string }) {
  vi.useFakeTimers({ now: new Date(now), toFake: ['Date'] });
  const result = followUpFormSchema.safeParse({ ...values, assignee: '', body: '' });
  return result.success ? [] : result.error.issues.map((issue) => [issue.path[0], issue.message]);
}

describe('the follow-up form', () => {
  it('defaults to me, today at the next full hour in Berlin within working hours', () => {
    expect(followUpDefaults('me', new Date('2026-11-25T13:20:00Z'))).toEqual({
      day: '2026-11-25',
      time: '15:00',
      assignee: 'me',
      body: '',
    });
  });

  it('never defaults to the night or a weekend: the next working-hours slot', () => {
    // Tuesday 02:10 in Berlin (01:10 UTC): 9:00 the same morning, not 03:00.
    expect(nextWorkingSlot(new Date('2026-11-24T01:10:00Z'))).toEqual({
      day: '2026-11-24',
      time: '09:00',
    });
    // Tuesday 16:30: 17:00 is the last slot of the day.
    expect(nextWorkingSlot(new Date('2026-11-24T15:30:00Z'))).toEqual({
      day: '2026-11-24',
      time: '17:00',
    });
    // Tuesday 17:30 and 23:30: the next morning.
    expect(nextWorkingSlot(new Date('2026-11-24T16:30:00Z'))).toEqual({
      day: '2026-11-25',
      time: '09:00',
    });
    expect(nextWorkingSlot(new Date('2026-11-24T22:30:00Z'))).toEqual({
      day: '2026-11-25',
      time: '09:00',
    });
    // Friday evening and Saturday noon: Monday 9:00.
    expect(nextWorkingSlot(new Date('2026-11-27T18:00:00Z'))).toEqual({
      day: '2026-11-30',
      time: '09:00',
    });
    expect(nextWorkingSlot(new Date('2026-11-28T11:00:00Z'))).toEqual({
      day: '2026-11-30',
      time: '09:00',
    });
    // Summer time (UTC+2): Wednesday 10:05 in Berlin is 08:05 UTC, the slot 11:00.
    expect(nextWorkingSlot(new Date('2026-07-15T08:05:00Z'))).toEqual({
      day: '2026-07-15',
      time: '11:00',
    });
  });

  it('offers today 16:00 while it is ahead, tomorrow, in three days and next Monday', () => {
    // Wednesday 25 Nov 2026, 10:00 in Berlin.
    expect(quickChoices(new Date('2026-11-25T09:00:00Z'))).toEqual([
      { label: 'Heute 16 Uhr', day: '2026-11-25', time: '16:00' },
      { label: 'Morgen 9 Uhr', day: '2026-11-26', time: '09:00' },
      { label: 'In 3 Tagen', day: '2026-11-28', time: '09:00' },
      { label: 'Nächste Woche', day: '2026-11-30', time: '09:00' },
    ]);
    // 16:00 in Berlin has passed: not offered.
    expect(quickChoices(new Date('2026-11-25T15:00:00Z')).map((choice) => choice.label)).toEqual([
      'Morgen 9 Uhr',
      'In 3 Tagen',
      'Nächste Woche',
    ]);
    // On a Sunday 'Nächste Woche' is the next day, Monday.
    expect(quickChoices(new Date('2026-11-29T09:00:00Z')).at(-1)).toEqual({
      label: 'Nächste Woche',
      day: '2026-11-30',
      time: '09:00',
    });
  });

  it('refuses a day or a time already past, in German at that field', () => {
    const now = '2026-11-25T13:20:00Z'; // 14:20 in Berlin
    expect(problemsAt(now, { day: '2026-11-24', time: '18:00' })).toEqual([
      ['day', pastDayMessage],
    ]);
    expect(problemsAt(now, { day: '2026-11-25', time: '14:19' })).toEqual([
      ['time', pastTimeMessage],
    ]);
    // This minute and later pass.
    expect(problemsAt(now, { day: '2026-11-25', time: '14:20' })).toEqual([]);
    expect(problemsAt(now, { day: '2026-11-26', time: '08:00' })).toEqual([]);
    expect(pastDayMessage).toBe('Das Datum liegt in der Vergangenheit. Bitte ein späteres wählen.');
  });

  it('says in German what is missing or too long, at the field', () => {
    const result = followUpFormSchema.safeParse({
      day: '',
      time: '25:00',
      assignee: '',
      body: 'x'.repeat(501),
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['day', 'Bitte ein Datum wählen.'],
      ['time', 'Bitte eine Uhrzeit wählen.'],
      ['body', 'Höchstens 500 Zeichen.'],
    ]);
  });

  it('turns the Berlin day and time into the instant, nobody into null', () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z'), toFake: ['Date'] });
    const values = followUpFormSchema.parse({
      day: '2026-03-30',
      time: '08:00',
      assignee: '',
      body: ' Rückruf ',
    });
    expect(values.body).toBe('Rückruf');
    expect(followUpDue(values)).toEqual({ dueAt: '2026-03-30T06:00:00.000Z', assignee: null });
  });
});
