import { berlinToday } from '../../domain/calendar.ts';
import type { LeadChannel } from '../../domain/submission.ts';
import type { NullableArgs } from './database-functions.ts';

// What an export is: its scope, format and filter, the arguments the database's export functions
// take for the filter, and the file's name. The database decides who may export (can_export, and
// the export functions refuse with 42501) and records every export; the desk only pages and writes.

export const exportScopes = ['analysis', 'customers'] as const;
export const exportFormats = ['csv', 'xlsx'] as const;
export type ExportScope = (typeof exportScopes)[number];
export type ExportFormat = (typeof exportFormats)[number];

export interface ExportFilter {
  dayFrom?: string;
  dayTo?: string;
  questionnaireId?: number | null;
  channel?: LeadChannel | null;
  customerSearch?: string;
}

/** The database's filter arguments: an empty value means "no restriction" (SQL null). */
export function filterArgs(filter: ExportFilter) {
  const orNull = <T>(value: T | null | undefined | '') =>
    value === undefined || value === '' ? null : value;
  return {
    day_from: orNull(filter.dayFrom),
    day_to: orNull(filter.dayTo),
    questionnaire_id: orNull(filter.questionnaireId),
    lead_channel: orNull(filter.channel),
    customer_search: orNull(filter.customerSearch?.trim()),
  } satisfies Omit<NullableArgs<'begin_export'>, 'export_scope' | 'export_format'>;
}

/** 'anfragen-2026-11-23.csv': the agent's day, sortable in a folder. */
export function exportFileName(format: ExportFormat, now = new Date()): string {
  return `anfragen-${berlinToday(now)}.${format}`;
}
