import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  emptyQuestionnaireContact,
  questionnaireContactSchema,
  type QuestionnaireContact,
  type QuestionnaireContactInput,
} from './contact-forms.ts';
import {
  badValues,
  errorsOf,
  expectOneMessagePerField,
  validQuestionnaire,
} from './contact-forms.test-support.ts';
import { messages } from './messages.ts';

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
    expect(errorsOf(questionnaireContactSchema, emptyQuestionnaireContact)).toEqual(
      emptyFormErrors,
    );
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

  it('allows short names, and address and city without a pattern', () => {
    const loose = {
      first_name: 'X',
      last_name: 'Æ-Ø',
      adress: 'c/o Firma, 3/1',
      city: 'St. Ingbert',
    };
    expect(errorsOf(questionnaireContactSchema, { ...validQuestionnaire, ...loose })).toEqual({});
  });
});

describe('one message per field', () => {
  const { required, email, consent } = badValues;
  expectOneMessagePerField('questionnaire', questionnaireContactSchema, validQuestionnaire, {
    first_name: required,
    last_name: required,
    adress: required,
    postcode: [...required, '1', 'abcdef'],
    city: required,
    phone: [...required, '+', '030/123'],
    email,
    terms_accepted: consent,
    data_processing_consent: consent,
  });
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
  });

  it('lets forms leave defaulted fields out of the input', () => {
    expectTypeOf<QuestionnaireContactInput['offer_info']>().toEqualTypeOf<boolean | undefined>();
  });
});
