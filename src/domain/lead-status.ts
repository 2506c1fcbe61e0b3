// Where the office stands with a lead: the codes stored in responses.status and
// lead_status_changes.status, and the labels the desk shows.

import { isOneOf, leadStatuses, type LeadStatus } from './database-enums.ts';

export { leadStatuses, type LeadStatus };

export const leadStatusLabels: Record<LeadStatus, string> = {
  new: 'Neu',
  contacted: 'Kontaktiert',
  appointment: 'Termin vereinbart',
  offer_sent: 'Angebot gesendet',
  closed: 'Abgeschlossen',
  no_interest: 'Kein Interesse',
};

export function isLeadStatus(value: unknown): value is LeadStatus {
  return isOneOf(leadStatuses, value);
}
