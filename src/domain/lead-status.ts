// Where the office stands with a lead: the codes stored in responses.status and
// lead_status_changes.status, and the labels the desk shows.

export const leadStatuses = [
  'new',
  'contacted',
  'appointment',
  'offer_sent',
  'closed',
  'no_interest',
] as const;
export type LeadStatus = (typeof leadStatuses)[number];

export const leadStatusLabels: Record<LeadStatus, string> = {
  new: 'Neu',
  contacted: 'Kontaktiert',
  appointment: 'Termin vereinbart',
  offer_sent: 'Angebot gesendet',
  closed: 'Abgeschlossen',
  no_interest: 'Kein Interesse',
};

export function isLeadStatus(value: unknown): value is LeadStatus {
  return typeof value === 'string' && (leadStatuses as readonly string[]).includes(value);
}
