import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { type SameColumns } from './database-functions.ts';
import { useSupabase } from './supabase-context.ts';

// Retention (docs/retention-and-person-rights.md): what the next daily run will remove, and what
// the last one removed. Admins only; row-level security and apply_retention refuse everyone else.

export const retentionKinds = [
  'leads',
  'answers',
  'customers',
  'consent_records',
  'files',
  'access_log',
] as const;
export type RetentionKind = (typeof retentionKinds)[number];

// The generator types every column of a `returns table` as required; `oldest` is null when
// nothing of a kind is due.
const previewRow = z.object({
  kind: z.enum(retentionKinds),
  items: z.number().int(),
  oldest: z.string().nullable(),
});
true satisfies SameColumns<z.infer<typeof previewRow>, 'apply_retention', 'oldest'>;
export type RetentionPreviewRow = z.infer<typeof previewRow>;

const removedCounts = z.partialRecord(z.enum(retentionKinds), z.number().int());

const lastRun = z.object({
  started_at: z.string(),
  finished_at: z.string().nullable(),
  removed: removedCounts,
});
export type RetentionRun = z.infer<typeof lastRun>;

export const retentionKeys = {
  all: ['retention'] as const,
  preview: () => [...retentionKeys.all, 'preview'] as const,
  lastRun: () => [...retentionKeys.all, 'last-run'] as const,
  holds: () => [...retentionKeys.all, 'holds'] as const,
};

/** The dry run: what a run now would remove, per kind, with the oldest date among it. */
export function useRetentionPreview() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: retentionKeys.preview(),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('apply_retention', { p_dry_run: true });
      if (error) throw error;
      return z.array(previewRow).parse(data);
    },
  });
}

/** The newest real run, or null before the first. */
export function useLastRetentionRun() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: retentionKeys.lastRun(),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('retention_runs')
        .select('started_at, finished_at, removed')
        .order('started_at', { ascending: false })
        .limit(1)
        .maybeSingle();
      if (error) throw error;
      return data ? lastRun.parse(data) : null;
    },
  });
}

/** How many items a run removed in all. */
export function removedTotal(run: RetentionRun): number {
  return Object.values(run.removed).reduce((sum, items) => sum + items, 0);
}

/** Every retention hold with its customer, newest first (a customer deleted takes its holds). */
export function useRetentionHolds() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: retentionKeys.holds(),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('retention_holds')
        .select('id, reason, until, created_at, users(first_name, last_name, email)')
        .order('created_at', { ascending: false })
        .order('id', { ascending: false });
      if (error) throw error;
      return data;
    },
  });
}
export type RetentionHold = NonNullable<ReturnType<typeof useRetentionHolds>['data']>[number];

export interface NewRetentionHold {
  email: string;
  reason: string;
  /** 'YYYY-MM-DD', or '' for a hold without an end. */
  until: string;
}

/**
 * Finds the customer by e-mail address (stored lower-cased) and puts the hold on them. Answers
 * 'unknown_customer' when there is none, rather than failing: the admin mistyped, nothing broke.
 */
export function useAddRetentionHold() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (hold: NewRetentionHold): Promise<'added' | 'unknown_customer'> => {
      const customer = await supabase
        .from('users')
        .select('id')
        .eq('email', hold.email.trim().toLowerCase())
        .maybeSingle();
      if (customer.error) throw customer.error;
      if (!customer.data) return 'unknown_customer';
      const { error } = await supabase.from('retention_holds').insert({
        customer_id: customer.data.id,
        reason: hold.reason.trim(),
        until: hold.until === '' ? null : hold.until,
      });
      if (error) throw error;
      return 'added';
    },
    // A hold changes what the next run removes.
    onSettled: () => queryClient.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}

export function useLiftRetentionHold() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (holdId: number) => {
      const { error } = await supabase.from('retention_holds').delete().eq('id', holdId);
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}
