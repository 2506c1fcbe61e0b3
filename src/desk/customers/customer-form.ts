import { z } from 'zod';
import type { Customer, CustomerFields } from '../api/customers.ts';
import { errorCode } from '../api/staff.ts';
import { customerEmailSchema, customerFieldSchema } from '../../domain/customer-fields.ts';

/** The form's fields as the stored record fills them (an empty column as ''). */
export type StoredCustomerFields = Record<
  'first_name' | 'last_name' | 'email' | 'phone' | 'adress' | 'postcode' | 'city',
  string
>;

/**
 * The sidebar 'Kunden Details': each field by the rule every form that writes it shares
 * (`src/domain/customer-fields.ts`): whatever a public form accepts for it, and the value stored
 * now. Phone, street, postcode and city may be empty: the table allows it.
 */
export function customerFormSchemaFor(stored?: StoredCustomerFields) {
  return z.object({
    first_name: customerFieldSchema('first_name', {
      optional: false,
      stored: stored?.first_name,
    }),
    last_name: customerFieldSchema('last_name', { optional: false, stored: stored?.last_name }),
    email: customerEmailSchema(stored?.email),
    phone: customerFieldSchema('phone', { optional: true, stored: stored?.phone }),
    adress: customerFieldSchema('adress', { optional: true, stored: stored?.adress }),
    postcode: customerFieldSchema('postcode', { optional: true, stored: stored?.postcode }),
    city: customerFieldSchema('city', { optional: true, stored: stored?.city }),
  });
}

/** The rules for a new value in every field, nothing stored to keep. */
export const customerFormSchema = customerFormSchemaFor();

export type CustomerFormInput = z.input<typeof customerFormSchema>;
export type CustomerFormValues = z.output<typeof customerFormSchema>;

/** The form's fields filled from a stored customer (an empty column as an empty field). */
export function customerFormInput(customer: Customer): StoredCustomerFields {
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
