import type { SupabaseClient } from '@supabase/supabase-js';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { CalendarDay } from '../../domain/calendar.ts';
import type { LeadContact } from '../../domain/lead-contact.ts';
import { leadStatuses, type LeadStatus } from '../../domain/lead-status.ts';
import {
  leadChannels,
  submissionSources,
  type LeadChannel,
  type SubmissionSource,
} from '../../domain/submission.ts';
import type { Database, Tables } from '../../domain/database.types.ts';
import { errorCode } from './staff.ts';
import { useSupabase } from './supabase-context.ts';

// The customers (table users) and their responses. Search, sort, paging and counting run in the
// database: the desk never downloads the whole table (DESIGN: 100,000 customers).

/** A customer as the desk shows and edits it (staff_edited is the database's bookkeeping). */
export type Customer = Omit<Tables<'users'>, 'staff_edited'>;

/**
 * A row of the customer list: the customer, and the arrival, source (form and channel),
 * questionnaire and status of their newest lead among those the list's filters select (every lead
 * without a lead filter), and the due time of their next open follow-up; null where there is none.
 */
export type ListedCustomer = Customer & {
  lead_status: LeadStatus | null;
  last_lead_at: string | null;
  lead_source: SubmissionSource | null;
  lead_channel: LeadChannel | null;
  /** The questionnaire's title; null for KFZ and contact leads and without a lead. */
  questionnaire_title: string | null;
  next_follow_up_at: string | null;
};

/**
 * Where a lead came from, as the list filters it: captured on the website or the fair tablet
 * (either form), or sent with the KFZ callback or the contact form (from either place).
 */
export const customerLeadSources = ['web', 'fair_tablet', 'kfz', 'contact'] as const;
export type CustomerLeadSource = (typeof customerLeadSources)[number];

/**
 * The list's filters; null (false) for none. The lead filters (questionnaire, source, status,
 * period) hold for one and the same lead of the customer.
 */
export interface CustomerFilters {
  questionnaireId: number | null;
  source: CustomerLeadSource | null;
  status: LeadStatus | null;
  /** Berlin calendar days of the lead's arrival, both inclusive. */
  receivedFrom: CalendarDay | null;
  receivedTo: CalendarDay | null;
  /** Only customers with a follow-up not yet done. */
  openFollowUp: boolean;
}

export const noCustomerFilters: CustomerFilters = {
  questionnaireId: null,
  source: null,
  status: null,
  receivedFrom: null,
  receivedTo: null,
  openFollowUp: false,
};

export const hasCustomerFilters = (filters: CustomerFilters): boolean =>
  filters.questionnaireId !== null ||
  filters.source !== null ||
  filters.status !== null ||
  filters.receivedFrom !== null ||
  filters.receivedTo !== null ||
  filters.openFollowUp;

/** The personal data staff may change; id and the timestamps stay the database's. */
export type CustomerFields = Pick<
  Customer,
  'first_name' | 'last_name' | 'email' | 'phone' | 'adress' | 'postcode' | 'city'
>;

/** The customer's own columns, sortable as the spec has them. */
export const customerFieldSortColumns = [
  'first_name',
  'last_name',
  'email',
  'city',
  'phone',
] as const;
/** The columns of their leads and follow-ups: customers without one come last either way. */
export const customerLeadSortColumns = [
  'last_lead_at',
  'lead_source',
  'questionnaire_title',
  'lead_status',
  'next_follow_up_at',
] as const;
export const customerSortColumns = [
  ...customerFieldSortColumns,
  ...customerLeadSortColumns,
] as const;
export type CustomerSortColumn = (typeof customerSortColumns)[number];

const isLeadSortColumn = (column: CustomerSortColumn) =>
  (customerLeadSortColumns as readonly string[]).includes(column);

export interface CustomerSort {
  column: CustomerSortColumn;
  ascending: boolean;
}

export interface CustomerPageRequest {
  /** Already trimmed and lower-cased; empty for every customer. */
  search: string;
  filters: CustomerFilters;
  /** 1-based. */
  page: number;
  size: number;
  sort: CustomerSort | null;
}

export interface CustomerPage {
  rows: ListedCustomer[];
  total: number;
}

