import type { UserRow } from './auth-store.ts';

/**
 * The user object as GoTrue sends it: unset timestamps are left out, `phone` is ''. There is no
 * identities table locally; the one e-mail identity every account here has is derived from the
 * user (its `identity_id` is the user's id).
 */
export function userJson(user: UserRow) {
  const iso = (date: Date | null) => date?.toISOString();
  const confirmed = iso(user.email_confirmed_at);
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email,
    email_confirmed_at: confirmed,
    phone: '',
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: confirmed,
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: [
      {
        identity_id: user.id,
        id: user.id,
        user_id: user.id,
        identity_data: {
          sub: user.id,
          email: user.email,
          email_verified: user.email_confirmed_at !== null,
          phone_verified: false,
        },
        provider: 'email',
        last_sign_in_at: iso(user.last_sign_in_at),
        created_at: user.created_at.toISOString(),
        updated_at: user.updated_at.toISOString(),
        email: user.email,
      },
    ],
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
    is_anonymous: false,
  };
}

/**
 * What a sign-up for a taken address answers, as GoTrue does with confirmation on: a made-up user
 * with no identities, shaped like a real new one, so the answer does not tell that the address
 * has an account.
 */
export function obfuscatedUserJson(email: string, data: Record<string, unknown>, now: Date) {
  const at = now.toISOString();
  return {
    id: crypto.randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: at,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: at,
    updated_at: at,
    is_anonymous: false,
  };
}
