import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { LeadMailMode } from '../../domain/database-enums.ts';
import type { Tables } from '../../domain/database.types.ts';
import { type SameColumns } from './database-functions.ts';
import { useSupabase } from './supabase-context.ts';

// The new-lead mail's setting (docs/lead-mail.md) and its queue's counts. Admins only: row-level
// security shows others no setting, lead_mail_overview refuses.

export type LeadMailSettings = Pick<
  Tables<'lead_mail_settings'>,
  'enabled' | 'address' | 'mode' | 'digest_hour' | 'updated_at'
>;

const overviewRow = z.object({
  waiting: z.number().int(),
  failed: z.number().int(),
  last_sent_at: z.string().nullable(),
});
true satisfies SameColumns<z.infer<typeof overviewRow>, 'lead_mail_overview', 'last_sent_at'>;
export type LeadMailOverview = z.infer<typeof overviewRow>;

export const leadMailKeys = {
  all: ['lead-mail'] as const,
  settings: () => [...leadMailKeys.all, 'settings'] as const,
  overview: () => [...leadMailKeys.all, 'overview'] as const,
};

export function useLeadMailSettings() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: leadMailKeys.settings(),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('lead_mail_settings')
        .select('enabled, address, mode, digest_hour, updated_at')
        .single();
      if (error) throw error;
      return data satisfies LeadMailSettings;
    },
  });
}

/** How many mails wait and how many were given up (after the worker's last attempt). */
export function useLeadMailOverview() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: leadMailKeys.overview(),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('lead_mail_overview');
      if (error) throw error;
      return overviewRow.parse(z.array(z.unknown()).parse(data)[0]);
    },
  });
}

export interface LeadMailChange {
  enabled: boolean;
  /** null clears the address (allowed only while the mail is off). */
  address: string | null;
  mode: LeadMailMode;
  digestHour: number;
}

export function useSaveLeadMailSettings() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: LeadMailChange) => {
      const { error } = await supabase
        .from('lead_mail_settings')
        .update({
          enabled: change.enabled,
          address: change.address,
          mode: change.mode,
          digest_hour: change.digestHour,
        })
        .eq('id', true)
        .select('enabled')
        .single();
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadMailKeys.all }),
  });
}