export const customerKeys = {
  all: ['customers'] as const,
  pages: () => [...customerKeys.all, 'page'] as const,
  page: (request: CustomerPageRequest) => [...customerKeys.pages(), request] as const,
  detail: (id: number) => [...customerKeys.all, 'detail', id] as const,
  responses: (id: number) => [...customerKeys.all, 'responses', id] as const,
  newestLead: (id: number) => [...customerKeys.all, 'newest-lead', id] as const,
};

/** PostgREST's answer to a range that starts past the last row (hosted Supabase). */
const rangeNotSatisfiable = 'PGRST103';

/** The list function's arguments: only the filters given, the others take their default. */
export function customerListArgs(search: string, filters: CustomerFilters) {
  return {
    term: search,
    ...(filters.questionnaireId !== null && { form_id: filters.questionnaireId }),
    ...(filters.source !== null && { source: filters.source }),
    ...(filters.status !== null && { status: filters.status }),
    ...(filters.receivedFrom !== null && { received_from: filters.receivedFrom }),
    ...(filters.receivedTo !== null && { received_to: filters.receivedTo }),
    ...(filters.openFollowUp && { open_follow_up: true }),
  };
}

// The view's and the function's generated types know no nulls (a function's table) or only nulls
// (a view's columns): the columns of the leads and follow-ups are checked here.
const listedLead = z.object({
  lead_status: z.enum(leadStatuses).nullable(),
  last_lead_at: z.string().nullable(),
  lead_source: z.enum(submissionSources).nullable(),
  lead_channel: z.enum(leadChannels).nullable(),
  questionnaire_title: z.string().nullable(),
  next_follow_up_at: z.string().nullable(),
});

/** A row of customer_list_rows or desk_customer_list as the list shows it. */
function listed(row: object): ListedCustomer {
  return { ...(row as Customer), ...listedLead.parse(row) };
}

type Order = [string, { ascending: boolean; nullsFirst?: boolean }];

/** PostgREST's order of a page: the chosen column, else the newest customers first. */
function orderOf(sort: CustomerSort | null): Order[] {
  // id breaks ties so that a row never shows on two pages.
  if (!sort) {
    return [
      ['created_at', { ascending: false }],
      ['id', { ascending: false }],
    ];
  }
  const { column, ascending } = sort;
  return [
    isLeadSortColumn(column) ? [column, { ascending, nullsFirst: false }] : [column, { ascending }],
    ['id', { ascending }],
  ];
}

// With a search or a filter, the rows come through desk_customer_list; it writes a search term
// into the access log (once a minute per term, so paging and sorting are one search), and the
// count alone (a read-only HEAD) comes through customer_list, which writes nothing. Without
// either, the list is the view customer_list_rows, which PostgREST orders, cuts and counts like
// a table (no function builds every customer's row first: bench:gateway, 100,000 customers).
function listQuery(supabase: SupabaseClient<Database>, request: CustomerPageRequest, head = false) {
  const plain = !request.search && !hasCustomerFilters(request.filters);
  if (plain) return supabase.from('customer_list_rows').select('*', { count: 'exact', head });
  const args = customerListArgs(request.search, request.filters);
  return head
    ? supabase.rpc('customer_list', args, { count: 'exact', head })
    : supabase.rpc('desk_customer_list', args, { count: 'exact' });
}

export async function readCustomerPage(
  supabase: SupabaseClient<Database>,
  request: CustomerPageRequest,
): Promise<CustomerPage> {
  const from = (request.page - 1) * request.size;
  let query = listQuery(supabase, request);
  for (const [column, options] of orderOf(request.sort)) query = query.order(column, options);
  const { data, count, error } = await query.range(from, from + request.size - 1);
  if (error && errorCode(error) === rangeNotSatisfiable) {
    // A shared link to a page that no longer exists: report the total, the screen moves back.
    const counted = await listQuery(supabase, request, true);
    if (counted.error) throw counted.error;
    return { rows: [], total: counted.count ?? 0 };
  }
  if (error) throw error;
  const rows = (data ?? []).map(listed);
  return { rows, total: count ?? rows.length };
}

export function useCustomerPage(request: CustomerPageRequest) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: customerKeys.page(request),
    queryFn: () => readCustomerPage(supabase, request),
    // The table keeps the previous page while the next one loads instead of blanking.
    placeholderData: keepPreviousData,
  });
}

export function useCustomer(id: number | null) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: customerKeys.detail(id ?? 0),
    queryFn: async () => {
      // open_customer logs the look into the access log.
      const { data, error } = await supabase
        .rpc('open_customer', { customer_id: id ?? 0 })
        .maybeSingle();
      if (error) throw error;
      return data;
    },
    enabled: id !== null,
  });
}

