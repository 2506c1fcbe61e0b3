import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  birthdateBounds,
  birthdateProblem,
  callTimes,
  createContactRequestSchema,
  emailSchema,
  isValidPhone,
  kfzRequestSchema,
  personNameSchema,
  phoneSchema,
  questionnaireContactSchema,
  salutations,
} from './contact-forms.ts';
import type {
  CallTime,
  ContactRequest,
  ContactRequestInput,
  KfzRequest,
  KfzRequestInput,
  QuestionnaireContact,
  QuestionnaireContactInput,
  Salutation,
} from './contact-forms.ts';
import { messages } from './messages.ts';

/** Messages grouped by the field they are shown under, as a form resolver sees them. */
function errorsOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.');
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** A fixed local calendar day, whatever the time zone the tests run in. */
const day = (year: number, month: number, date: number, hours = 12) =>
  new Date(year, month - 1, date, hours);

const today = day(2026, 3, 15);
const contactSchema = createContactRequestSchema(() => today);

const validQuestionnaire = {
  first_name: 'Erika',
  last_name: 'Mustermann',
  adress: 'Hauptstraße 5',
  postcode: '10115',
  city: 'Berlin',
  phone: '+49 30 1234567',
  email: 'erika@example.de',
  offer_info: false,
  terms_accepted: true,
  data_processing_consent: true,
};

const validKfz = {
  first_name: 'Erika',
  last_name: 'Mustermann',
  email: 'erika@example.de',
  phone: '030/123456',
  call_time: 'Morgens',
  data_processing_consent: true,
  terms_accepted: true,
};

const validContact = {
  salutation: 'Frau',
  title: 'Dr.',
  birthdate: '1980-05-20',
  first_name: 'Erika',
  last_name: 'Mustermann',
  adress: 'Hauptstraße 5',
  postcode: '10115',
  city: 'Berlin',
  email: 'erika@example.de',
  phone: '+49 30 1234567',
  call_time: 'Abends',
  existing_customer: true,
  message: 'Bitte rufen Sie mich an.',
  data_processing_consent: true,
  terms_accepted: true,
};

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
  const schema = personNameSchema('falsch');

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

