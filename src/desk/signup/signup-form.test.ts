import {
  AuthApiError,
  AuthRetryableFetchError,
  AuthWeakPasswordError,
} from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { signupFailure, signupSchema } from './signup-form.ts';

describe('signupSchema', () => {
  it('names different passwords at the confirmation', () => {
    const result = signupSchema.safeParse({
      email: 'neu@example.de',
      password: 'Passwort-1234',
      confirmation: 'Passwort-1235',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['confirmation'],
        message: 'Die Passwörter stimmen nicht überein.',
      }),
    ]);
  });

  it('accepts equal passwords and leaves their strength to the server', () => {
    const values = { email: ' neu@example.de ', password: 'kurz', confirmation: 'kurz' };
    expect(signupSchema.parse(values).email).toBe('neu@example.de');
  });
});

describe('signupFailure', () => {
  it('tells a weak password, a limit and an unreachable server apart', () => {
    expect(signupFailure(new AuthWeakPasswordError('weak', 422, ['length']))).toBe('weak-password');
    expect(signupFailure(new AuthApiError('limit', 429, 'over_email_send_rate_limit'))).toBe(
      'rate-limited',
    );
    expect(signupFailure(new AuthRetryableFetchError('down', 0))).toBe('unreachable');
    expect(signupFailure(new TypeError('Failed to fetch'))).toBe('unreachable');
  });
});
