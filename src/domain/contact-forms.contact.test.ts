import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  birthdateBounds,
  birthdateProblem,
  createContactRequestSchema,
  emptyContactRequest,
  salutations,
  type ContactRequest,
  type ContactRequestInput,
  type Salutation,
} from './contact-forms.ts';
import {
  badValues,
  day,
  errorsOf,
  expectOneMessagePerField,
  validContact,
} from './contact-forms.test-support.ts';
import { messages } from './messages.ts';

const today = day(2026, 3, 15);
const contactSchema = createContactRequestSchema(() => today);

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
    expect(errorsOf(contactSchema, emptyContactRequest)).toEqual(emptyFormErrors);
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
  const { required, name, email, phone, consent } = badValues;
  expectOneMessagePerField('contact', contactSchema, validContact, {
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
  });
});

describe('types', () => {
  it('infers the output types', () => {
    expectTypeOf<ContactRequest['salutation']>().toEqualTypeOf<'' | Salutation>();
    expectTypeOf<ContactRequest['existing_customer']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<ContactRequest['adress']>().toEqualTypeOf<string>();
  });

  it('lets forms leave defaulted fields out of the input', () => {
    expectTypeOf<ContactRequestInput['message']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ContactRequestInput['birthdate']>().toEqualTypeOf<string>();
  });
});
