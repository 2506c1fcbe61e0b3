import type { SupabaseClient } from '@supabase/supabase-js';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import type { SameColumns } from './database-functions.ts';
import type { Database } from '../../domain/database.types.ts';
import { leadStatusKeys } from './lead-status.ts';
import { useSupabase } from './supabase-context.ts';

// Follow-ups (Wiedervorlage): the database decides who made one and who marked it done, and
// checks the assignee (supabase/migrations/…_follow_ups_notes.sql). The dashboard's work list,
// the bell and the follow-up list share their queries (follow_up_counts, follow_up_list), so
// they always count the same follow-ups; the database counts and pages them, however many are
// open (…_follow_up_work_list.sql, …_desk_volume.sql).

/** Whose follow-ups a list shows: the caller's and nobody's, the caller's, nobody's, all. */
export const followUpAssignedFilters = ['mine_or_unassigned', 'mine', 'unassigned', 'all'] as const;
export type FollowUpAssignedFilter = (typeof followUpAssignedFilters)[number];

/**
 * When: every open one, overdue, due for the rest of today, for the rest of this week (Monday to
 * Sunday in Berlin, today included), or done.
 */
export const followUpDueFilters = ['open', 'overdue', 'today', 'week', 'done'] as const;
export type FollowUpDueFilter = (typeof followUpDueFilters)[number];

export interface FollowUpPageRequest {
  assigned: FollowUpAssignedFilter;
  due: FollowUpDueFilter;
  /** 1-based. */
  page: number;
  size: number;
}

export const followUpKeys = {
  all: ['follow-ups'] as const,
  counts: () => [...followUpKeys.all, 'counts'] as const,
  pages: () => [...followUpKeys.all, 'page'] as const,
  page: (request: FollowUpPageRequest) => [...followUpKeys.pages(), request] as const,
  customers: () => [...followUpKeys.all, 'customer'] as const,
  customer: (customerId: number) => [...followUpKeys.customers(), customerId] as const,
};

// The functions return tables whose nullable columns the generated types cannot mark.
const followUp = z.object({
  id: z.number(),
  customer_id: z.number(),
  customer_name: z.string(),
  response_id: z.number().nullable(),
  due_at: z.string(),
  body: z.string(),
  automatic: z.boolean(),
  assignee: z.string().nullable(),
  assignee_name: z.string().nullable(),
  overdue: z.boolean(),
});
export type FollowUp = z.infer<typeof followUp>;
true satisfies SameColumns<
  FollowUp,
  'customer_follow_ups',
  'response_id' | 'assignee' | 'assignee_name'
>;

/**
 * After any change of a follow-up: every follow-up list, and the leads' 'Verlauf' (lead_activity
 * records each follow-up made, changed, done and opened again), so the lead page is current at
 * once.
 */
export function invalidateFollowUpViews(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: followUpKeys.all }),
    queryClient.invalidateQueries({ queryKey: leadStatusKeys.activities() }),
  ]);
}

const listedFollowUp = followUp.extend({
  done_at: z.string().nullable(),
  done_by_name: z.string().nullable(),
});
/** A row of the follow-up list: open or done. */
export type ListedFollowUp = z.infer<typeof listedFollowUp>;
/** follow_up_list's row: a listed follow-up, and the number of all that match. */
const pagedFollowUp = listedFollowUp.extend({ total: z.number() });
true satisfies SameColumns<
  z.infer<typeof pagedFollowUp>,
  'follow_up_list',
  'response_id' | 'assignee' | 'assignee_name' | 'done_at' | 'done_by_name'
>;

export interface FollowUpCounts {
  /** The caller's and nobody's open follow-ups that are overdue. */
  overdue: number;
  /** ... due for the rest of today. */
  today: number;
  /** ... due for the rest of this week, today included. */
  thisWeek: number;
  /** Every open follow-up without an assignee. */
  unassigned: number;
}

export async function readFollowUpCounts(
  supabase: SupabaseClient<Database>,
): Promise<FollowUpCounts> {
  const { data, error } = await supabase.rpc('follow_up_counts').single();
  if (error) throw error;
  return {
    overdue: data.overdue,
    today: data.today,
    thisWeek: data.this_week,
    unassigned: data.unassigned,
  };
}

/** The work list's counts; asked again every minute, so a follow-up falls due on time. */
export function useFollowUpCounts(enabled = true) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: followUpKeys.counts(),
    queryFn: () => readFollowUpCounts(supabase),
    enabled,
    refetchInterval: 60_000,
  });
}

export interface FollowUpPage {
  rows: ListedFollowUp[];
  total: number;
}

/**
 * One page of the follow-up list, by due time (the earliest first; done ones the latest first),
 * with the number of all that match. The database orders, pages and counts (follow_up_list's
 * page_size and page_offset), so a page costs the same with 5,000 open follow-ups as with 50.
 */
export async function readFollowUpPage(
  supabase: SupabaseClient<Database>,
  request: FollowUpPageRequest,
): Promise<FollowUpPage> {
  const args = { assigned: request.assigned, due: request.due };
  const { data, error } = await supabase.rpc('follow_up_list', {
    ...args,
    page_size: request.size,
    page_offset: (request.page - 1) * request.size,
  });
  if (error) throw error;
  const page = z.array(pagedFollowUp).parse(data ?? []);
  if (page.length === 0 && request.page > 1) {
    // A page that no longer exists (the last ones were done): the total, the screen moves back.
    const first = await supabase.rpc('follow_up_list', { ...args, page_size: 1 });
    if (first.error) throw first.error;
    return { rows: [], total: z.array(pagedFollowUp).parse(first.data ?? [])[0]?.total ?? 0 };
  }
  return {
    rows: page.map(({ total: _total, ...row }) => row),
    total: page[0]?.total ?? 0,
  };
}

