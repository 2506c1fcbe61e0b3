import { describe, expect, it } from 'vitest';
import { senderName, supportSchema } from './support-form.ts';

const errorsOf = (values: Record<string, string>) =>
  supportSchema.safeParse(values).error?.flatten().fieldErrors ?? {};

describe('supportSchema', () => {
  it('takes the message, trimmed; name and address are the account’s, not typed', () => {
    expect(supportSchema.parse({ message: '  Hallo  ', name: 'Admin' })).toEqual({
      message: 'Hallo',
    });
  });

  it('asks for the message in German', () => {
    expect(errorsOf({ message: ' ' })).toEqual({ message: ['Bitte gib deine Nachricht ein.'] });
  });

  it('keeps within the limits the table checks', () => {
    expect(errorsOf({ message: 'x'.repeat(5001) }).message).toEqual([
      'Die Nachricht darf höchstens 5000 Zeichen lang sein.',
    ]);
  });
});

describe('senderName', () => {
  it('is the display name, else the address', () => {
    expect(senderName('Mia Mitarbeiterin', 'mia@example.de')).toBe('Mia Mitarbeiterin');
    expect(senderName(null, 'mia@example.de')).toBe('mia@example.de');
    expect(senderName('  ', 'mia@example.de')).toBe('mia@example.de');
  });
});