describe('questionnaireContactSchema', () => {
  it('accepts a complete contact and trims and normalizes it', () => {
    const result = questionnaireContactSchema.parse({
      ...validQuestionnaire,
      first_name: ' Erika ',
      postcode: ' 10115 ',
      email: ' Erika@Example.DE ',
    });
    expect(result).toEqual({ ...validQuestionnaire, email: 'erika@example.de' });
  });

  it('defaults offer_info to false and keeps true', () => {
    const { offer_info: _, ...withoutOffer } = validQuestionnaire;
    expect(questionnaireContactSchema.parse(withoutOffer).offer_info).toBe(false);
    expect(
      questionnaireContactSchema.parse({ ...validQuestionnaire, offer_info: true }).offer_info,
    ).toBe(true);
  });

  it('drops fields it does not know', () => {
    const result = questionnaireContactSchema.parse({ ...validQuestionnaire, extra: 'x' });
    expect(result).not.toHaveProperty('extra');
  });

  const emptyFormErrors = {
    first_name: [messages.firstNameRequired],
    last_name: [messages.lastNameRequired],
    adress: [messages.adressRequired],
    postcode: [messages.postcodeRequired],
    city: [messages.cityRequired],
    phone: [messages.phoneRequired],
    email: [messages.emailRequired],
    terms_accepted: [messages.acceptRequired],
    data_processing_consent: [messages.acceptRequired],
  };

  it('gives exactly one required message per field for an empty form', () => {
    const empty = {
      first_name: '',
      last_name: '',
      adress: '',
      postcode: '',
      city: '',
      phone: '',
      email: '',
      offer_info: false,
      terms_accepted: false,
      data_processing_consent: false,
    };
    expect(errorsOf(questionnaireContactSchema, empty)).toEqual(emptyFormErrors);
  });

  it('gives the same messages when the fields are missing', () => {
    expect(errorsOf(questionnaireContactSchema, {})).toEqual(emptyFormErrors);
  });

  it('treats whitespace-only text as empty', () => {
    const blank = Object.fromEntries(
      ['first_name', 'last_name', 'adress', 'postcode', 'city', 'phone', 'email'].map((field) => [
        field,
        '   ',
      ]),
    );
    const { terms_accepted: _t, data_processing_consent: _d, ...textErrors } = emptyFormErrors;
    expect(errorsOf(questionnaireContactSchema, { ...validQuestionnaire, ...blank })).toEqual(
      textErrors,
    );
  });

  describe('postcode', () => {
    it.each(['12345', '01067'])('accepts %j', (postcode) => {
      expect(errorsOf(questionnaireContactSchema, { ...validQuestionnaire, postcode })).toEqual({});
    });

    it.each(['1234', '123456', '12a45', '12 345', 'abcde'])(
      'rejects %j with the invalid message only',
      (postcode) => {
        expect(errorsOf(questionnaireContactSchema, { ...validQuestionnaire, postcode })).toEqual({
          postcode: [messages.postcodeInvalid],
        });
      },
    );
  });

  describe('phone', () => {
    it.each(['+49 30 1234567', '0301234567', '1', '+1', '030 12 34'])('accepts %j', (phone) => {
      expect(errorsOf(questionnaireContactSchema, { ...validQuestionnaire, phone })).toEqual({});
    });

    it.each(['+', '030/123456', '030-123456', '++49', '49+1', '0171abc', '(030) 1234'])(
      'rejects %j with the invalid message only',
      (phone) => {
        expect(errorsOf(questionnaireContactSchema, { ...validQuestionnaire, phone })).toEqual({
          phone: [messages.phoneInvalid],
        });
      },
    );
  });

  describe('email', () => {
    it('reports exactly one issue for an empty e-mail', () => {
      const result = questionnaireContactSchema.safeParse({ ...validQuestionnaire, email: '' });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toHaveLength(1);
      expect(result.error?.issues[0]).toMatchObject({
        path: ['email'],
        message: messages.emailRequired,
      });
    });

    it('reports the invalid message for a failing address', () => {
      expect(
        errorsOf(questionnaireContactSchema, { ...validQuestionnaire, email: 'erika@example' }),
      ).toEqual({ email: [messages.emailInvalid] });
    });
  });

  it.each(['terms_accepted', 'data_processing_consent'])('requires %s to be ticked', (field) => {
    expect(errorsOf(questionnaireContactSchema, { ...validQuestionnaire, [field]: false })).toEqual(
      { [field]: [messages.acceptRequired] },
    );
  });

  it('allows first name, last name, address and city without a pattern', () => {
    const loose = {
      first_name: 'X',
      last_name: 'Æ-12',
      adress: 'c/o Firma, 3/1',
      city: 'St. Ingbert',
    };
    expect(errorsOf(questionnaireContactSchema, { ...validQuestionnaire, ...loose })).toEqual({});
  });
});

