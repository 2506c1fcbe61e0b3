// The access log's actions (public.access_log.action) and how Survey Desk names them: one place
// for the customer sidebar, the staff page and the person's export document.

import { accessActions, type AccessAction } from './database-enums.ts';

export { accessActions, type AccessAction };

export const accessActionLabels: Record<AccessAction, string> = {
  customer_viewed: 'Kundendaten geöffnet',
  answers_viewed: 'Antworten angesehen',
  customer_changed: 'Kundendaten geändert',
  customer_searched: 'Kunden gesucht',
  customer_exported: 'Daten exportiert (Auskunft)',
  customer_erased: 'Kunde gelöscht',
  leads_exported: 'Leads exportiert',
  lead_deleted: 'Lead gelöscht',
  lead_status_changed: 'Lead-Status geändert',
};
