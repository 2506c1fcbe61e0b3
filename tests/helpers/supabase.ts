import http from 'node:http';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import ws from 'ws';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import type { Database } from '../../src/domain/database.types.ts';

/**
 * The real supabase-js client against a gateway on `url`, as the desk uses it. Node 20 has no
 * WebSocket of its own, so the realtime part gets `ws` (nothing here subscribes). `accessToken`
 * stands for a signed-in session; without it the client calls as `anon`.
 */
export async function supabaseClient(
  url: string,
  secret: string,
  accessToken?: string,
  options: { fetch?: typeof fetch } = {},
): Promise<SupabaseClient<Database>> {
  const { anonKey } = await apiKeys(secret);
  return supabaseClientWithKey(url, anonKey, accessToken, options);
}

/** The same client for a caller that has the anon key already. */
export function supabaseClientWithKey(
  url: string,
  anonKey: string,
  accessToken?: string,
  options: { fetch?: typeof fetch } = {},
): SupabaseClient<Database> {
  return createClient<Database>(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as never },
    global: {
      ...(accessToken ? { headers: { Authorization: `Bearer ${accessToken}` } } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
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

/**
 * A fetch whose connections leave from `localAddress` (any of 127.0.0.0/8 on loopback), so that
 * tests can be several clients to the server's per-address limits without trusting a header.
 */
export function fetchFrom(localAddress: string): typeof fetch {
  return (input, init) =>
    new Promise((resolve, reject) => {
      const request = new Request(input, init);
      const target = new URL(request.url);
      void request.arrayBuffer().then((body) => {
        const outgoing = http.request(
          {
            host: target.hostname,
            port: target.port,
            path: `${target.pathname}${target.search}`,
            method: request.method,
            headers: Object.fromEntries(request.headers),
            localAddress,
          },
          (incoming) => {
            const chunks: Buffer[] = [];
            incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
            incoming.on('end', () => {
              const headers = new Headers();
              for (const [name, value] of Object.entries(incoming.headers)) {
                if (typeof value === 'string') headers.set(name, value);
              }
              const status = incoming.statusCode ?? 500;
              const empty = status === 204 || status === 304;
              resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
            });
            incoming.on('error', reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body.byteLength > 0 ? Buffer.from(body) : undefined);
      }, reject);
    });
}
