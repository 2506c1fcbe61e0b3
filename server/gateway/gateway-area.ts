import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import { gatewayPrefixes } from '../../src/domain/routes.ts';
import { authArea } from './auth/auth-area.ts';
import type { GatewayOptions } from './gateway-options.ts';
import { restArea } from './rest/rest-area.ts';
import { storageArea } from './storage/storage-area.ts';

/**
 * CORS as Supabase answers it: any origin (the apikey and the bearer token admit a caller, not
 * the origin, and no cookie is involved), the headers supabase-js sends, and the response headers
 * it reads exposed. The hub keeps none: the app calls it on its own origin.
 */
export const supabaseCors: FastifyCorsOptions = {
  origin: '*',
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowedHeaders: [
    'authorization',
    'apikey',
    'content-type',
    'x-client-info',
    'x-supabase-api-version',
    'prefer',
    'range',
    'accept-profile',
    'content-profile',
    'x-upsert',
    'x-metadata',
    'cache-control',
  ],
  exposedHeaders: ['Content-Range', 'X-Supabase-Api-Version', 'x-sb-error-code'],
  maxAge: 86_400,
  // A bare OPTIONS gets the same answer instead of a plain-text 400 in no service's shape.
  strictPreflight: false,
};

/**
 * The local Supabase-compatible gateway (DESIGN 6), so Survey Desk runs on supabase-js without a
 * hosted project. Each part answers in the error shape of the service it stands in for, because
 * supabase-js reads each service's errors differently.
 */
export const gatewayArea: FastifyPluginAsync<GatewayOptions> = async (gateway, options) => {
  const services = [
    [gatewayPrefixes.auth, authArea],
    [gatewayPrefixes.rest, restArea],
    [gatewayPrefixes.storage, storageArea],
  ] as const;
  for (const [prefix, service] of services) {
    // A scope per service carries the prefix, so CORS and its preflight route reach no other path.
    await gateway.register(
      async (scope) => {
        await scope.register(cors, supabaseCors);
        await scope.register(service, options);
      },
      { prefix },
    );
  }
};
