import { describe, expect, it } from 'vitest';
import { followUpDefaults, followUpDue, followUpFormSchema } from './follow-up-form.ts';

describe('the follow-up form', () => {
  it('defaults to me, today at the next full hour in Berlin', () => {
    expect(followUpDefaults('me', new Date('2026-11-25T13:20:00Z'))).toEqual({
      day: '2026-11-25',
      time: '15:00',
      assignee: 'me',
      body: '',
    });
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
