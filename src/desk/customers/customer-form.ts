import { z } from 'zod';
import type { Customer, CustomerFields } from '../../api/desk-customers.ts';
import { errorCode } from '../../api/desk-staff.ts';
import {
  createContactRequestSchema,
  emailSchema,
  isValidPhone,
  personNameSchema,
} from '../../domain/contact-forms.ts';
import { messages } from '../../domain/messages.ts';

// The sidebar 'Kunden Details' judges a customer by the public forms' rules (the contact page's
// for names, street, postcode and city, the shared e-mail rule), so the desk cannot store what a
// visitor could not have sent. Phone, street, postcode and city may be empty: the table allows it.

const contactFields = createContactRequestSchema(() => new Date()).shape;

export const customerFormSchema = z.object({
  first_name: personNameSchema(messages.firstNameInvalid),
  last_name: personNameSchema(messages.lastNameInvalid),
  email: emailSchema,
  phone: z
    .string()
    .trim()
    .refine((phone) => phone === '' || isValidPhone(phone), {
      error: messages.phoneInvalid,
      abort: true,
    }),
  adress: contactFields.adress,
  postcode: contactFields.postcode,
  city: contactFields.city,
});

export type CustomerFormInput = z.input<typeof customerFormSchema>;
export type CustomerFormValues = z.output<typeof customerFormSchema>;

/** The form's fields filled from a stored customer (an empty column as an empty field). */
export function customerFormInput(customer: Customer): Required<CustomerFormInput> {
  return {
    first_name: customer.first_name,
    last_name: customer.last_name,
    email: customer.email,
    phone: customer.phone ?? '',
    adress: customer.adress ?? '',
    postcode: customer.postcode ?? '',
    city: customer.city ?? '',
  };
}

const orNull = (value: string) => (value === '' ? null : value);

/** What the PATCH sends: an emptied optional field clears the column. */
export function customerFields(values: CustomerFormValues): CustomerFields {
  return {
    first_name: values.first_name,
    last_name: values.last_name,
    email: values.email,
    phone: orNull(values.phone),
    adress: orNull(values.adress),
    postcode: orNull(values.postcode),
    city: orNull(values.city),
  };
}

export const customerSavedMessage = 'Daten wurden erfolgreich gespeichert!';
export const emailTakenMessage = 'Diese E-Mail-Adresse gehört schon zu einem anderen Kunden.';

/** The German reason a save failed, by the gateway's code (its own texts are English). */
export function customerSaveProblem(error: unknown): string {
  switch (errorCode(error)) {
    case '23505':
      return emailTakenMessage;
    case 'PGRST116':
      return 'Dieser Kunde wurde nicht gefunden oder du darfst ihn nicht ändern. Bitte lade die Liste neu.';
    case '42501':
      return 'Dir fehlen die Rechte, Kundendaten zu ändern. Bitte wende dich an einen Admin.';
    case '23514':
      return 'Die Daten entsprechen nicht den Regeln der Datenbank. Bitte prüfe die Eingaben.';
    default:
      return 'Die Daten konnten nicht gespeichert werden. Bitte prüfe deine Verbindung und versuche es erneut.';
  }
}
