import type { SupabaseClient } from '@supabase/supabase-js';
import { useQuery } from '@tanstack/react-query';
import { readOverview } from './analysis.ts';
import { readQuestionnaireLeadCounts } from './questionnaire-leads.ts';
import { useSupabase } from './supabase-context.ts';
import type { Database } from '../../domain/database.types.ts';
import type { LeadSource } from '../../domain/database-enums.ts';

// The dashboard's live figures. Every number is counted by the database (functions that return
// counts only), never by downloading rows. Staff cannot read the leads' table itself: its
// figures come from security definer functions that check the role.

export const dashboardKeys = {
  all: ['dashboard'] as const,
  counts: (days: DashboardDays) => [...dashboardKeys.all, 'counts', days] as const,
  leadsPerForm: () => [...dashboardKeys.all, 'leads-per-form'] as const,
  newestLeads: () => [...dashboardKeys.all, 'newest-leads'] as const,
};

const day = 24 * 60 * 60 * 1000;

/**
 * The agent's calendar days the figures cover, as Analyse counts them (Berlin days, a lead's
 * time being when it was sent on the device): today, and the first of the last seven.
 */
export interface DashboardDays {
  today: string;
  weekStart: string;
}

const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * day).toISOString();

export interface DashboardCounts {
  leadsToday: number;
  leadsLastWeek: number;
  customers: number;
  /** Callback wishes (call_time) whose follow-up is not done yet, of any age. */
  callbacksWaiting: number;
}

export async function readCounts(
  supabase: SupabaseClient<Database>,
  days: DashboardDays,
): Promise<DashboardCounts> {
  // 'Heute' and 'Letzte 7 Tage' are Analyse's own figures for those days, so the two agree.
  const period = (dayFrom: string) =>
    readOverview(supabase, { dayFrom, dayTo: days.today, questionnaireId: null, channel: null });
  const [today, week, customers, callbacks] = await Promise.all([
    period(days.today),
    period(days.weekStart),
    // One count in the database: with 100,000 customers PostgREST's exact count of the table
    // also built a page of a thousand ids.
    supabase.rpc('customer_count'),
    supabase.rpc('callbacks_waiting'),
  ]);
  if (customers.error) throw customers.error;
  if (callbacks.error) throw callbacks.error;
  return {
    leadsToday: today.leads,
    leadsLastWeek: week.leads,
    customers: customers.data,
    callbacksWaiting: callbacks.data,
  };
}

export function useDashboardCounts(days: DashboardDays) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: dashboardKeys.counts(days),
    queryFn: () => readCounts(supabase, days),
  });
}

export interface FormLeads {
  formId: number;
  title: string;
  leads: number;
}

/** The questionnaires with their questionnaire leads that arrived in the last 30 days. */
export async function readLeadsPerForm(supabase: SupabaseClient<Database>): Promise<FormLeads[]> {
  const [forms, counts] = await Promise.all([
    supabase.from('forms').select('id, title').order('id'),
    readQuestionnaireLeadCounts(supabase, daysAgo(new Date(), 30)),
  ]);
  if (forms.error) throw forms.error;
  return forms.data.map((form) => ({
    formId: form.id,
    title: form.title,
    leads: counts.get(form.id) ?? 0,
  }));
}

export function useLeadsPerForm() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: dashboardKeys.leadsPerForm(),
    queryFn: () => readLeadsPerForm(supabase),
  });
}

export interface NewestLead {
  id: number;
  userId: number | null;
  name: string;
  /** Where it came from: a questionnaire, the KFZ callback or the contact form. */
  source: LeadSource;
  /** The questionnaire's title; null for a KFZ or contact lead (stored under form 1). */
  formTitle: string | null;
  receivedAt: string;
}

export async function readNewestLeads(supabase: SupabaseClient<Database>): Promise<NewestLead[]> {
  // Names, source and time only, as a list shows them; opening one opens the customer (logged).
  const { data, error } = await supabase.rpc('desk_newest_leads', { lead_limit: 5 });
  if (error) throw error;
  return data.map((row) => ({
    id: row.id,
    // A lead whose customer was deleted has none (the columns are nullable as in `responses`).
    userId: row.user_id ?? null,
    name: `${row.first_name} ${row.last_name}`,
    source: row.source,
    // Null for a KFZ or contact lead, and for a questionnaire deleted since (typed as a string).
    formTitle: (row.form_title as string | null) ?? null,
    receivedAt: row.received_at,
  }));
}

export function useNewestLeads() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: dashboardKeys.newestLeads(),
    queryFn: () => readNewestLeads(supabase),
  });
}
