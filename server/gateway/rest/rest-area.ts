import type { FastifyPluginAsync } from 'fastify';
import type { GatewayOptions } from '../gateway-area.ts';
import { claimPrefix } from '../../http/claim-prefix.ts';
import { pathBelow } from '../path-below.ts';
import { restErrorHandler, restNotFound } from './errors.ts';

/** PostgREST's API for supabase-js (`/rest/v1`): tables and functions come with the gateway. */
export const restArea: FastifyPluginAsync<GatewayOptions> = async (rest) => {
  rest.setErrorHandler(restErrorHandler);
  rest.setNotFoundHandler((request) => {
    throw restNotFound(pathBelow(rest.prefix, request.url));
  });
  claimPrefix(rest);
};