/** The list, the dashboard's short lists and the bell's; asked again every minute. */
export function useFollowUpPage(request: FollowUpPageRequest, enabled = true) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: followUpKeys.page(request),
    queryFn: () => readFollowUpPage(supabase, request),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

/** A customer's open follow-ups, whoever they are for. */
export async function readCustomerFollowUps(
  supabase: SupabaseClient<Database>,
  customerId: number,
): Promise<FollowUp[]> {
  const { data, error } = await supabase.rpc('customer_follow_ups', { of_customer: customerId });
  if (error) throw error;
  return z.array(followUp).parse(data);
}

export function useCustomerFollowUps(customerId: number) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: followUpKeys.customer(customerId),
    queryFn: () => readCustomerFollowUps(supabase, customerId),
  });
}

export interface NewFollowUp {
  customerId: number;
  responseId: number | null;
  /** ISO instant. */
  dueAt: string;
  assignee: string | null;
  body: string;
}

export async function createFollowUp(
  supabase: SupabaseClient<Database>,
  input: NewFollowUp,
): Promise<number> {
  const { data, error } = await supabase
    .from('follow_ups')
    .insert({
      customer_id: input.customerId,
      response_id: input.responseId,
      due_at: input.dueAt,
      assignee: input.assignee,
      body: input.body,
    })
    .select('id')
    .single();
  if (error) throw error;
  return data.id;
}

export function useCreateFollowUp() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewFollowUp) => createFollowUp(supabase, input),
    onSuccess: () => invalidateFollowUpViews(queryClient),
  });
}

/** How many of today's and of the overdue follow-ups the dashboard and the bell show. */
export const workListShown = 5;

/**
 * The caller's and nobody's follow-ups due for the rest of today, or overdue: the first few by
 * due time (the oldest overdue first), with how many there are. The dashboard and the bell share
 * them.
 */
export function useWorkListPage(due: 'overdue' | 'today', enabled = true) {
  return useFollowUpPage(
    { assigned: 'mine_or_unassigned', due, page: 1, size: workListShown },
    enabled,
  );
}

/** Marks a follow-up done; false when it was done already (by a colleague). */
export async function completeFollowUp(
  supabase: SupabaseClient<Database>,
  id: number,
): Promise<boolean> {
  const { data, error } = await supabase.rpc('complete_follow_up', { follow_up_id: id });
  if (error) throw error;
  return data;
}

export function useCompleteFollowUp() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => completeFollowUp(supabase, id),
    // Gone from every list at once; the lists are read again behind it.
    onMutate: (id) => withoutFollowUps(queryClient, [id]),
    onSettled: () => invalidateFollowUpViews(queryClient),
  });
}

/** Takes follow-ups marked done off the open lists at once, before they are read again. */
function withoutFollowUps(queryClient: QueryClient, ids: number[]) {
  const done = new Set(ids);
  const without = (list: FollowUp[] | undefined) => list?.filter((item) => !done.has(item.id));
  queryClient.setQueriesData<FollowUp[]>({ queryKey: followUpKeys.customers() }, without);
  for (const [key, page] of queryClient.getQueriesData<FollowUpPage>({
    queryKey: followUpKeys.pages(),
  })) {
    const request = key[2] as FollowUpPageRequest | undefined;
    if (!page || request?.due === 'done') continue;
    const rows = page.rows.filter((item) => !done.has(item.id));
    queryClient.setQueryData<FollowUpPage>(key, {
      rows,
      total: Math.max(0, page.total - (page.rows.length - rows.length)),
    });
  }
}

/** Marks several follow-ups done at once; the number marked (others were done already). */
export async function completeFollowUps(
  supabase: SupabaseClient<Database>,
  ids: number[],
): Promise<number> {
  const { data, error } = await supabase.rpc('complete_follow_ups', { follow_up_ids: ids });
  if (error) throw error;
  return data;
}

export function useCompleteFollowUps() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => completeFollowUps(supabase, ids),
    onMutate: (ids) => withoutFollowUps(queryClient, ids),
    onSettled: () => invalidateFollowUpViews(queryClient),
  });
}

export interface FollowUpAssignment {
  ids: number[];
  /** The colleague's account, or null for nobody (open for all). */
  assignee: string | null;
}

/** Gives follow-ups to a colleague (or to nobody); the number changed. */
export async function assignFollowUps(
  supabase: SupabaseClient<Database>,
  { ids, assignee }: FollowUpAssignment,
): Promise<number> {
  const { data, error } = await supabase
    .from('follow_ups')
    .update({ assignee })
    .in('id', ids)
    .select('id');
  if (error) throw error;
  return data.length;
}

export function useAssignFollowUps() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assignment: FollowUpAssignment) => assignFollowUps(supabase, assignment),
    onSettled: () => invalidateFollowUpViews(queryClient),
  });
}

/** Opens a follow-up marked done by mistake again; false when it was open. */
export async function reopenFollowUp(
  supabase: SupabaseClient<Database>,
  id: number,
): Promise<boolean> {
  const { data, error } = await supabase.rpc('reopen_follow_up', { follow_up_id: id });
  if (error) throw error;
  return data;
}

export function useReopenFollowUp() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => reopenFollowUp(supabase, id),
    onSettled: () => invalidateFollowUpViews(queryClient),
  });
}
