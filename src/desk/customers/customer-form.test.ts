import { describe, expect, it } from 'vitest';
import type { Customer } from '../api/customers.ts';
import {
  createContactRequestSchema,
  kfzRequestSchema,
  questionnaireContactSchema,
} from '../../domain/contact-forms.ts';
import { messages } from '../../domain/messages.ts';
import {
  customerFields,
  customerFormInput,
  customerFormSchema,
  customerFormSchemaFor,
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

  it('refuses what no public form would take, with the German message of the field', () => {
    expect(
      problems({
        first_name: '  ',
        last_name: '',
        email: 'kein-at',
        phone: '12 ab',
        postcode: '123',
      }),
    ).toEqual({
      first_name: messages.firstNameRequired,
      last_name: messages.lastNameRequired,
      email: messages.emailInvalid,
      phone: messages.phoneInvalid,
      postcode: messages.postcodeInvalid,
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

// What each public form accepts for a field is what staff can save unchanged (issue 21, item 7).
const publicForms = {
  Fragebogen: questionnaireContactSchema.shape,
  KFZ: kfzRequestSchema.shape,
  Kontaktseite: createContactRequestSchema(() => new Date()).shape,
} as const;

const storedValues: [form: keyof typeof publicForms, field: string, value: string][] = [
  ['Fragebogen', 'first_name', 'Dr. Anna'],
  ['Fragebogen', 'first_name', 'J'],
  ['Fragebogen', 'last_name', 'von der Heide geb. Meier'],
  ['Fragebogen', 'adress', 'Musterweg 12/3'],
  ['Fragebogen', 'adress', 'Am Markt 1, Hinterhaus'],
  ['Fragebogen', 'city', 'Frankfurt (Oder)'],
  ['Fragebogen', 'city', 'St. Wendel'],
  ['Fragebogen', 'phone', '12345'],
  ['Fragebogen', 'phone', '+49 30 1234567'],
  ['Fragebogen', 'postcode', '01067'],
  ['KFZ', 'first_name', "D'Artagnan"],
  ['KFZ', 'last_name', 'Müller-Lüdenscheidt'],
  ['KFZ', 'phone', '0171/123-4567'],
  ['Kontaktseite', 'adress', 'Hauptstr. 5-7'],
  ['Kontaktseite', 'city', 'Halle-Neustadt'],
  ['Kontaktseite', 'phone', '+49 171 1234567'],
];

describe('a value a public form accepted', () => {
  it.each(storedValues)('from the %s (%s = %s) is saved unchanged', (form, field, value) => {
    const rule = publicForms[form][field as keyof (typeof publicForms)[typeof form]] as {
      safeParse(value: string): { success: boolean };
    };
    // The public form takes it ...
    expect(rule.safeParse(value).success).toBe(true);
    // ... so staff can save it, whether it is new or already stored.
    const edited = { ...customerFormInput(customer), [field]: value };
    expect(customerFormSchema.parse(edited)).toMatchObject({ [field]: value });
    expect(customerFormSchemaFor(edited).parse(edited)).toMatchObject({ [field]: value });
  });

  it('never blocks saving another field, even when no rule would take it today', () => {
    const stored = {
      ...customerFormInput(customer),
      phone: '0171 12 ab',
      postcode: '1234',
    };
    const schema = customerFormSchemaFor(stored);
    expect(schema.parse({ ...stored, city: 'Bonn' })).toMatchObject({
      phone: '0171 12 ab',
      postcode: '1234',
      city: 'Bonn',
    });
    // Changed, the value meets the rules again.
    expect(schema.safeParse({ ...stored, phone: '0171 12 ac' }).success).toBe(false);
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
