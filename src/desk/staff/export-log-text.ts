import type { ExportLogEntry } from '../api/export-log.ts';
import { leadStatusLabels } from '../../domain/lead-status.ts';

// The export log in the agent's words: what an export covered, and how it ended.

const channelNames = { web: 'Website', fair_tablet: 'Messe-Tablet' } as const;
const sourceNames = {
  questionnaire: 'Fragebogen',
  kfz: 'KFZ-Rückruf',
  contact: 'Kontaktformular',
} as const;

const germanDay = (day: string) => day.split('-').reverse().join('.');

/**
 * 'Kunden · Suche „meier"', 'Analyse · 01.11.2026 bis 23.11.2026 · Fragebogen: PKV · Website',
 * 'Kunden · Eingang ab 01.11.2026 · alle Anfragen · Status: Neu · offene Wiedervorlage'.
 */
export function describeExport(
  entry: Pick<ExportLogEntry, 'scope' | 'filter'>,
  formTitle: (id: number) => string | undefined,
): string {
  const { day_from, day_to, questionnaire_id, lead_channel, customer_search } = entry.filter;
  const { received_from, received_to, lead_status, lead_source, open_follow_up } = entry.filter;
  const parts: string[] = [entry.scope === 'customers' ? 'Kunden' : 'Analyse'];
  const period = (from: string | undefined, to: string | undefined) =>
    from && to
      ? `${germanDay(from)} bis ${germanDay(to)}`
      : from
        ? `ab ${germanDay(from)}`
        : to
          ? `bis ${germanDay(to)}`
          : null;
  const captured = period(day_from, day_to);
  const received = period(received_from, received_to);
  if (captured) parts.push(captured);
  if (received) parts.push(`Eingang ${received}`);
  if (!captured && !received) parts.push('gesamter Zeitraum');
  parts.push(
    questionnaire_id === undefined || questionnaire_id === null
      ? 'alle Anfragen'
      : `Fragebogen: ${formTitle(questionnaire_id) ?? `Nr. ${questionnaire_id}`}`,
  );
  if (lead_channel) parts.push(`Quelle: ${channelNames[lead_channel] ?? lead_channel}`);
  if (lead_source) parts.push(`Quelle: ${sourceNames[lead_source]}`);
  if (lead_status) parts.push(`Status: ${leadStatusLabels[lead_status]}`);
  if (open_follow_up) parts.push('offene Wiedervorlage');
  if (customer_search) parts.push(`Suche „${customer_search}“`);
  return parts.join(' · ');
}

export function exportStatus(entry: Pick<ExportLogEntry, 'finished_at' | 'cancelled'>): string {
  if (entry.cancelled) return 'abgebrochen';
  return entry.finished_at ? 'abgeschlossen' : 'nicht beendet';
}

/** Rows written; a cancelled export also says how many it would have had. */
export function exportRows(
  entry: Pick<ExportLogEntry, 'row_count' | 'rows_written' | 'cancelled'>,
): string {
  if (entry.rows_written === null) return String(entry.row_count);
  return entry.cancelled && entry.rows_written !== entry.row_count
    ? `${entry.rows_written} von ${entry.row_count}`
    : String(entry.rows_written);
}
