import {
  customerLeadSources,
  customerSortColumns,
  type CustomerFilters,
  type CustomerLeadSource,
  type CustomerSort,
  type CustomerSortColumn,
} from '../api/customers.ts';
import type { ExportFilter } from '../api/export-options.ts';
import { fileNamePart } from '../api/export-options.ts';
import { isCalendarDay } from '../../domain/calendar.ts';
import { isLeadStatus, leadStatusLabels } from '../../domain/lead-status.ts';

// What the customers screen shows lives in the address (German names, like the routes), so a
// reload or a shared link opens the same search, filters, page, size, order and customer.

/** The spec's 5, 10 and 20, and 50 and 100 for an office with thousands of customers. */
export const pageSizes = [5, 10, 20, 50, 100] as const;
export type PageSize = (typeof pageSizes)[number];
export const defaultPageSize: PageSize = 10;

export const viewParams = {
  search: 'q',
  page: 'seite',
  size: 'anzahl',
  sort: 'sortierung',
  selected: 'id',
  // The filters use Analyse's names where they mean the same (fragebogen, quelle, von, bis);
  // status is the code (?status=contacted), as the dashboard's counts link to it.
  questionnaire: 'fragebogen',
  source: 'quelle',
  status: 'status',
  receivedFrom: 'von',
  receivedTo: 'bis',
  openFollowUp: 'wiedervorlage',
} as const;

/** The source in the address: Analyse's 'website' and 'messe', and the two contact forms. */
export const sourceParamValues: Record<CustomerLeadSource, string> = {
  web: 'website',
  fair_tablet: 'messe',
  kfz: 'kfz',
  contact: 'kontakt',
};

const readSource = (text: string | null): CustomerLeadSource | null =>
  customerLeadSources.find((source) => sourceParamValues[source] === text) ?? null;

export interface CustomersView {
  /** Trimmed and lower-cased, as the database search takes it. */
  search: string;
  /** 1-based. */
  page: number;
  size: PageSize;
  sort: CustomerSort | null;
  /** The customer whose sidebar is open. */
  selected: number | null;
  filters: CustomerFilters;
}

/** The search as typed becomes the search as run: trimmed, lower-cased. */
export const normalizeSearch = (typed: string): string => typed.trim().toLowerCase();

const positiveInteger = (text: string | null): number | null =>
  text !== null && /^[1-9]\d{0,8}$/.test(text) ? Number(text) : null;

const calendarDay = (text: string | null): string | null => (isCalendarDay(text) ? text : null);

/** The filters in the address; an unknown value is no filter. */
export function readCustomerFilters(params: URLSearchParams): CustomerFilters {
  const status = params.get(viewParams.status);
  return {
    questionnaireId: positiveInteger(params.get(viewParams.questionnaire)),
    source: readSource(params.get(viewParams.source)),
    status: isLeadStatus(status) ? status : null,
    receivedFrom: calendarDay(params.get(viewParams.receivedFrom)),
    receivedTo: calendarDay(params.get(viewParams.receivedTo)),
    openFollowUp: params.get(viewParams.openFollowUp) === '1',
  };
}

function readSort(text: string | null): CustomerSort | null {
  const match = /^([a-z_]+)\.(asc|desc)$/.exec(text ?? '');
  if (!match || !customerSortColumns.includes(match[1] as CustomerSortColumn)) return null;
  return { column: match[1] as CustomerSortColumn, ascending: match[2] === 'asc' };
}

/** Reads the view from the address; anything malformed falls back to the default. */
export function readCustomersView(params: URLSearchParams): CustomersView {
  const size = positiveInteger(params.get(viewParams.size));
  return {
    search: normalizeSearch(params.get(viewParams.search) ?? ''),
    page: positiveInteger(params.get(viewParams.page)) ?? 1,
    size: pageSizes.find((allowed) => allowed === size) ?? defaultPageSize,
    sort: readSort(params.get(viewParams.sort)),
    selected: positiveInteger(params.get(viewParams.selected)),
    filters: readCustomerFilters(params),
  };
}

