import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HubRateLimit } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { claimPrefix } from '../http/claim-prefix.ts';
import type { HubAuth } from './auth.ts';
import { hubErrorHandler, sendHubNotFound } from './errors.ts';
import type { FormsRepository } from './forms-repository.ts';
import { formRoutes } from './forms-routes.ts';
import { loginRoutes } from './login-routes.ts';
import type { ReadinessReport } from './readiness.ts';
import type { ResponsesRepository } from './responses-repository.ts';
import { responseRoutes } from './responses-routes.ts';

export interface HubAreaOptions {
  db: Queryable;
  auth: HubAuth;
  forms: FormsRepository;
  responses: ResponsesRepository;
  now: () => Date;
  rateLimit: HubRateLimit;
  /** Told after leads were stored and committed (the new-lead mail's worker runs then). */
  onLeadsStored?: () => void;
  /** The readiness check behind /api/ready (readiness.ts). */
  readiness: () => Promise<ReadinessReport>;
}

/**
 * The hub's API (`/api`): forms, leads and the integrations' login. Every answer that is not a
 * success is `{error: {code, message, details?}}` with a German message, its 404 included.
 */
export const hubArea: FastifyPluginAsyncZod<HubAreaOptions> = async (
  hub,
  { db, auth, forms, responses, now, rateLimit, onLeadsStored, readiness },
) => {
  hub.setErrorHandler(hubErrorHandler);
  hub.setNotFoundHandler(sendHubNotFound);
  claimPrefix(hub);
  // Staff edit questionnaires at any time and leads are personal data: no browser or proxy cache
  // may answer for the hub. (The service worker keeps its own network-first copy for offline.)
  hub.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  hub.get('/health', async () => {
    await db.query('select 1');
    return { status: 'ok' };
  });
  // Liveness stays /health, unchanged; readiness answers 503 while something this process
  // needs is not there, so a proxy or an orchestrator sends its work elsewhere meanwhile.
  hub.get('/ready', async (_request, reply) => {
    const report = await readiness();
    return reply
      .code(report.status === 'fail' ? 503 : 200)
      .type('application/health+json; charset=utf-8')
      .send(report);
  });
  await hub.register(loginRoutes, { auth });
  await hub.register(formRoutes, { forms });
  await hub.register(responseRoutes, { responses, auth, now, rateLimit, onLeadsStored });
};