describe('kfzRequestSchema', () => {
  it('accepts a complete request and normalizes it', () => {
    const result = kfzRequestSchema.parse({
      ...validKfz,
      first_name: ' Jörg ',
      email: ' Erika@Example.DE',
    });
    expect(result).toEqual({
      ...validKfz,
      first_name: 'Jörg',
      email: 'erika@example.de',
      offer_info: true,
    });
  });

  it('defaults call_time to empty and offer_info to true', () => {
    const { call_time: _, ...withoutCallTime } = validKfz;
    const result = kfzRequestSchema.parse(withoutCallTime);
    expect(result.call_time).toBe('');
    expect(result.offer_info).toBe(true);
  });

  const emptyFormErrors = {
    first_name: [messages.firstNameInvalid],
    last_name: [messages.lastNameInvalid],
    email: [messages.emailRequired],
    phone: [messages.phoneInvalid],
    data_processing_consent: [messages.privacyConsentRequired],
    terms_accepted: [messages.termsRequired],
  };

  it('gives exactly the spec messages for an empty form', () => {
    const empty = {
      first_name: '',
      last_name: '',
      email: '',
      phone: '',
      call_time: '',
      data_processing_consent: false,
      terms_accepted: false,
    };
    expect(errorsOf(kfzRequestSchema, empty)).toEqual(emptyFormErrors);
  });

  it('gives the same messages when the fields are missing', () => {
    expect(errorsOf(kfzRequestSchema, {})).toEqual(emptyFormErrors);
  });

  it('ties each name message to its own field', () => {
    expect(errorsOf(kfzRequestSchema, { ...validKfz, first_name: 'xx' })).toEqual({
      first_name: [messages.firstNameInvalid],
    });
    expect(errorsOf(kfzRequestSchema, { ...validKfz, last_name: 'a' })).toEqual({
      last_name: [messages.lastNameInvalid],
    });
  });

  it('accepts names with umlauts, ß, hyphen, space and apostrophes', () => {
    const names = { first_name: 'Hans-Jürgen', last_name: "von Weiß-O'Neill D’Arco" };
    expect(errorsOf(kfzRequestSchema, { ...validKfz, ...names })).toEqual({});
  });

  it('rejects a five-character phone and accepts six', () => {
    expect(errorsOf(kfzRequestSchema, { ...validKfz, phone: '12345' })).toEqual({
      phone: [messages.phoneInvalid],
    });
    expect(errorsOf(kfzRequestSchema, { ...validKfz, phone: '123456' })).toEqual({});
  });

  it('accepts a phone with plus, slash and hyphen', () => {
    expect(errorsOf(kfzRequestSchema, { ...validKfz, phone: '+49 89/123-456' })).toEqual({});
  });

  it.each(['', ...callTimes])('accepts the call time %j', (callTime) => {
    expect(errorsOf(kfzRequestSchema, { ...validKfz, call_time: callTime })).toEqual({});
  });

  it.each(['Nachts', 'morgens', ' Morgens', 42])('rejects the call time %j', (callTime) => {
    expect(errorsOf(kfzRequestSchema, { ...validKfz, call_time: callTime })).toEqual({
      call_time: [messages.callTimeInvalid],
    });
  });

  it('requires both consents with their own messages', () => {
    expect(
      errorsOf(kfzRequestSchema, {
        ...validKfz,
        data_processing_consent: false,
        terms_accepted: false,
      }),
    ).toEqual({
      data_processing_consent: [messages.privacyConsentRequired],
      terms_accepted: [messages.termsRequired],
    });
  });

  it('reports exactly one issue for an empty e-mail', () => {
    expect(errorsOf(kfzRequestSchema, { ...validKfz, email: '' })).toEqual({
      email: [messages.emailRequired],
    });
  });

  it('reports the invalid message for a failing e-mail', () => {
    expect(errorsOf(kfzRequestSchema, { ...validKfz, email: 'erika@@example.de' })).toEqual({
      email: [messages.emailInvalid],
    });
  });
});

