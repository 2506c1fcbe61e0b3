import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import ws from 'ws';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';

/**
 * The real supabase-js client against a gateway on `url`, as the desk uses it. Node 20 has no
 * WebSocket of its own, so the realtime part gets `ws` (nothing here subscribes). `accessToken`
 * stands for a signed-in session; without it the client calls as `anon`.
 */
export async function supabaseClient(
  url: string,
  secret: string,
  accessToken?: string,
): Promise<SupabaseClient> {
  const { anonKey } = await apiKeys(secret);
  return createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as never },
    ...(accessToken ? { global: { headers: { Authorization: `Bearer ${accessToken}` } } } : {}),
  });
}

/** An access token as the gateway's auth would sign it, for a user made directly in the database. */
export function accessTokenFor(secret: string, userId: string, email: string): Promise<string> {
  return new SignJWT({
    role: 'authenticated',
    aud: 'authenticated',
    email,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
}
