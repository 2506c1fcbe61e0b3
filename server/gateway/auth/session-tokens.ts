import { SignJWT } from 'jose';
import type { IssuedSession } from './auth-store.ts';
import { userJson } from './user-json.ts';

/** GoTrue's default access token lifetime. */
export const accessTokenSeconds = 3600;

/**
 * The session JSON supabase-js stores, with an access token carrying GoTrue's claims: the
 * `role` becomes the database role of every PostgREST request, `sub` is what `auth.uid()` reads.
 */
export async function sessionJson(
  issued: IssuedSession,
  options: { secret: string; issuer: string; now: Date },
) {
  const { user, session } = issued;
  const iat = Math.floor(options.now.getTime() / 1000);
  const exp = iat + accessTokenSeconds;
  const accessToken = await new SignJWT({
    email: user.email,
    phone: '',
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    role: user.role,
    aal: 'aal1',
    amr: [
      { method: session.amr_method, timestamp: Math.floor(session.created_at.getTime() / 1000) },
    ],
    session_id: session.id,
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(options.issuer)
    .setSubject(user.id)
    .setAudience(user.aud)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(options.secret));
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: accessTokenSeconds,
    expires_at: exp,
    refresh_token: issued.refreshToken,
    user: userJson(user),
  };
}
