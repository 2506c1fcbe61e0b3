import { describe, expect, it } from 'vitest';
import type { Customer } from '../../api/desk-customers.ts';
import { messages } from '../../domain/messages.ts';
import {
  customerFields,
  customerFormInput,
  customerFormSchema,
  customerSaveProblem,
  emailTakenMessage,
} from './customer-form.ts';

const customer: Customer = {
  id: 7,
  first_name: 'Jürgen',
  last_name: 'Meier',
  email: 'juergen@example.de',
  phone: null,
  adress: 'Hauptstraße 1',
  postcode: null,
  city: 'Köln',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};

const problems = (input: Record<string, string>) => {
  const result = customerFormSchema.safeParse({ ...customerFormInput(customer), ...input });
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path[0], issue.message]));
};

describe('customer form rules', () => {
  it('accepts a stored customer with empty optional columns', () => {
    expect(problems({})).toEqual({});
  });

  it('applies the public forms’ rules with their German messages', () => {
    expect(
      problems({
        first_name: 'J',
        last_name: '',
        email: 'kein-at',
        phone: '12',
        postcode: '123',
        city: 'K',
      }),
    ).toEqual({
      first_name: messages.firstNameInvalid,
      last_name: messages.lastNameInvalid,
      email: messages.emailInvalid,
      phone: messages.phoneInvalid,
      postcode: messages.postcodeInvalid,
      city: messages.cityInvalid,
    });
  });

  it('sends emptied optional fields as null and the e-mail normalised', () => {
    const values = customerFormSchema.parse({
      ...customerFormInput(customer),
      email: ' Juergen@Example.DE ',
      adress: '  ',
      phone: '0221 123456',
    });
    expect(customerFields(values)).toEqual({
      first_name: 'Jürgen',
      last_name: 'Meier',
      email: 'juergen@example.de',
      phone: '0221 123456',
      adress: null,
      postcode: null,
      city: 'Köln',
    });
  });
});

describe('customerSaveProblem', () => {
  it('names a taken e-mail address', () => {
    expect(customerSaveProblem({ code: '23505', message: 'duplicate key' })).toBe(
      emailTakenMessage,
    );
  });

  it('answers anything else in German, never with the gateway’s English text', () => {
    const message = customerSaveProblem(new TypeError('Failed to fetch'));
    expect(message).toMatch(/konnten nicht gespeichert werden/);
    expect(message).not.toContain('fetch');
  });
});
