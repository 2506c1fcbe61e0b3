import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tables } from '../../domain/database.types.ts';
import { exportKeys } from './export-keys.ts';
import { useSession } from './session.ts';
import { useSupabase } from './supabase-context.ts';

// Who may export: the signed-in account's right (can_export) and the admins' setting that gives
// it to staff (desk_settings.staff_can_export).

export type DeskSettings = Pick<Tables<'desk_settings'>, 'staff_can_export' | 'updated_at'>;

/** Whether the signed-in account may export (admin, or staff while the setting allows it). */
export function useCanExport() {
  const supabase = useSupabase();
  const { data: session } = useSession();
  const userId = session?.session?.user.id;
  return useQuery({
    queryKey: exportKeys.canExport(userId),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('can_export');
      if (error) throw error;
      return data === true;
    },
    enabled: Boolean(userId),
  });
}

export function useDeskSettings() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: exportKeys.settings(),
    queryFn: async () => {
      const { data, error } = await supabase
        .from('desk_settings')
        .select('staff_can_export, updated_at')
        .single();
      if (error) throw error;
      return data;
    },
  });
}

export function useSetStaffCanExport() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (staffCanExport: boolean) => {
      const { error } = await supabase
        .from('desk_settings')
        .update({ staff_can_export: staffCanExport })
        .eq('id', true);
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportKeys.all }),
  });
}
