import { berlinToday } from '../../domain/calendar.ts';
import type { LeadStatus } from '../../domain/lead-status.ts';
import type { LeadChannel } from '../../domain/submission.ts';
import type { NullableArgs } from './database-functions.ts';
import type { ExportFormat, ExportScope } from '../../domain/database-enums.ts';

// What an export is: its scope, format and filter, the arguments the database's export functions
// take for the filter, and the file's name. The database decides who may export (can_export, and
// the export functions refuse with 42501) and records every export; the desk only pages and writes.

export type { ExportFormat, ExportScope };

/**
 * The leads an export holds. Analyse's period is the lead's capture (dayFrom, dayTo); the
 * customer list's is its arrival in the desk (receivedFrom, receivedTo), as the list filters.
 */
export interface ExportFilter {
  dayFrom?: string;
  dayTo?: string;
  questionnaireId?: number | null;
  channel?: LeadChannel | null;
  customerSearch?: string;
  status?: LeadStatus | null;
  /** The KFZ callback or the contact form (the website and the tablet are channels). */
  source?: 'kfz' | 'contact' | null;
  receivedFrom?: string | null;
  receivedTo?: string | null;
  /** Only leads of customers with a follow-up not yet done. */
  openFollowUp?: boolean;
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
    lead_status: orNull(filter.status),
    lead_source: orNull(filter.source),
    received_from: orNull(filter.receivedFrom),
    received_to: orNull(filter.receivedTo),
    open_follow_up: filter.openFollowUp ? true : null,
  } satisfies Omit<NullableArgs<'begin_export'>, 'export_scope' | 'export_format'>;
}

/**
 * A part of a file name from German words: lower case, umlauts and ß spelled out, anything but
 * letters and digits one hyphen; at most 40 characters. 'Termin vereinbart' → 'termin-vereinbart'.
 */
export function fileNamePart(text: string): string {
  return text
    .toLowerCase()
    .replaceAll('ä', 'ae')
    .replaceAll('ö', 'oe')
    .replaceAll('ü', 'ue')
    .replaceAll('ß', 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
}

/**
 * The file's name: 'anfragen-2026-11-23.csv' (the agent's day, sortable in a folder), or with a
 * `stem` that says what was filtered, 'kunden_status-neu_2026-11-28.xlsx'.
 */
export function exportFileName(format: ExportFormat, now = new Date(), stem?: string): string {
  return stem ? `${stem}_${berlinToday(now)}.${format}` : `anfragen-${berlinToday(now)}.${format}`;
}
