import { isAuthApiError, isAuthRetryableFetchError } from '@supabase/supabase-js';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { signOut } from './session.ts';
import { useSupabase } from './supabase-context.ts';

// 'Passwort vergessen?': GoTrue mails a link (POST /recover) to the desk's new-password page
// (`?token_hash=…&type=recovery`), which redeems it for a session (verifyOtp, POST /verify) and
// sets the new password on that session (updateUser, PUT /user).

export type RecoveryRequestFailure = 'invalid-email' | 'rate-limited' | 'unreachable';

/** Why a request for a recovery mail failed; an unknown address is no failure (no enumeration). */
export function recoveryRequestFailure(error: unknown): RecoveryRequestFailure {
  if (isAuthRetryableFetchError(error) || !isAuthApiError(error)) return 'unreachable';
  if (error.status === 429) return 'rate-limited';
  if (error.code === 'validation_failed' || error.code === 'email_address_invalid') {
    return 'invalid-email';
  }
  return 'unreachable';
}

export function useRequestRecovery() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async (email: string) => {
      // No redirectTo: the link is the project's own (PUBLIC_URL, or the hosted project's
      // "Reset password" template), never an address a request names.
      const { error } = await supabase.auth.resetPasswordForEmail(email);
      if (error) throw error;
    },
  });
}

/** True when the link was used, replaced by a newer one, expired or never was one. */
export function isInvalidRecoveryLink(error: unknown): boolean {
  return isAuthApiError(error) && (error.code === 'otp_expired' || error.status === 403);
}

/**
 * Redeems the mailed link for a recovery session (only once: the link works one time), then sets
 * the new password on it. A refused password leaves the session, so the next try skips the link.
 * After success the session ends: the person signs in with the new password.
 */
export function useSetRecoveredPassword(tokenHash: string) {
  const supabase = useSupabase();
  const redeemed = useRef(false);
  return useMutation({
    mutationFn: async (password: string) => {
      if (!redeemed.current) {
        const { error } = await supabase.auth.verifyOtp({
          token_hash: tokenHash,
          type: 'recovery',
        });
        if (error) throw error;
        redeemed.current = true;
      }
      const { error } = await supabase.auth.updateUser({ password });
      if (error) throw error;
      await signOut(supabase);
    },
  });
}
