// What the forms share: messages, e-mail, names and phone numbers, and blank empty forms.
import { describe, expect, it } from 'vitest';
import {
  createContactRequestSchema,
  emailSchema,
  emptyContactRequest,
  emptyKfzRequest,
  emptyQuestionnaireContact,
  isValidPhone,
  kfzRequestSchema,
  personNameSchema,
  phoneSchema,
  questionnaireContactSchema,
} from './contact-forms.ts';
import { errorsOf } from './contact-forms.test-support.ts';
import { messages } from './messages.ts';

describe('messages', () => {
  it('uses the non-breaking hyphen (U+2011) of the spec in the e-mail messages', () => {
    expect(messages.emailRequired).toBe('E\u2011Mail ist erforderlich.');
    expect(messages.emailInvalid).toBe('Bitte eine gültige E\u2011Mail-Adresse eingeben.');
  });

  it('has no empty message', () => {
    for (const message of Object.values(messages)) expect(message.trim()).not.toBe('');
  });
});

describe('emailSchema', () => {
  it('normalizes a valid address', () => {
    expect(emailSchema.parse('  Erika@Example.DE ')).toBe('erika@example.de');
  });

  it.each(['', '   '])('reports only "required" for %j', (value) => {
    expect(errorsOf(emailSchema, value)).toEqual({ '': [messages.emailRequired] });
  });

  it('reports "required" for a missing value', () => {
    expect(errorsOf(emailSchema, undefined)).toEqual({ '': [messages.emailRequired] });
  });

  it.each(['erika', 'erika@', '@example.de', 'erika@example', 'erika@example.d', 'a@b@c.de'])(
    'reports only "invalid" for %j',
    (value) => {
      expect(errorsOf(emailSchema, value)).toEqual({ '': [messages.emailInvalid] });
    },
  );
});

describe('personNameSchema', () => {
  const schema = personNameSchema('first_name', 'falsch');

  it.each([
    'Jörg',
    'Müller',
    'Weiß',
    'Özil',
    'Hans-Peter',
    'Maria Luisa',
    "O'Brien",
    'D’Angelo',
    'Li',
    'Ng',
    'Ab',
    'José',
    'Øyvind',
    'Zoë',
    'Łukasz',
    'Xaver',
    'Maxx',
  ])('accepts %j', (name) => {
    expect(schema.safeParse(name).success).toBe(true);
  });

  it('trims the name', () => {
    expect(schema.parse('  Anna  ')).toBe('Anna');
  });

  it('composes decomposed umlauts (NFC)', () => {
    expect(schema.parse('Mu\u0308ller')).toBe('Müller');
  });

  it.each([
    ['empty', ''],
    ['whitespace only', '   '],
    ['a single letter', 'a'],
    ['a single letter after trimming', ' a '],
    ['one repeated letter', 'aa'],
    ['one repeated letter, upper case', 'AAA'],
    ['one repeated letter, mixed case', 'Aa'],
    ['one repeated umlaut', 'Ää'],
    ['one repeated letter with a space', 'a a'],
    ['one repeated letter with a hyphen', 'A-a'],
    ['only x', 'xx'],
    ['only x, mixed case', 'xX'],
    ['only x and spaces', 'x x'],
    ['only x and spaces, mixed case', 'X x'],
    ['a digit', '1a'],
    ['digits in a name', 'Max1'],
    ['an underscore', 'a_b'],
    ['a dot', 'Max.'],
    ['only separators', "-'"],
    ['only hyphens', '--'],
    ['an emoji', 'Max🙂'],
  ])('rejects %s (%j)', (_, name) => {
    expect(errorsOf(schema, name)).toEqual({ '': ['falsch'] });
  });

  it('reports its message for a missing value', () => {
    expect(errorsOf(schema, undefined)).toEqual({ '': ['falsch'] });
  });
});

describe('isValidPhone (KFZ and contact page)', () => {
  it.each([
    '123456',
    '+12345',
    '030/123456',
    '030-123456',
    '0171 1234567',
    '+49 171 1234567',
    '+49 0171 123456',
    '089/123-45 67',
  ])('accepts %j', (phone) => {
    expect(isValidPhone(phone)).toBe(true);
  });

  it.each([
    ['five digits', '12345'],
    ['a plus and four digits', '+1234'],
    ['empty', ''],
    ['separators only', '------'],
    ['a leading separator', '/123456'],
    ['a trailing separator', '123456-'],
    ['a space after the plus', '+ 49 171 123'],
    ['a plus inside', '49+171123'],
    ['two pluses', '++49171123'],
    ['letters', '0171abcdef'],
    ['brackets', '(030) 123456'],
    ['a dot', '030.123456'],
  ])('rejects %s (%j)', (_, phone) => {
    expect(isValidPhone(phone)).toBe(false);
  });

  it('counts the trimmed value in phoneSchema', () => {
    expect(phoneSchema.parse(' 123456 ')).toBe('123456');
    expect(errorsOf(phoneSchema, ' 12345 ')).toEqual({ '': [messages.phoneInvalid] });
  });
});

describe('empty forms', () => {
  it.each([
    ['questionnaire', emptyQuestionnaireContact, questionnaireContactSchema, []],
    ['kfz', emptyKfzRequest, kfzRequestSchema, ['offer_info']],
    ['contact', emptyContactRequest, createContactRequestSchema(() => new Date()), ['offer_info']],
  ])('%s: every text empty, every box unticked, every field but %j', (_, empty, schema, left) => {
    for (const value of Object.values(empty)) expect(['', false]).toContain(value);
    expect(Object.keys(schema.shape).filter((field) => !(field in empty))).toEqual(left);
  });
});
