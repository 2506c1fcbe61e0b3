import { TLSSocket } from 'node:tls';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { appConfigPath } from '../src/domain/routes.ts';
import type { ServerConfig } from './config.ts';
import { apiKeys } from './gateway/gateway-jwt.ts';
import { errorBody } from './hub/errors.ts';

/** What the browser learns at run time: where Supabase is and its public key. */
export interface BrowserConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

export type AppConfigOptions = Pick<ServerConfig, 'gateway' | 'jwtSecret' | 'publicUrl'> & {
  supabase: Pick<ServerConfig['supabase'], 'url' | 'anonKey'>;
};

/**
 * `/app-config.json` (DESIGN 3). Locally Supabase is this server (the gateway) and its anon key
 * derives from the secret, which does not exist yet when the app is built; in hosted mode both
 * come from SUPABASE_URL and SUPABASE_ANON_KEY. Never stored by any cache: a key or address
 * that changed must reach the next page load.
 */
export const appConfigRoute: FastifyPluginAsync<AppConfigOptions> = async (app, options) => {
  const localAnonKey = options.gateway ? (await apiKeys(options.jwtSecret)).anonKey : undefined;

  app.get(appConfigPath, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (localAnonKey) {
      const supabaseUrl = options.publicUrl?.replace(/\/+$/, '') ?? requestOrigin(request);
      if (!supabaseUrl) {
        return reply
          .code(400)
          .send(errorBody('bad_host', 'Die Anfrage nennt keine gültige Serveradresse (Host).'));
      }
      return { supabaseUrl, supabaseAnonKey: localAnonKey } satisfies BrowserConfig;
    }
    const { url, anonKey } = options.supabase;
    if (!url || !anonKey) {
      return reply
        .code(503)
        .send(
          errorBody(
            'supabase_not_configured',
            'Survey Desk ist nicht eingerichtet: Dem Server fehlen SUPABASE_URL und SUPABASE_ANON_KEY.',
          ),
        );
    }
    return { supabaseUrl: url, supabaseAnonKey: anonKey } satisfies BrowserConfig;
  });
};

/**
 * The origin as the browser addressed this server: its Host header and the connection's scheme
 * (forwarded headers are ignored, nobody vouches for them; not even a proxy TRUST_PROXY trusts
 * names an origin, so neither `request.host` nor `request.protocol`). A forged Host only reaches
 * the forger, since no cache keeps the answer; behind a proxy that rewrites Host or ends TLS,
 * PUBLIC_URL names the real origin.
 */
function requestOrigin(request: FastifyRequest): string | undefined {
  const host = request.headers.host;
  if (!host || !/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(host)) {
    return undefined;
  }
  const scheme = request.raw.socket instanceof TLSSocket ? 'https' : 'http';
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return undefined;
  }
}
