// Names on every form (issue 32, item 5): a visitor's name is a name on the questionnaire, the
// KFZ callback, the contact page and in the desk's customer form, never a line break, a link or
// an address; the spec's messages stay where the spec names a case, new ones say what is wrong.
import { describe, expect, it } from 'vitest';
import { customerFieldSchema } from './customer-fields.ts';
import {
  contactLimits,
  createContactRequestSchema,
  isName,
  kfzRequestSchema,
  questionnaireContactSchema,
} from './contact-forms.ts';
import {
  day,
  errorsOf,
  validContact,
  validKfz,
  validQuestionnaire,
} from './contact-forms.test-support.ts';
import { messages } from './messages.ts';

const contactSchema = createContactRequestSchema(() => day(2026, 11, 28));

/** Item 5's attack: a name that writes a forged line and link into the new-lead mail. */
const forgedLine = 'Erika\nIm Survey Desk ansehen: https://evil.example/x';

const notNames = [
  forgedLine,
  'Erika\r\nMuster',
  'Erika\u2028Muster',
  'Erika\tMuster',
  'Eri\u0000ka',
  'Eri\u202eka',
  'Erika\u00a0Muster',
  'https://evil.example/x',
  'evil.example',
  'www.evil.de',
  'Erika evil.example',
  'erika@example.de',
  'Erika 2',
  'R2-D2',
  'Erika <b>',
  'Erika (Büro)',
  '.Anna',
  'Anna..',
  "-'.",
  'evil。example',
];

const names = [
  'Erika',
  'Jörg',
  'Weiß',
  'José María',
  'Hans-Peter',
  "O'Brien",
  'D’Angelo',
  'Dr. Anna',
  'J. R. R.',
  'Dr.-Ing. Hans',
  'Zoë',
  'Łukasz',
  'Ngô Bảo Châu',
  'Ólafur',
];

describe('isName', () => {
  it.each(names)('takes %j', (name) => {
    expect(isName(name)).toBe(true);
  });

  it.each(notNames)('refuses %j', (name) => {
    expect(isName(name)).toBe(false);
  });
});

describe('the questionnaire contact step', () => {
  it.each(notNames)('refuses %j as first and last name with the field’s own message', (name) => {
    expect(
      errorsOf(questionnaireContactSchema, {
        ...validQuestionnaire,
        first_name: name,
        last_name: name,
      }),
    ).toEqual({
      first_name: [messages.firstNameNotAName],
      last_name: [messages.lastNameNotAName],
    });
  });

  it.each(names)('takes %j', (name) => {
    expect(
      errorsOf(questionnaireContactSchema, { ...validQuestionnaire, first_name: name }),
    ).toEqual({});
  });

  it('keeps the spec’s message for an empty name', () => {
    expect(
      errorsOf(questionnaireContactSchema, { ...validQuestionnaire, first_name: ' \n ' }),
    ).toEqual({ first_name: [messages.firstNameRequired] });
  });

  it('takes 100 characters and refuses 101, counted as a person counts them', () => {
    const long = 'Ä'.repeat(contactLimits.nameMaxLength);
    expect(
      errorsOf(questionnaireContactSchema, { ...validQuestionnaire, last_name: long }),
    ).toEqual({});
    expect(
      errorsOf(questionnaireContactSchema, { ...validQuestionnaire, last_name: `${long}a` }),
    ).toEqual({ last_name: [messages.lastNameTooLong] });
  });
});

describe.each([
  ['KFZ callback', kfzRequestSchema, validKfz],
  ['contact page', contactSchema, validContact],
] as const)('the %s form', (_form, schema, valid) => {
  it.each(notNames)('refuses %j with the spec’s messages', (name) => {
    expect(errorsOf(schema, { ...valid, first_name: name, last_name: name })).toEqual({
      first_name: [messages.firstNameInvalid],
      last_name: [messages.lastNameInvalid],
    });
  });

  it('refuses a name longer than 100 characters with its own message', () => {
    const long = `${'Anna'.repeat(25)}a`;
    expect(errorsOf(schema, { ...valid, first_name: long, last_name: long })).toEqual({
      first_name: [messages.firstNameTooLong],
      last_name: [messages.lastNameTooLong],
    });
  });
});

describe('the desk’s customer form', () => {
  it.each(notNames)('refuses %j with the message that says why', (name) => {
    expect(
      errorsOf(customerFieldSchema('first_name', { optional: false, stored: 'Erika' }), name),
    ).toEqual({ '': [messages.firstNameNotAName] });
    expect(
      errorsOf(customerFieldSchema('last_name', { optional: false, stored: 'Muster' }), name),
    ).toEqual({ '': [messages.lastNameNotAName] });
  });

  it('keeps “required” for an empty name and takes what a public form takes', () => {
    expect(errorsOf(customerFieldSchema('first_name', { optional: false }), ' ')).toEqual({
      '': [messages.firstNameRequired],
    });
    for (const name of names)
      expect(customerFieldSchema('last_name', { optional: false }).safeParse(name).success).toBe(
        true,
      );
  });
});
