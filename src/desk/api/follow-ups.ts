import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { SameColumns } from './database-functions.ts';
import type { Database } from '../../domain/database.types.ts';
import { leadStatusKeys } from './lead-status.ts';
import { useSupabase } from './supabase-context.ts';

// Follow-ups (Wiedervorlage): the database decides who made one and who marked it done, and
// checks the assignee (supabase/migrations/…_follow_ups_notes.sql). 'Heute fällig' and the bell
// share one query, so they always count the same follow-ups.

export const followUpKeys = {
  all: ['follow-ups'] as const,
  due: () => [...followUpKeys.all, 'due'] as const,
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
  'due_follow_ups',
  'response_id' | 'assignee' | 'assignee_name'
>;
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

/** The caller's and the unassigned open follow-ups due by the end of today in Berlin. */
export async function readDueFollowUps(supabase: SupabaseClient<Database>): Promise<FollowUp[]> {
  const { data, error } = await supabase.rpc('due_follow_ups');
  if (error) throw error;
  return z.array(followUp).parse(data);
}

/** 'Heute fällig' and the bell; asked again every minute, so a follow-up falls due on time. */
export function useDueFollowUps(enabled = true) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: followUpKeys.due(),
    queryFn: () => readDueFollowUps(supabase),
    enabled,
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
    onMutate: (id) => {
      const without = (list: FollowUp[] | undefined) => list?.filter((item) => item.id !== id);
      queryClient.setQueriesData<FollowUp[]>({ queryKey: followUpKeys.due() }, without);
      queryClient.setQueriesData<FollowUp[]>({ queryKey: followUpKeys.customers() }, without);
    },
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