export function useUpdateCustomer() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, fields }: { id: number; fields: CustomerFields }) => {
      const { data, error } = await supabase
        .from('users')
        .update(fields)
        .eq('id', id)
        .select()
        .single();
      if (error) throw error;
      return data;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(customerKeys.detail(saved.id), saved);
      // The notice of a lead's differing details compares with the saved customer.
      void queryClient.invalidateQueries({ queryKey: customerKeys.newestLead(saved.id) });
      void queryClient.invalidateQueries({ queryKey: customerKeys.pages() });
    },
  });
}

/**
 * Answers in the questionnaire's current order; answers whose question was deleted follow, in the
 * order they were given (answer id).
 */
export function orderAnswers(answers: readonly CustomerAnswer[]): CustomerAnswer[] {
  const rank = (answer: CustomerAnswer) => answer.questions?.sequence ?? Number.POSITIVE_INFINITY;
  return [...answers].sort((a, b) => rank(a) - rank(b) || a.id - b.id);
}

const responseColumns =
  'id, form_id, source, channel, create_date, captured_at, received_at, offer_info, terms_accepted, data_processing_consent, consent_version, cookie_consent, cookie_consent_version, salutation, title, birthdate, call_time, existing_customer, message, first_name, last_name, email, phone, adress, postcode, city, status, form_title, answers';

/**
 * Every response of one customer with its form's title and its answers: customer_leads reads
 * them as the database (staff cannot read the tables themselves) and logs the look into the
 * access log.
 */
function customerResponsesQuery(supabase: SupabaseClient<Database>, customerId: number) {
  return supabase
    .rpc('customer_leads', { customer_id: customerId })
    .select(responseColumns)
    .order('received_at', { ascending: false })
    .order('id', { ascending: false });
}

// Where a lead came from and where the office stands with it: text columns in the table, the
// domain's unions here.
const leadOrigin = z.object({
  source: z.enum(submissionSources),
  channel: z.enum(leadChannels),
  status: z.enum(leadStatuses),
});

/** An answer with its question's text when it was answered: kept when the question is deleted. */
const customerAnswer = z.object({
  id: z.number(),
  answer: z.string(),
  question_text: z.string(),
  question_id: z.number().nullable(),
  questions: z.object({ question: z.string(), sequence: z.number() }).nullable(),
});
export type CustomerAnswer = z.infer<typeof customerAnswer>;

// customer_leads returns a table: its columns are the lead's (nullable as in `responses`), its
// answers json, checked here.
type StoredResponse = Pick<
  Tables<'responses'>,
  | 'id'
  | 'form_id'
  | 'create_date'
  | 'captured_at'
  | 'received_at'
  | 'offer_info'
  | 'terms_accepted'
  | 'data_processing_consent'
  | 'consent_version'
  | 'cookie_consent'
  | 'cookie_consent_version'
  | 'salutation'
  | 'title'
  | 'birthdate'
  | 'call_time'
  | 'existing_customer'
  | 'message'
>;

/**
 * A response as the customer's answers screen shows it. The contact details are as the sender
 * typed them with this lead (not the customer's now), compared as the domain's LeadContact;
 * salutation to message are what the KFZ and contact forms ask besides (null when not asked);
 * cookie_consent lists the visitor's cookie categories, e.g. 'necessary,statistics'; status is
 * the office's current status of the lead. `forms` is null when the form is gone.
 */
export type CustomerResponse = StoredResponse &
  z.infer<typeof leadOrigin> &
  LeadContact & { forms: { title: string } | null; answers: CustomerAnswer[] };

export async function readCustomerResponses(
  supabase: SupabaseClient<Database>,
  customerId: number,
): Promise<CustomerResponse[]> {
  const { data, error } = await customerResponsesQuery(supabase, customerId);
  if (error) throw error;
  return data.map(({ form_title, answers, ...response }) => ({
    ...response,
    ...leadOrigin.parse(response),
    forms: form_title === null ? null : { title: form_title },
    answers: orderAnswers(z.array(customerAnswer).parse(answers)),
  }));
}

export function useCustomerResponses(customerId: number) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: customerKeys.responses(customerId),
    queryFn: () => readCustomerResponses(supabase, customerId),
  });
}
