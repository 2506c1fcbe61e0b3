import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { accessActions } from '../../domain/access-log.ts';
import { leadStatuses } from '../../domain/lead-status.ts';
import type { Database } from '../../domain/database.types.ts';
import { customerKeys } from './customers.ts';
import { useSupabase } from './supabase-context.ts';

// A person's rights (Art. 15, 17, 20 DSGVO) and the access log. The database does the work and
// writes the log (supabase/migrations/…_person_rights.sql): customer_data_export,
// customer_erasure_preview and erase_customer; the desk reads their JSON with the schemas below.

const text = z.string().nullable();

// Loose objects throughout: the person's JSON file holds everything the database returns, also
// fields added to the export later (the personal-data map's test checks the database's side).

/** A lead as the export holds it: its columns, its form's title and its answers. */
const exportedLead = z.looseObject({
  id: z.number(),
  client_id: z.string(),
  source: z.string(),
  form_title: text,
  received_at: z.string(),
  answers: z.array(z.looseObject({ question: z.string(), answer: z.string() })),
  status_history: z.array(
    z.looseObject({ status: z.enum(leadStatuses), note: text, at: z.string() }),
  ),
  notification_mails: z.array(z.looseObject({ state: z.string(), sent_at: text })),
});

/** Everything stored about one customer (customer_data_export). */
export const customerDataExport = z.looseObject({
  exported_at: z.string(),
  customer: z.looseObject({
    id: z.number(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: text,
    adress: text,
    postcode: text,
    city: text,
    created_at: z.string(),
    updated_at: z.string(),
  }),
  leads: z.array(exportedLead),
  notes: z.array(z.looseObject({ created_at: z.string(), updated_at: text, note: z.string() })),
  follow_ups: z.array(
    z.looseObject({ due_at: z.string(), text: z.string(), created_at: z.string(), done_at: text }),
  ),
  retention_holds: z
    .array(z.looseObject({ reason: z.string(), until: text, created_at: z.string() }))
    .default([]),
  consent_records: z.array(z.record(z.string(), z.unknown())),
  support_messages: z.array(z.looseObject({ created_at: z.string(), message: z.string() })),
  access_log: z.array(z.looseObject({ at: z.string(), action: z.enum(accessActions) })),
});
export type CustomerDataExport = z.infer<typeof customerDataExport>;
export type ExportedLead = z.infer<typeof exportedLead>;

/** What an erasure removes and keeps (customer_erasure_preview). */
const erasurePreview = z.object({
  leads: z.number(),
  answers: z.number(),
  files: z.number(),
  mails_waiting: z.number(),
  notes: z.number(),
  follow_ups: z.number(),
  status_changes: z.number(),
  support_messages: z.number(),
  consent_records_kept: z.number(),
  consent_kept_until: z.string(),
});
export type ErasurePreview = z.infer<typeof erasurePreview>;

/** What an erasure removed (erase_customer), as the erasure record keeps it. */
const erasureCounts = z.looseObject({ leads: z.number(), answers: z.number() });

const accessLogEntry = z.object({
  id: z.number(),
  at: z.string(),
  staff_email: text,
  action: z.enum(accessActions),
  customer_id: z.number().nullable(),
  detail: z.looseObject({
    term: z.string().optional(),
    term_redacted: z.boolean().optional(),
    columns: z.array(z.string()).optional(),
    deleted: z.boolean().optional(),
    created: z.boolean().optional(),
    merged_into: z.number().optional(),
    merged_from: z.number().optional(),
    response_id: z.number().optional(),
    status: z.enum(leadStatuses).optional(),
  }),
});
export type AccessLogEntry = z.infer<typeof accessLogEntry>;

/** Whose entries: one customer's, or one staff account's. */
export type AccessLogSubject = { customerId: number } | { userId: string };

export const personRightsKeys = {
  all: ['person-rights'] as const,
  preview: (customerId: number) => [...personRightsKeys.all, 'preview', customerId] as const,
  accessLogs: () => [...personRightsKeys.all, 'access-log'] as const,
  accessLog: (subject: AccessLogSubject) => [...personRightsKeys.accessLogs(), subject] as const,
};

/** The newest entries shown; older ones stay in the database until the retention job. */
export const accessLogLimit = 200;

export async function readCustomerDataExport(
  supabase: SupabaseClient<Database>,
  customerId: number,
): Promise<CustomerDataExport> {
  const { data, error } = await supabase.rpc('customer_data_export', { customer_id: customerId });
  if (error) throw error;
  return customerDataExport.parse(data);
}

/** Reads the export (and logs it); the screen turns it into the two files. */
export function useCustomerDataExport() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (customerId: number) => readCustomerDataExport(supabase, customerId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: personRightsKeys.accessLogs() }),
  });
}

export function useErasurePreview(customerId: number, enabled: boolean) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: personRightsKeys.preview(customerId),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('customer_erasure_preview', {
        customer_id: customerId,
      });
      if (error) throw error;
      return erasurePreview.parse(data);
    },
    enabled,
    // Counted when the dialog opens: a lead that arrived meanwhile is counted too.
    staleTime: 0,
  });
}

export function useEraseCustomer() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (customerId: number) => {
      const { data, error } = await supabase.rpc('erase_customer', { customer_id: customerId });
      if (error) throw error;
      return erasureCounts.parse(data);
    },
    onSuccess: (_counts, customerId) => {
      queryClient.removeQueries({ queryKey: customerKeys.detail(customerId) });
      // Marked stale, not asked again now: the list still shows the search for the person, and
      // asking it again would write their name into the access log right after it was removed
      // there. The screen leaves that search (see CustomersList), the next list is read fresh.
      void queryClient.invalidateQueries({ queryKey: customerKeys.all, refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: personRightsKeys.accessLogs() });
    },
  });
}

/** The newest entries of the access log about a customer or by a staff account (admins only). */
export function useAccessLog(subject: AccessLogSubject) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: personRightsKeys.accessLog(subject),
    queryFn: async (): Promise<AccessLogEntry[]> => {
      const query = supabase
        .from('access_log')
        .select('id, at, staff_email, action, customer_id, detail');
      const filtered =
        'customerId' in subject
          ? query.eq('customer_id', subject.customerId)
          : query.eq('user_id', subject.userId);
      const { data, error } = await filtered
        .order('at', { ascending: false })
        .order('id', { ascending: false })
        .limit(accessLogLimit);
      if (error) throw error;
      return z.array(accessLogEntry).parse(data);
    },
  });
}
