import {
  isAuthApiError,
  isAuthRetryableFetchError,
  type Session,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { takeStoredSessionRefused } from './supabase-client.ts';
import { useSupabase } from './supabase-context.ts';
import type { Database } from '../../domain/database.types.ts';

// The signed-in staff session. supabase-js keeps it (localStorage `user`) and refreshes the
// access token by itself; React Query only mirrors it, so every screen reads the same state.

export const sessionKeys = {
  all: ['session'] as const,
  current: () => [...sessionKeys.all, 'current'] as const,
};

export interface SessionState {
  session: Session | null;
  /** The session ended without the user signing out: its refresh token was refused. */
  lost: boolean;
}

// An ended session is "lost" unless this page signed it out on purpose.
let signingOut = false;

async function readSession(supabase: SupabaseClient<Database>): Promise<SessionState> {
  const { data, error } = await supabase.auth.getSession();
  const refused = takeStoredSessionRefused() || Boolean(error);
  return { session: data.session, lost: refused && !data.session };
}

export function sessionQueryOptions(supabase: SupabaseClient<Database>) {
  return {
    queryKey: sessionKeys.current(),
    queryFn: () => readSession(supabase),
    // Changes arrive through onAuthStateChange (useSessionSync), never by polling.
    staleTime: Infinity,
    retry: false,
  } as const;
}

export function useSession() {
  return useQuery(sessionQueryOptions(useSupabase()));
}

function writeSession(queryClient: QueryClient, state: SessionState) {
  queryClient.setQueryData<SessionState>(sessionKeys.current(), state);
}

/** Mirrors supabase-js's auth events (sign-in, refresh, sign-out, other tabs) into the cache. */
export function useSessionSync() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      // The callback must not await supabase calls (supabase-js holds its lock while it runs).
      if (event === 'INITIAL_SESSION') return;
      if (event === 'SIGNED_OUT') {
        writeSession(queryClient, { session: null, lost: !signingOut });
        // Nothing fetched for the previous user may be shown to the next one.
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
        return;
      }
      writeSession(queryClient, { session, lost: false });
    });
    return () => data.subscription.unsubscribe();
  }, [supabase, queryClient]);
}

export type SignInFailure = 'credentials' | 'unconfirmed' | 'rate-limited' | 'unreachable';

/** Why a sign-in failed, in the terms the screen has a message for. */
export function signInFailure(error: unknown): SignInFailure {
  if (isAuthRetryableFetchError(error) || error instanceof TypeError) return 'unreachable';
  if (isAuthApiError(error)) {
    if (error.code === 'email_not_confirmed') return 'unconfirmed';
    if (error.status === 429 || error.code === 'over_request_rate_limit') return 'rate-limited';
    if (error.status >= 500) return 'unreachable';
  }
  return 'credentials';
}

export function useSignIn() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => {
      const { data, error } = await supabase.auth.signInWithPassword(credentials);
      if (error) throw error;
      return data.session;
    },
    onSuccess: (session) => writeSession(queryClient, { session, lost: false }),
  });
}

/**
 * Ends the session at the server and in this browser. When the server cannot be reached the
 * local session still goes: signing out must work on a train.
 */
export async function signOut(supabase: SupabaseClient<Database>): Promise<void> {
  signingOut = true;
  try {
    const { error } = await supabase.auth.signOut();
    if (error) await supabase.auth.signOut({ scope: 'local' });
  } finally {
    signingOut = false;
  }
}

export function useSignOut() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signOut(supabase),
    onSettled: () => writeSession(queryClient, { session: null, lost: false }),
  });
}
