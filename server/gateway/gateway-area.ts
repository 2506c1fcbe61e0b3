import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import { gatewayPrefixes } from '../../src/domain/routes.ts';
import { authArea } from './auth/auth-area.ts';
import { GotrueError, sendGotrueError } from './auth/errors.ts';
import {
  createGate,
  defaultGatewayConcurrency,
  guardWithGate,
  type Gate,
  type Refuse,
} from './concurrency.ts';
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
  const limits = options.config.gatewayConcurrency ?? defaultGatewayConcurrency;
  // REST and Storage share one gate (their work is the database's); sign-in and the other auth
  // routes only a per-client one of their own, so a flood of reads never keeps staff from
  // signing in (their rate limits per client stay as they are).
  const dataGate = createGate(limits);
  const authGate = createGate({
    ...limits,
    maxConcurrent: Number.MAX_SAFE_INTEGER,
    staffShare: 0,
  });
  const services: Array<[string, FastifyPluginAsync<GatewayOptions>, Gate, Refuse]> = [
    [gatewayPrefixes.auth, authArea, authGate, refuseAuth],
    [gatewayPrefixes.rest, restArea, dataGate, refuseRest],
    [gatewayPrefixes.storage, storageArea, dataGate, refuseStorage],
  ];
  for (const [prefix, service, gate, refuse] of services) {
    // A scope per service carries the prefix, so CORS and its preflight route reach no other path.
    await gateway.register(
      async (scope) => {
        await scope.register(cors, supabaseCors);
        guardWithGate(scope, gate, {
          secret: options.config.jwtSecret,
          queueMs: limits.queueMs,
          refuse,
        });
        await scope.register(service, options);
      },
      { prefix },
    );
  }
};

// PostgREST's words for a request that found no database connection in time (PGRST003, which
// PostgREST answers with 504), as 503 with Retry-After: the caller may well try again shortly.
const refuseRest: Refuse = (_request, reply, retryAfter) =>
  reply
    .code(503)
    .header('retry-after', String(retryAfter))
    .send({
      code: 'PGRST003',
      message: 'Timed out acquiring connection from connection pool.',
      details: 'Too many requests at once, from this client or in all',
      hint: `Retry after ${retryAfter} s`,
    });

/** Storage's (S3's) SlowDown, in Storage's error shape. */
const refuseStorage: Refuse = (_request, reply, retryAfter) =>
  reply.code(503).header('retry-after', String(retryAfter)).send({
    statusCode: '503',
    code: 'SlowDown',
    error: 'SlowDown',
    message: 'Please reduce your request rate.',
  });

/** GoTrue's rate-limit refusal, as its other limits answer. */
const refuseAuth: Refuse = (request, reply, retryAfter) =>
  sendGotrueError(
    request,
    reply.header('retry-after', String(retryAfter)),
    new GotrueError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  );
