// The contact details a lead carries as its sender typed them (stored on each response), and how
// they compare with the customer record. A lead never changes a known customer by itself (the
// database fills only empty fields); staff see the differences and take them over by hand.

export const leadContactFields = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'adress',
  'postcode',
  'city',
] as const;
export type LeadContactField = (typeof leadContactFields)[number];

export type LeadContact = Record<LeadContactField, string | null>;

/** The field names as the desk's forms label them. */
export const leadContactLabels: Record<LeadContactField, string> = {
  first_name: 'Vorname',
  last_name: 'Nachname',
  email: 'E-Mail',
  phone: 'Telefonnummer',
  adress: 'Straße und Hausnummer',
  postcode: 'PLZ',
  city: 'Ort',
};

export interface LeadContactChange {
  field: LeadContactField;
  label: string;
  /** The customer's value; null when empty. */
  before: string | null;
  after: string;
}

const filled = (value: string | null | undefined) => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/**
 * The fields where the lead says something else than the customer record. A field the lead left
 * empty is no change (a KFZ request asks no address, it does not remove one); e-mail addresses
 * compare without case, as the database matches them.
 */
export function leadContactChanges(customer: LeadContact, lead: LeadContact): LeadContactChange[] {
  return leadContactFields.flatMap((field) => {
    const after = filled(lead[field]);
    const before = filled(customer[field]);
    if (after === null) return [];
    const same =
      field === 'email' ? before?.toLowerCase() === after.toLowerCase() : before === after;
    return same ? [] : [{ field, label: leadContactLabels[field], before, after }];
  });
}

/** When a lead was typed: the device's time, or the hub's when the device sent none. */
export function leadTime(lead: { captured_at: string | null; received_at: string }): string {
  return lead.captured_at ?? lead.received_at;
}

/** The lead typed last, by leadTime (ties: the one received last). */
export function newestLead<T extends { captured_at: string | null; received_at: string }>(
  leads: readonly T[],
): T | undefined {
  let newest: T | undefined;
  for (const lead of leads) {
    if (!newest) newest = lead;
    else {
      const byTyped = Date.parse(leadTime(lead)) - Date.parse(leadTime(newest));
      const byReceived = Date.parse(lead.received_at) - Date.parse(newest.received_at);
      if (byTyped > 0 || (byTyped === 0 && byReceived > 0)) newest = lead;
    }
  }
  return newest;
}