describe('createContactRequestSchema', () => {
  it('accepts a complete request', () => {
    expect(contactSchema.parse(validContact)).toEqual({ ...validContact, offer_info: true });
  });

  it('fills optional fields with empty values', () => {
    const minimal = {
      birthdate: '1980-05-20',
      first_name: 'Erika',
      last_name: 'Mustermann',
      email: 'erika@example.de',
      phone: '030 123456',
      data_processing_consent: true,
      terms_accepted: true,
    };
    expect(contactSchema.parse(minimal)).toEqual({
      ...minimal,
      salutation: '',
      title: '',
      adress: '',
      postcode: '',
      city: '',
      call_time: '',
      message: '',
      offer_info: true,
    });
  });

  const emptyFormErrors = {
    birthdate: [messages.birthdateRequired],
    first_name: [messages.firstNameInvalid],
    last_name: [messages.lastNameInvalid],
    email: [messages.emailRequired],
    phone: [messages.phoneInvalid],
    data_processing_consent: [messages.privacyConsentRequired],
    terms_accepted: [messages.termsRequired],
  };

  it('gives exactly the spec messages for an empty form', () => {
    const empty = {
      salutation: '',
      title: '',
      birthdate: '',
      first_name: '',
      last_name: '',
      adress: '',
      postcode: '',
      city: '',
      email: '',
      phone: '',
      call_time: '',
      existing_customer: false,
      message: '',
      data_processing_consent: false,
      terms_accepted: false,
    };
    expect(errorsOf(contactSchema, empty)).toEqual(emptyFormErrors);
  });

  it('gives the same messages when the fields are missing', () => {
    expect(errorsOf(contactSchema, {})).toEqual(emptyFormErrors);
  });

  describe('salutation', () => {
    it.each(['', ...salutations])('accepts %j', (salutation) => {
      expect(errorsOf(contactSchema, { ...validContact, salutation })).toEqual({});
    });

    it.each(['Dr.', 'herr'])('rejects %j', (salutation) => {
      expect(errorsOf(contactSchema, { ...validContact, salutation })).toEqual({
        salutation: [messages.salutationInvalid],
      });
    });
  });

  describe('title', () => {
    it('accepts 40 characters and rejects 41', () => {
      expect(errorsOf(contactSchema, { ...validContact, title: 'T'.repeat(40) })).toEqual({});
      expect(errorsOf(contactSchema, { ...validContact, title: 'T'.repeat(41) })).toEqual({
        title: [messages.titleTooLong],
      });
    });

    it('measures the trimmed title', () => {
      expect(contactSchema.parse({ ...validContact, title: `  ${'T'.repeat(40)}  ` }).title).toBe(
        'T'.repeat(40),
      );
    });
  });

  describe('message', () => {
    it('accepts 5000 characters and rejects 5001', () => {
      expect(errorsOf(contactSchema, { ...validContact, message: 'm'.repeat(5000) })).toEqual({});
      expect(errorsOf(contactSchema, { ...validContact, message: 'm'.repeat(5001) })).toEqual({
        message: [messages.messageTooLong],
      });
    });
  });

  describe('existing_customer', () => {
    it.each([true, false, undefined])('accepts %j', (existingCustomer) => {
      const result = contactSchema.parse({ ...validContact, existing_customer: existingCustomer });
      expect(result.existing_customer).toBe(existingCustomer);
    });

    it('rejects a non-boolean', () => {
      expect(errorsOf(contactSchema, { ...validContact, existing_customer: 'ja' })).toEqual({
        existing_customer: [messages.invalidValue],
      });
    });
  });

  it('takes the name rule and messages of the KFZ form', () => {
    expect(
      errorsOf(contactSchema, { ...validContact, first_name: 'x x', last_name: 'a_b' }),
    ).toEqual({ first_name: [messages.firstNameInvalid], last_name: [messages.lastNameInvalid] });
  });

  it('takes the phone rule and message of the KFZ form', () => {
    expect(errorsOf(contactSchema, { ...validContact, phone: '12345' })).toEqual({
      phone: [messages.phoneInvalid],
    });
    expect(errorsOf(contactSchema, { ...validContact, phone: '+12345' })).toEqual({});
  });

  it('takes the call times of the KFZ form', () => {
    expect(errorsOf(contactSchema, { ...validContact, call_time: 'Nachts' })).toEqual({
      call_time: [messages.callTimeInvalid],
    });
  });

  it('reports exactly one issue for an empty e-mail and the invalid message otherwise', () => {
    expect(errorsOf(contactSchema, { ...validContact, email: ' ' })).toEqual({
      email: [messages.emailRequired],
    });
    expect(errorsOf(contactSchema, { ...validContact, email: 'erika@example.c' })).toEqual({
      email: [messages.emailInvalid],
    });
  });

  it('requires both consents with their own messages', () => {
    expect(
      errorsOf(contactSchema, {
        ...validContact,
        data_processing_consent: false,
        terms_accepted: false,
      }),
    ).toEqual({
      data_processing_consent: [messages.privacyConsentRequired],
      terms_accepted: [messages.termsRequired],
    });
  });

  it('keeps offer_info true by default', () => {
    expect(contactSchema.parse(validContact).offer_info).toBe(true);
  });

  describe('adress (optional)', () => {
    it.each(['', '   ', 'Hauptstraße 12', 'Str. 5', 'Am Rain 3-5', 'Weg', 'Ölmühlenweg 1a'])(
      'accepts %j',
      (adress) => {
        expect(errorsOf(contactSchema, { ...validContact, adress })).toEqual({});
      },
    );

    it.each(['Ab', 'A1', 'Musterweg 3/1', 'Hauptstr. 5, Hinterhaus', 'Weg_1', '#12'])(
      'rejects %j',
      (adress) => {
        expect(errorsOf(contactSchema, { ...validContact, adress })).toEqual({
          adress: [messages.adressInvalid],
        });
      },
    );
  });

  describe('postcode (optional)', () => {
    it.each(['', '  ', '12345', '01067'])('accepts %j', (postcode) => {
      expect(errorsOf(contactSchema, { ...validContact, postcode })).toEqual({});
    });

    it.each(['1234', '123456', 'abcde', '12 34'])('rejects %j', (postcode) => {
      expect(errorsOf(contactSchema, { ...validContact, postcode })).toEqual({
        postcode: [messages.postcodeInvalid],
      });
    });
  });

  describe('city (optional)', () => {
    it.each([
      '',
      'München',
      'Frankfurt am Main',
      'Garmisch-Partenkirchen',
      'Ulm',
      'Au',
      'Weißenfels',
    ])('accepts %j', (city) => {
      expect(errorsOf(contactSchema, { ...validContact, city })).toEqual({});
    });

    it.each(['A', 'Berlin 1', 'St. Ingbert', 'Halle (Saale)', "L'Aquila"])('rejects %j', (city) => {
      expect(errorsOf(contactSchema, { ...validContact, city })).toEqual({
        city: [messages.cityInvalid],
      });
    });
  });

  describe('birthdate (today is 2026-03-15)', () => {
    const birthdateErrors = (birthdate: unknown, schema = contactSchema) =>
      errorsOf(schema, { ...validContact, birthdate });

    it.each(['', '   ', undefined])('requires a value (%j)', (birthdate) => {
      expect(birthdateErrors(birthdate)).toEqual({ birthdate: [messages.birthdateRequired] });
    });

    it.each([
      ['an impossible day', '2023-02-30'],
      ['29 February in a common year', '2001-02-29'],
      ['day 0', '2000-01-00'],
      ['day 32', '2000-01-32'],
      ['month 0', '2000-00-10'],
      ['month 13', '2000-13-10'],
      ['a German date', '15.03.2000'],
      ['no zero padding', '2000-3-5'],
      ['a timestamp', '2000-03-05T00:00:00Z'],
      ['text', 'gestern'],
    ])('rejects %s (%j) as invalid', (_, birthdate) => {
      expect(birthdateErrors(birthdate)).toEqual({ birthdate: [messages.birthdateInvalid] });
    });

    it('accepts 29 February in a leap year', () => {
      expect(birthdateErrors('2000-02-29')).toEqual({});
    });

    it('trims the value', () => {
      expect(contactSchema.parse({ ...validContact, birthdate: ' 1980-05-20 ' }).birthdate).toBe(
        '1980-05-20',
      );
    });

    it('rejects tomorrow as in the future, and only that', () => {
      expect(birthdateErrors('2026-03-16')).toEqual({ birthdate: [messages.birthdateInFuture] });
      expect(birthdateErrors('2100-01-01')).toEqual({ birthdate: [messages.birthdateInFuture] });
    });

    it('treats today as not in the future but under age', () => {
      expect(birthdateErrors('2026-03-15')).toEqual({ birthdate: [messages.birthdateUnderage] });
    });

    it('accepts someone whose 18th birthday is today and rejects one a day younger', () => {
      expect(birthdateErrors('2008-03-15')).toEqual({});
      expect(birthdateErrors('2008-03-16')).toEqual({ birthdate: [messages.birthdateUnderage] });
    });

    it('accepts someone born exactly 120 years ago and rejects one a day older', () => {
      expect(birthdateErrors('1906-03-15')).toEqual({});
      expect(birthdateErrors('1906-03-14')).toEqual({ birthdate: [messages.birthdateImplausible] });
      expect(birthdateErrors('0001-01-01')).toEqual({ birthdate: [messages.birthdateImplausible] });
    });

    it('judges by the calendar day whatever the time of day', () => {
      for (const hours of [0, 23]) {
        const schema = createContactRequestSchema(() => day(2026, 3, 15, hours));
        expect(birthdateErrors('2008-03-15', schema)).toEqual({});
        expect(birthdateErrors('2008-03-16', schema)).toEqual({
          birthdate: [messages.birthdateUnderage],
        });
      }
    });

    it('reads the clock at every parse', () => {
      let now = day(2026, 3, 14);
      const schema = createContactRequestSchema(() => now);
      expect(birthdateErrors('2008-03-15', schema)).toEqual({
        birthdate: [messages.birthdateUnderage],
      });
      now = day(2026, 3, 15);
      expect(birthdateErrors('2008-03-15', schema)).toEqual({});
    });

    describe('leap days', () => {
      const on = (year: number, month: number, date: number) =>
        createContactRequestSchema(() => day(year, month, date));

      it('makes someone born on 29 February 18 on 1 March of a common year', () => {
        expect(birthdateErrors('2008-02-29', on(2026, 2, 28))).toEqual({
          birthdate: [messages.birthdateUnderage],
        });
        expect(birthdateErrors('2008-02-29', on(2026, 3, 1))).toEqual({});
      });

      it('on 29 February counts the 18th birthday from 28 February of a common year', () => {
        const schema = on(2028, 2, 29);
        expect(birthdateErrors('2010-02-28', schema)).toEqual({});
        expect(birthdateErrors('2010-03-01', schema)).toEqual({
          birthdate: [messages.birthdateUnderage],
        });
      });

      it('on 29 February keeps 29 February as the 120-year limit in a leap year', () => {
        const schema = on(2028, 2, 29);
        expect(birthdateErrors('1908-02-29', schema)).toEqual({});
        expect(birthdateErrors('1908-02-28', schema)).toEqual({
          birthdate: [messages.birthdateImplausible],
        });
      });

      it('on 29 February moves the 120-year limit to 28 February of a common year', () => {
        const schema = on(2020, 2, 29);
        expect(birthdateErrors('1900-02-28', schema)).toEqual({});
        expect(birthdateErrors('1900-02-27', schema)).toEqual({
          birthdate: [messages.birthdateImplausible],
        });
      });
    });
  });
});

