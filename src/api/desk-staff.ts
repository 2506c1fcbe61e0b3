import { isAuthApiError, type SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from './desk-session.ts';
import { useSupabase } from './supabase-context.ts';

// Staff accounts and their roles. A new account is 'pending' until an admin enables it; the
// database enforces that (no customer data for pending accounts), the desk only explains it.

export type StaffRole = 'pending' | 'staff' | 'admin';

export const staffRoles: readonly StaffRole[] = ['pending', 'staff', 'admin'];

export interface StaffAccount {
  user_id: string;
  email: string;
  registered_at: string | null;
  confirmed_at: string | null;
  role: StaffRole;
}

export const staffKeys = {
  all: ['staff'] as const,
  myRole: (userId: string | undefined) => [...staffKeys.all, 'my-role', userId ?? ''] as const,
  accounts: () => [...staffKeys.all, 'accounts'] as const,
};

/** SQLSTATE of the trigger that keeps the last admin (supabase/migrations/…_desk_core.sql). */
export const lastAdminCode = 'UL001';

async function readMyRole(supabase: SupabaseClient, userId: string): Promise<StaffRole | null> {
  const { data, error } = await supabase
    .from('staff')
    .select('role')
    .eq('user_id', userId)
    .maybeSingle<{ role: StaffRole }>();
  if (error) throw error;
  return data?.role ?? null;
}

/** The signed-in account's own role; `undefined` while it loads or without a session. */
export function useMyRole() {
  const supabase = useSupabase();
  const { data: session } = useSession();
  const userId = session?.session?.user.id;
  return useQuery({
    queryKey: staffKeys.myRole(userId),
    queryFn: () => readMyRole(supabase, userId ?? ''),
    enabled: Boolean(userId),
  });
}

/** Every account with its role: admins only (the rpc refuses anyone else). */
export function useStaffAccounts(enabled = true) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: staffKeys.accounts(),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('staff_accounts');
      if (error) throw error;
      return (data ?? []) as StaffAccount[];
    },
    enabled,
  });
}

export function useSetStaffRole() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: { userId: string; role: StaffRole }) => {
      const { error } = await supabase.rpc('set_staff_role', {
        user_id: change.userId,
        role: change.role,
      });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

/** The database's refusal code of a failed call, if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (isAuthApiError(error)) return error.code;
  if (error && typeof error === 'object' && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
