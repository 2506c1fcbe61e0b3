import { describe, expect, it } from 'vitest';
import { supportSchema } from './support-form.ts';

const valid = { name: 'Erika Mustermann', email: 'erika@example.de', message: 'Hallo' };

const errorsOf = (values: Record<string, string>) =>
  supportSchema.safeParse(values).error?.flatten().fieldErrors ?? {};

describe('supportSchema', () => {
  it('accepts the three fields, trimmed', () => {
    expect(supportSchema.parse({ ...valid, name: '  Erika  ' }).name).toBe('Erika');
  });

  it('names each missing field in German', () => {
    expect(errorsOf({ name: ' ', email: '', message: '' })).toEqual({
      name: ['Bitte gib deinen Namen ein.'],
      email: ['Bitte gib deine E-Mail-Adresse ein.', 'Bitte gib eine gültige E-Mail-Adresse ein.'],
      message: ['Bitte gib deine Nachricht ein.'],
    });
  });

  it('keeps within the limits the table checks', () => {
    expect(errorsOf({ ...valid, message: 'x'.repeat(5001) }).message).toEqual([
      'Die Nachricht darf höchstens 5000 Zeichen lang sein.',
    ]);
    expect(errorsOf({ ...valid, email: 'keine-adresse' }).email).toEqual([
      'Bitte gib eine gültige E-Mail-Adresse ein.',
    ]);
  });
});
