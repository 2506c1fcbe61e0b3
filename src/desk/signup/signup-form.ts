import { isAuthError, isAuthRetryableFetchError } from '@supabase/supabase-js';
import { z } from 'zod';
import {
  newPasswordField,
  passwordsDifferMessage,
  weakPasswordMessage,
} from '../shared/new-password.ts';

/**
 * Spec 5: both fields required, and the confirmation must equal the password, checked before any
 * call. How strong a password must be is the server's rule (the gateway's minimum length).
 */
export const signupSchema = z
  .object({
    email: z.string().trim().min(1, 'Bitte gib deine E-Mail-Adresse ein.'),
    password: newPasswordField,
    confirmation: z.string(),
  })
  .refine((values) => values.password === values.confirmation, {
    path: ['confirmation'],
    message: passwordsDifferMessage,
  });

export type SignupValues = z.infer<typeof signupSchema>;

export type SignupFailure = 'weak-password' | 'invalid-email' | 'rate-limited' | 'unreachable';

/**
 * Why a sign-up failed. An address that is already registered is no failure: GoTrue answers as
 * for a new one, so the screen cannot tell who has an account, and neither can anyone else.
 */
export function signupFailure(error: unknown): SignupFailure {
  // supabase-js turns some answers into their own classes (AuthWeakPasswordError): read the code.
  if (isAuthRetryableFetchError(error) || !isAuthError(error)) return 'unreachable';
  if (error.code === 'weak_password') return 'weak-password';
  if (error.code === 'email_address_invalid' || error.code === 'validation_failed') {
    return 'invalid-email';
  }
  if (error.status === 429) return 'rate-limited';
  return 'unreachable';
}

export const signupFailureMessages: Record<SignupFailure, string> = {
  'weak-password': weakPasswordMessage(['length']),
  'invalid-email': 'Bitte gib eine gültige E-Mail-Adresse ein.',
  'rate-limited':
    'Zu viele Registrierungen in kurzer Zeit. Bitte warte einige Minuten und versuche es dann erneut.',
  unreachable:
    'Die Registrierung ist gerade nicht möglich. Bitte prüfe deine Internetverbindung und versuche es erneut.',
};
