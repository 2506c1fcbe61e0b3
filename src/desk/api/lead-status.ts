import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { leadStatuses, type LeadStatus } from '../../domain/lead-status.ts';
import type { SameColumns } from './database-functions.ts';
import type { Database } from '../../domain/database.types.ts';
import { analysisKeys } from './analysis.ts';
import { customerKeys, type CustomerResponse } from './customers.ts';
import { dashboardKeys } from './dashboard.ts';
import { useSupabase } from './supabase-context.ts';

// A lead's status and its history (migration 20261126100000_lead_status.sql). The database sets
// the status and writes the history row and the access log in one call (set_lead_status); the
// desk reads the history per customer and the counts per status through functions that check
// the role.

export const leadStatusKeys = {
  all: ['lead-status'] as const,
  histories: () => [...leadStatusKeys.all, 'history'] as const,
  history: (customerId: number) => [...leadStatusKeys.histories(), customerId] as const,
  counts: () => [...leadStatusKeys.all, 'counts'] as const,
  activities: () => [...leadStatusKeys.all, 'activity'] as const,
  activity: (customerId: number) => [...leadStatusKeys.activities(), customerId] as const,
};

/** The most a note may hold (lead_status_changes.note). */
export const noteMaxLength = 1000;

const leadStatus = z.enum(leadStatuses);

// A returned table's columns are typed non-null by the generator; the name is null when the
// account that made the change is gone.
const historyRow = z.object({
  id: z.coerce.number().int(),
  response_id: z.number().int(),
  status: leadStatus,
  note: z.string().nullable(),
  changed_at: z.string(),
  changed_by_name: z.string().nullable(),
});
export type LeadStatusChange = z.infer<typeof historyRow>;
true satisfies SameColumns<LeadStatusChange, 'lead_status_history', 'note' | 'changed_by_name'>;

/** Every status change of the customer's leads, oldest first per lead. */
export async function readLeadStatusHistory(
  supabase: SupabaseClient<Database>,
  customerId: number,
): Promise<LeadStatusChange[]> {
  const { data, error } = await supabase.rpc('lead_status_history', { customer_id: customerId });
  if (error) throw error;
  return z.array(historyRow).parse(data ?? []);
}

// What else happened to a lead (lead_activity, 20261128120000_names_and_labels.sql): the new-lead
// mail sent, follow-ups made (with their first text, due time and assignee), changed (the new
// values of the fields `changed` names), done and opened again. by_name is null for the automatic
// follow-up, for the service role and for an account that is gone; assignee_name is null for
// nobody (or an account that is gone).
const activityRow = z.object({
  response_id: z.number().int(),
  kind: z.enum([
    'mail_sent',
    'follow_up_created',
    'follow_up_changed',
    'follow_up_done',
    'follow_up_reopened',
  ]),
  at: z.string(),
  by_name: z.string().nullable(),
  body: z.string().nullable(),
  due_at: z.string().nullable(),
  assignee_name: z.string().nullable(),
  changed: z.array(z.enum(['body', 'assignee', 'due_at'])).nullable(),
});
export type LeadActivity = z.infer<typeof activityRow>;
true satisfies SameColumns<
  LeadActivity,
  'lead_activity',
  'by_name' | 'body' | 'due_at' | 'assignee_name' | 'changed'
>;

export async function readLeadActivity(
  supabase: SupabaseClient<Database>,
  customerId: number,
): Promise<LeadActivity[]> {
  const { data, error } = await supabase.rpc('lead_activity', { customer_id: customerId });
  if (error) throw error;
  return z.array(activityRow).parse(data ?? []);
}

export function useLeadActivity(customerId: number) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: leadStatusKeys.activity(customerId),
    queryFn: () => readLeadActivity(supabase, customerId),
    // A follow-up is marked done on the dashboard or in the sidebar: read afresh on every visit.
    staleTime: 0,
  });
}

export function useLeadStatusHistory(customerId: number) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: leadStatusKeys.history(customerId),
    queryFn: () => readLeadStatusHistory(supabase, customerId),
  });
}

export interface LeadStatusChangeRequest {
  responseId: number;
  status: LeadStatus;
  /** Trimmed by the database; empty is no note. */
  note: string;
}

/**
 * Sets the status. Setting the status a lead already has records the note only; without a note
 * it changes nothing (and the database writes no row).
 */
export async function setLeadStatus(
  supabase: SupabaseClient<Database>,
  change: LeadStatusChangeRequest,
): Promise<void> {
  const { error } = await supabase.rpc('set_lead_status', {
    response_id: change.responseId,
    status: change.status,
    note: change.note,
  });
  if (error) throw error;
}

/**
 * The change of one customer's lead. The lead shows its new status at once (the answers' cache
 * is updated before the call and put back when it fails); the history, the dashboard's counts
 * and Analyse are read again afterwards.
 */
export function useSetLeadStatus(customerId: number) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const responsesKey = customerKeys.responses(customerId);
  return useMutation({
    mutationFn: (change: LeadStatusChangeRequest) => setLeadStatus(supabase, change),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: responsesKey });
      const before = queryClient.getQueryData<CustomerResponse[]>(responsesKey);
      queryClient.setQueryData<CustomerResponse[]>(responsesKey, (leads) =>
        leads?.map((lead) =>
          lead.id === change.responseId ? { ...lead, status: change.status } : lead,
        ),
      );
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(responsesKey, context.before);
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: leadStatusKeys.history(customerId) }),
        queryClient.invalidateQueries({ queryKey: responsesKey }),
        // The customer list shows and filters by status.
        queryClient.invalidateQueries({ queryKey: customerKeys.pages() }),
        queryClient.invalidateQueries({ queryKey: leadStatusKeys.counts() }),
        queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
        queryClient.invalidateQueries({ queryKey: analysisKeys.all }),
      ]);
    },
  });
}

const countRow = z.object({
  status: leadStatus,
  leads: z.coerce.number().int().nonnegative(),
});
true satisfies SameColumns<z.infer<typeof countRow>, 'lead_status_counts'>;

/** Leads per status, every status (0 included), in the pipeline's order. */
export async function readLeadStatusCounts(
  supabase: SupabaseClient<Database>,
): Promise<Record<LeadStatus, number>> {
  const { data, error } = await supabase.rpc('lead_status_counts');
  if (error) throw error;
  const counts = Object.fromEntries(leadStatuses.map((status) => [status, 0])) as Record<
    LeadStatus,
    number
  >;
  for (const row of z.array(countRow).parse(data ?? [])) counts[row.status] = row.leads;
  return counts;
}

export function useLeadStatusCounts() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: leadStatusKeys.counts(),
    queryFn: () => readLeadStatusCounts(supabase),
  });
}
