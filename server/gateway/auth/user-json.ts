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
 * What every sign-up answers, for a new, an unconfirmed or a confirmed address alike (GoTrue
 * with confirmation on answers a taken address with a made-up user): a user with a fresh random
 * id, no identities, timestamps of now and the metadata as a new account gets it, so nothing in
 * the answer tells whether the address has an account. No session: the mail's link confirms.
 */
export function signupAnswer(email: string, data: Record<string, unknown>, now: Date) {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  return {
    id,
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    confirmation_sent_at: at,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: { ...data, sub: id, email, email_verified: false, phone_verified: false },
    identities: [],
    created_at: at,
    updated_at: at,
    is_anonymous: false,
  };
}
