import { isAuthApiError, type SupabaseClient } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { staffRoles, type StaffRole } from '../../domain/database-enums.ts';
import type { SameColumns } from './database-functions.ts';
import type { Database } from '../../domain/database.types.ts';
import { useSession } from './session.ts';
import { useSupabase } from './supabase-context.ts';

// Staff accounts and their roles. A new account is 'pending' until an admin enables it; the
// database enforces that (no customer data for pending accounts), the desk only explains it.

export { staffRoles, type StaffRole };

const staffRole = z.enum(staffRoles);

/** The roles as the desk names them (staff page, settings). */
export const staffRoleLabels: Record<StaffRole, string> = {
  pending: 'Wartet auf Freischaltung',
  staff: 'Mitarbeiter',
  admin: 'Admin',
};

// staff_accounts() returns a table whose columns the generated type cannot mark nullable.
const staffAccount = z.object({
  user_id: z.string(),
  email: z.string(),
  registered_at: z.string().nullable(),
  confirmed_at: z.string().nullable(),
  role: staffRole,
});
export type StaffAccount = z.infer<typeof staffAccount>;
true satisfies SameColumns<StaffAccount, 'staff_accounts', 'registered_at' | 'confirmed_at'>;

export const staffKeys = {
  all: ['staff'] as const,
  myRole: (userId: string | undefined) => [...staffKeys.all, 'my-role', userId ?? ''] as const,
  accounts: () => [...staffKeys.all, 'accounts'] as const,
};

/** SQLSTATE of the trigger that keeps the last admin (supabase/schemas/10_staff.sql). */
export const lastAdminCode = 'UL001';
/** SQLSTATE of refuse_staff_account for an account that is no longer pending. */
export const notPendingCode = 'UL002';
/** SQLSTATE of set_staff_role and refuse_staff_account for an account that is gone. */
export const noAccountCode = 'P0002';

async function readMyRole(
  supabase: SupabaseClient<Database>,
  userId: string,
): Promise<StaffRole | null> {
  const { data, error } = await supabase
    .from('staff')
    .select('role')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  return data ? staffRole.parse(data.role) : null;
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
      return z.array(staffAccount).parse(data ?? []);
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

/**
 * An admin enables a pending account: it becomes staff, and the database queues the German mail
 * that tells the colleague (staff_mail_outbox, sent by the hub's job).
 */
export function useApproveAccount() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (account: Pick<StaffAccount, 'user_id'>) => {
      const { error } = await supabase.rpc('set_staff_role', {
        user_id: account.user_id,
        role: 'staff',
      });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

/**
 * An admin refuses a pending registration: refuse_staff_account deletes the account (it cannot
 * sign in, and the address may register again). The database refuses it for an enabled account.
 */
export function useRefuseAccount() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (account: Pick<StaffAccount, 'user_id'>) => {
      const { error } = await supabase.rpc('refuse_staff_account', { user_id: account.user_id });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

/** The database's refusal code of a failed call, if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (isAuthApiError(error)) return error.code;
  if (error && typeof error === 'object' && 'code' in error) {
    return typeof error.code === 'string' ? error.code : undefined;
  }
  return undefined;
}