describe('birthdateProblem', () => {
  it.each([
    ['', messages.birthdateRequired],
    ['2023-02-30', messages.birthdateInvalid],
    ['2026-03-16', messages.birthdateInFuture],
    ['1906-03-14', messages.birthdateImplausible],
    ['2008-03-16', messages.birthdateUnderage],
    ['2008-03-15', undefined],
    ['1906-03-15', undefined],
  ])('gives %j the message %j', (value, message) => {
    expect(birthdateProblem(value, today)).toBe(message);
  });
});

describe('birthdateBounds', () => {
  it('gives the youngest adult as max and the oldest plausible birthdate as min', () => {
    expect(birthdateBounds(today)).toEqual({ min: '1906-03-15', max: '2008-03-15' });
  });

  it('uses the local calendar day whatever the time of day', () => {
    expect(birthdateBounds(day(2026, 3, 15, 0))).toEqual({ min: '1906-03-15', max: '2008-03-15' });
    expect(birthdateBounds(new Date(2026, 2, 15, 23, 59, 59, 999))).toEqual({
      min: '1906-03-15',
      max: '2008-03-15',
    });
  });

  it('handles the turn of the year', () => {
    expect(birthdateBounds(day(2026, 1, 1))).toEqual({ min: '1906-01-01', max: '2008-01-01' });
    expect(birthdateBounds(day(2025, 12, 31))).toEqual({ min: '1905-12-31', max: '2007-12-31' });
  });

  it('moves 29 February to 28 February in a common target year', () => {
    expect(birthdateBounds(day(2028, 2, 29))).toEqual({ min: '1908-02-29', max: '2010-02-28' });
    expect(birthdateBounds(day(2020, 2, 29))).toEqual({ min: '1900-02-28', max: '2002-02-28' });
  });

  it('agrees with the schema at both ends', () => {
    const { min, max } = birthdateBounds(today);
    expect(birthdateProblem(min, today)).toBeUndefined();
    expect(birthdateProblem(max, today)).toBeUndefined();
  });
});

