import {
  AuthSessionMissingError,
  isAuthApiError,
  isAuthRetryableFetchError,
  isAuthWeakPasswordError,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Database } from '../../domain/database.types.ts';
import { useSession } from './session.ts';
import { staffKeys } from './staff.ts';
import { useSupabase } from './supabase-context.ts';

// The signed-in account's own settings: its display name (public.staff, set through
// set_display_name) and its password (checked by a sign-in, then GoTrue's PUT /user).

export const accountKeys = {
  all: ['account'] as const,
  name: (userId: string | undefined) => [...accountKeys.all, 'name', userId ?? ''] as const,
};

async function readDisplayName(
  supabase: SupabaseClient<Database>,
  userId: string,
): Promise<string | null> {
  const { data, error } = await supabase
    .from('staff')
    .select('display_name')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  return data?.display_name ?? null;
}

/** The account's own display name, null when it has none (colleagues then see the e-mail). */
export function useOwnDisplayName() {
  const supabase = useSupabase();
  const userId = useSession().data?.session?.user.id;
  return useQuery({
    queryKey: accountKeys.name(userId),
    queryFn: () => readDisplayName(supabase, userId ?? ''),
    enabled: Boolean(userId),
  });
}

export function useSetDisplayName() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useSession().data?.session?.user.id;
  return useMutation({
    mutationFn: async (name: string) => {
      const { data, error } = await supabase.rpc('set_display_name', { name });
      if (error) throw error;
      return data;
    },
    onSuccess: (name) => {
      queryClient.setQueryData(accountKeys.name(userId), name);
      // Lists that show who did something read the name too.
      void queryClient.invalidateQueries({ queryKey: staffKeys.all });
    },
  });
}

export type PasswordChangeFailure =
  | { kind: 'current-missing' | 'current-wrong' | 'same' | 'rate-limited' | 'session' }
  | { kind: 'weak'; reasons: string[] }
  | { kind: 'unreachable' };

/** Why GoTrue refused a new password, in the terms the screens have messages for. */
export function passwordChangeFailure(error: unknown): PasswordChangeFailure {
  if (isAuthWeakPasswordError(error)) return { kind: 'weak', reasons: error.reasons };
  if (isAuthRetryableFetchError(error) || !isAuthApiError(error)) {
    // supabase-js reports a session the server no longer knows as a missing session.
    if (error instanceof Error && error.name === 'AuthSessionMissingError') {
      return { kind: 'session' };
    }
    return { kind: 'unreachable' };
  }
  if (error.code === 'current_password_required') return { kind: 'current-missing' };
  if (error.code === 'current_password_invalid' || error.code === 'invalid_credentials') {
    return { kind: 'current-wrong' };
  }
  if (error.code === 'same_password') return { kind: 'same' };
  if (error.code === 'weak_password') return { kind: 'weak', reasons: ['length'] };
  if (error.status === 429) return { kind: 'rate-limited' };
  if (error.status === 401 || error.status === 403) return { kind: 'session' };
  return { kind: 'unreachable' };
}

/**
 * A new password for the signed-in account, after the current one proved right.
 *
 * GoTrue has a wire for that (`updateUser({password, current_password})`), but it checks the
 * field only while the project has UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD on, and otherwise
 * ignores it: on a hosted project without that setting a stolen open session could set a new
 * password. So the current password is first checked by signing in with it (the sign-in's
 * throttle applies: "limits as for sign-in"), which replaces this tab's session with a new one of
 * the same account; then the new password is set on it, still with `current_password`. GoTrue then
 * ends every other session of the account, the replaced one included.
 */
export function useChangePassword() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async (change: { current: string; password: string }) => {
      const { data } = await supabase.auth.getSession();
      const email = data.session?.user.email;
      if (!email) throw new AuthSessionMissingError();
      const signedIn = await supabase.auth.signInWithPassword({ email, password: change.current });
      if (signedIn.error) throw signedIn.error;
      const { error } = await supabase.auth.updateUser({
        password: change.password,
        current_password: change.current,
      });
      if (error) throw error;
    },
  });
}
