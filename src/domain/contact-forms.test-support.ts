// Shared by the contact-forms tests, one file per schema: how a resolver sees a schema's
// messages, a fixed calendar day, a valid input of each form, and the "one message per field" check.
import { expect, it } from 'vitest';
import type { z } from 'zod';

/** Messages grouped by the field they are shown under, as a form resolver sees them. */
export function errorsOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
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
export const day = (year: number, month: number, date: number, hours = 12) =>
  new Date(year, month - 1, date, hours);

export const validQuestionnaire = {
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

export const validKfz = {
  first_name: 'Erika',
  last_name: 'Mustermann',
  email: 'erika@example.de',
  phone: '030/123456',
  call_time: 'Morgens',
  data_processing_consent: true,
  terms_accepted: true,
};

export const validContact = {
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

const required = ['', '   ', 5, null];

/** Bad values of the kinds most fields share, for `expectOneMessagePerField`. */
export const badValues = {
  required,
  name: [...required, 'a', 'xx', '1a', 'a_b'],
  email: [...required, 'a', '@', 'a@b', 'a@@b.de'],
  phone: [...required, '+', '12', 'abc'],
  consent: [false, 'ja', null],
};

/** For each field and bad value: the form reports exactly one message, under that field only. */
export function expectOneMessagePerField(
  form: string,
  schema: z.ZodType,
  valid: Record<string, unknown>,
  fields: Record<string, unknown[]>,
) {
  for (const [field, values] of Object.entries(fields)) {
    it.each(values)(`${form}: ${field} = %j gives exactly one message`, (value) => {
      const errors = errorsOf(schema, { ...valid, [field]: value });
      expect(Object.keys(errors)).toEqual([field]);
      expect(errors[field]).toHaveLength(1);
    });
  }
}
