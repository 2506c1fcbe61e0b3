import { z } from 'zod';
import {
  createContactRequestSchema,
  emailSchema,
  kfzRequestSchema,
  questionnaireContactSchema,
} from './contact-forms.ts';
import { messages } from './messages.ts';

// A customer record (`users`) is written by the three public forms (the questionnaire's contact
// step, the KFZ callback, the contact page) and edited by staff in the desk. Each public form
// checks its fields by the spec's rules for that form, and those differ: the questionnaire takes
// any street and city and any name (see isName), the contact page only letters in a city. The desk judges a field by
// the very same rules: a value passes when any public form that writes the field accepts it, so
// staff can always save what a visitor could send ("Musterweg 12/3", "Frankfurt (Oder)",
// "Dr. Anna", phone "12345"), and a value no form would take is refused with the field's message.

/** A public form's rule for one field, as its schema holds it. */
type FieldRule = { safeParse(value: unknown): { success: boolean } };

const questionnaire = questionnaireContactSchema.shape;
const kfz = kfzRequestSchema.shape;
// Only the field rules are used; none of them reads the day.
const contact = createContactRequestSchema(() => new Date()).shape;

/** The fields of a customer record and the public forms' rules that write each of them. */
const writers = {
  first_name: [questionnaire.first_name, kfz.first_name, contact.first_name],
  last_name: [questionnaire.last_name, kfz.last_name, contact.last_name],
  phone: [questionnaire.phone, kfz.phone, contact.phone],
  adress: [questionnaire.adress, contact.adress],
  postcode: [questionnaire.postcode, contact.postcode],
  city: [questionnaire.city, contact.city],
} satisfies Record<string, FieldRule[]>;

type CustomerTextField = keyof typeof writers;

/** True when a public form that writes `field` accepts `value` for it. */
function acceptedByAPublicForm(field: CustomerTextField, value: string): boolean {
  return writers[field].some((rule: FieldRule) => rule.safeParse(value).success);
}

/**
 * Why the loosest form (the questionnaire) refuses a non-empty name: "no name" or
 * "too long" rather than "required". Undefined for the other fields, which keep their message.
 */
function nameRefusal(field: CustomerTextField, value: string): string | undefined {
  if (field !== 'first_name' && field !== 'last_name') return undefined;
  const result = questionnaire[field].safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** The German message of a refused value: the one the visitor would have read. */
const refusal: Record<CustomerTextField, string> = {
  first_name: messages.firstNameRequired,
  last_name: messages.lastNameRequired,
  phone: messages.phoneInvalid,
  adress: messages.adressInvalid,
  postcode: messages.postcodeInvalid,
  city: messages.cityInvalid,
};

/**
 * The rule for one text field of a customer record, trimmed. `optional`: the column may be empty
 * (every field but the names; a lead always brings a phone number, a customer made otherwise
 * may have none). `stored`: the value the record holds now, which is always accepted unchanged:
 * a value that was fine when it came in never blocks saving another field.
 */
export function customerFieldSchema(
  field: CustomerTextField,
  options: { optional: boolean; stored?: string | undefined },
) {
  return z
    .string({ error: refusal[field] })
    .trim()
    .superRefine((value, ctx) => {
      if (value === options.stored || (options.optional && value === '')) return;
      if (value !== '' && acceptedByAPublicForm(field, value)) return;
      const message = (value !== '' && nameRefusal(field, value)) || refusal[field];
      ctx.addIssue({ code: 'custom', message, abort: true });
    });
}

/** The e-mail: the one rule every public form shares; a stored address passes unchanged. */
export function customerEmailSchema(stored?: string) {
  return z.string({ error: messages.emailRequired }).transform((value, ctx) => {
    if (stored !== undefined && value.trim() === stored) return stored;
    const result = emailSchema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });
}