describe('one message per field', () => {
  const required = ['', '   ', 5, null];
  const name = [...required, 'a', 'xx', '1a', 'a_b'];
  const email = [...required, 'a', '@', 'a@b', 'a@@b.de'];
  const phone = [...required, '+', '12', 'abc'];
  const consent = [false, 'ja', null];

  const cases: [string, z.ZodType, Record<string, unknown>, Record<string, unknown[]>][] = [
    [
      'questionnaire',
      questionnaireContactSchema,
      validQuestionnaire,
      {
        first_name: required,
        last_name: required,
        adress: required,
        postcode: [...required, '1', 'abcdef'],
        city: required,
        phone: [...required, '+', '030/123'],
        email,
        terms_accepted: consent,
        data_processing_consent: consent,
      },
    ],
    [
      'kfz',
      kfzRequestSchema,
      validKfz,
      {
        first_name: name,
        last_name: name,
        email,
        phone,
        call_time: ['x', null],
        terms_accepted: consent,
        data_processing_consent: consent,
      },
    ],
    [
      'contact',
      contactSchema,
      validContact,
      {
        salutation: ['x', null],
        title: ['T'.repeat(41), 5],
        birthdate: [...required, 'x', '2023-02-30', '2099-01-01', '1800-01-01', '2020-01-01'],
        first_name: name,
        last_name: name,
        adress: ['A', 'a/b', 5],
        postcode: ['1', 'abcdef', 5],
        city: ['A', 'B1', 5],
        email,
        phone,
        call_time: ['x', null],
        existing_customer: ['ja', null],
        message: ['m'.repeat(5001), 5],
        terms_accepted: consent,
        data_processing_consent: consent,
      },
    ],
  ];

  for (const [form, schema, valid, badValues] of cases) {
    for (const [field, values] of Object.entries(badValues)) {
      it.each(values)(`${form}: ${field} = %j gives exactly one message`, (value) => {
        const errors = errorsOf(schema, { ...valid, [field]: value });
        expect(Object.keys(errors)).toEqual([field]);
        expect(errors[field]).toHaveLength(1);
      });
    }
  }
});

describe('types', () => {
  it('infers the output types', () => {
    expectTypeOf<QuestionnaireContact>().toEqualTypeOf<{
      first_name: string;
      last_name: string;
      adress: string;
      postcode: string;
      city: string;
      phone: string;
      email: string;
      offer_info: boolean;
      terms_accepted: boolean;
      data_processing_consent: boolean;
    }>();
    expectTypeOf<KfzRequest['call_time']>().toEqualTypeOf<'' | CallTime>();
    expectTypeOf<KfzRequest['offer_info']>().toEqualTypeOf<boolean>();
    expectTypeOf<ContactRequest['salutation']>().toEqualTypeOf<'' | Salutation>();
    expectTypeOf<ContactRequest['existing_customer']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<ContactRequest['adress']>().toEqualTypeOf<string>();
  });

  it('lets forms leave defaulted fields out of the input', () => {
    expectTypeOf<QuestionnaireContactInput['offer_info']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<KfzRequestInput['call_time']>().toEqualTypeOf<'' | CallTime | undefined>();
    expectTypeOf<ContactRequestInput['message']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ContactRequestInput['birthdate']>().toEqualTypeOf<string>();
  });
});
