import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  callTimes,
  emptyKfzRequest,
  kfzRequestSchema,
  type CallTime,
  type KfzRequest,
  type KfzRequestInput,
} from './contact-forms.ts';
import {
  badValues,
  errorsOf,
  expectOneMessagePerField,
  validKfz,
} from './contact-forms.test-support.ts';
import { messages } from './messages.ts';

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
    expect(errorsOf(kfzRequestSchema, emptyKfzRequest)).toEqual(emptyFormErrors);
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

describe('one message per field', () => {
  const { name, email, phone, consent } = badValues;
  expectOneMessagePerField('kfz', kfzRequestSchema, validKfz, {
    first_name: name,
    last_name: name,
    email,
    phone,
    call_time: ['x', null],
    terms_accepted: consent,
    data_processing_consent: consent,
  });
});

describe('types', () => {
  it('infers the output types', () => {
    expectTypeOf<KfzRequest['call_time']>().toEqualTypeOf<'' | CallTime>();
    expectTypeOf<KfzRequest['offer_info']>().toEqualTypeOf<boolean>();
  });

  it('lets forms leave defaulted fields out of the input', () => {
    expectTypeOf<KfzRequestInput['call_time']>().toEqualTypeOf<'' | CallTime | undefined>();
  });
});