/** The address of a view; defaults are left out so the plain list keeps its plain address. */
export function writeCustomersView(view: CustomersView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set(viewParams.search, view.search);
  if (view.page > 1) params.set(viewParams.page, String(view.page));
  if (view.size !== defaultPageSize) params.set(viewParams.size, String(view.size));
  if (view.sort) {
    params.set(viewParams.sort, `${view.sort.column}.${view.sort.ascending ? 'asc' : 'desc'}`);
  }
  const { filters } = view;
  if (filters.questionnaireId !== null) {
    params.set(viewParams.questionnaire, String(filters.questionnaireId));
  }
  if (filters.source !== null) params.set(viewParams.source, sourceParamValues[filters.source]);
  if (filters.status !== null) params.set(viewParams.status, filters.status);
  if (filters.receivedFrom !== null) params.set(viewParams.receivedFrom, filters.receivedFrom);
  if (filters.receivedTo !== null) params.set(viewParams.receivedTo, filters.receivedTo);
  if (filters.openFollowUp) params.set(viewParams.openFollowUp, '1');
  if (view.selected !== null) params.set(viewParams.selected, String(view.selected));
  return params;
}

/** A header click: ascending, then descending, then no order (the spec's cycle). */
export function cycleSort(
  current: CustomerSort | null,
  column: CustomerSortColumn,
): CustomerSort | null {
  if (current?.column !== column) return { column, ascending: true };
  return current.ascending ? { column, ascending: false } : null;
}

export const pageCount = (total: number, size: number): number =>
  Math.max(1, Math.ceil(total / size));

/**
 * The export of the list as it is filtered: the leads of the customers the search finds that
 * meet the lead filters (questionnaire, source, status, arrival), of customers with an open
 * follow-up when that is chosen. The website and the tablet are channels, the KFZ callback and
 * the contact form sources, as the list's filter means them.
 */
export function customersExportFilter(
  view: Pick<CustomersView, 'search' | 'filters'>,
): ExportFilter {
  const { filters } = view;
  const source = filters.source;
  return {
    customerSearch: view.search,
    ...(filters.questionnaireId !== null && { questionnaireId: filters.questionnaireId }),
    ...((source === 'web' || source === 'fair_tablet') && { channel: source }),
    ...((source === 'kfz' || source === 'contact') && { source }),
    ...(filters.status !== null && { status: filters.status }),
    ...(filters.receivedFrom !== null && { receivedFrom: filters.receivedFrom }),
    ...(filters.receivedTo !== null && { receivedTo: filters.receivedTo }),
    ...(filters.openFollowUp && { openFollowUp: true }),
  };
}

/**
 * The start of the export's file name, saying what was filtered in the address's words:
 * 'kunden', 'kunden_status-neu', 'kunden_suche-meier_fragebogen-pkv_von-2026-11-01'.
 */
export function customersFileStem(
  view: Pick<CustomersView, 'search' | 'filters'>,
  questionnaireTitle: (id: number) => string | undefined,
): string {
  const { filters } = view;
  const parts = ['kunden'];
  const add = (name: string, value: string) => {
    const part = fileNamePart(value);
    if (part) parts.push(`${name}-${part}`);
  };
  if (view.search) add('suche', view.search);
  if (filters.questionnaireId !== null) {
    add(
      'fragebogen',
      questionnaireTitle(filters.questionnaireId) ?? String(filters.questionnaireId),
    );
  }
  if (filters.source !== null) add('quelle', sourceParamValues[filters.source]);
  if (filters.status !== null) add('status', leadStatusLabels[filters.status]);
  if (filters.receivedFrom !== null) add('von', filters.receivedFrom);
  if (filters.receivedTo !== null) add('bis', filters.receivedTo);
  if (filters.openFollowUp) parts.push('wiedervorlage-offen');
  return parts.join('_');
}
