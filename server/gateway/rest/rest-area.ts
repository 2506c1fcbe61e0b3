import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayOptions } from '../gateway-options.ts';
import { claimPrefix } from '../../http/claim-prefix.ts';
import { nestsTooDeep } from '../json-depth.ts';
import { pathBelow } from '../path-below.ts';
import { apiRequestOf, type Target } from './api-request.ts';
import { PostgrestError, restErrorHandler, restNotFound } from './errors.ts';
import { planOf, type Catalog } from './plan.ts';
import { resultRelation } from './routines.ts';
import { runQuery } from './run.ts';
import { schemaCacheOf } from './schema-cache.ts';
import { responseOf, type RestResponse } from './shape.ts';
import { queryOf } from './sql-builder.ts';

// PostgREST's API for supabase-js (`/rest/v1`): every table, view and function of `public`.
// A request goes through five steps, each a module of its own:
//   api-request.ts  the HTTP request, read once (path, query grammar, Prefer, Range, Accept, claims)
//   plan.ts         checked against the schema cache into a read, mutate or call plan
//   sql-builder.ts  the plan's SQL
//   run.ts          run as the caller's role in one transaction
//   shape.ts        status, headers and body
// This file only wires them to Fastify's routes.

/** Bulk inserts may be larger than the hub's own JSON bodies. */
const restBodyLimit = 1024 * 1024;

export const restArea: FastifyPluginAsync<GatewayOptions> = async (rest, options) => {
  const { db, config } = options;
  const schema = schemaCacheOf(db, options.now, 1_000, (error) =>
    rest.log.error({ err: error }, 'could not read the schema cache'),
  );
  const catalog: Catalog = {
    get: schema.get,
    refresh: schema.refresh,
    resultOf: (cache, routine) => resultRelation(db, cache, routine),
  };
  const context = { prefix: rest.prefix, jwtSecret: config.jwtSecret, db };

  async function respond(request: FastifyRequest, reply: FastifyReply, target: Target) {
    const api = await apiRequestOf(request, target, context);
    const plan = await planOf(api, catalog);
    const outcome = await runQuery(db, api, plan, queryOf(plan));
    return send(reply, responseOf(api, plan, outcome));
  }

  rest.setErrorHandler(restErrorHandler);
  // supabase-js sends `Content-Type: application/json` on a DELETE without a body; PostgREST
  // reads that as no body, where Fastify's own parser refuses it.
  const parseJson = rest.getDefaultJsonParser('error', 'error');
  rest.removeContentTypeParser('application/json');
  rest.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: restBodyLimit },
    (request, body, done) => {
      const text = body.toString();
      if (text === '') done(null, undefined);
      else if (nestsTooDeep(text))
        done(new PostgrestError(400, 'PGRST102', 'Empty or invalid json'));
      else parseJson(request, text, done);
    },
  );
  rest.setNotFoundHandler((request) => {
    throw restNotFound(pathBelow(rest.prefix, request.url));
  });

  const route = { bodyLimit: restBodyLimit, exposeHeadRoute: false } as const;
  const name = (request: FastifyRequest) => (request.params as { name: string }).name;
  rest.route({
    ...route,
    method: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    url: '/:name',
    handler: (request, reply) => respond(request, reply, { kind: 'relation', name: name(request) }),
  });
  rest.route({
    ...route,
    method: ['GET', 'HEAD', 'POST'],
    url: '/rpc/:name',
    handler: (request, reply) => respond(request, reply, { kind: 'routine', name: name(request) }),
  });
  claimPrefix(rest);
};

function send(reply: FastifyReply, response: RestResponse) {
  reply.code(response.status).headers(response.headers);
  if (response.contentType) reply.type(response.contentType);
  return response.body === undefined ? reply.send() : reply.send(response.body);
}
