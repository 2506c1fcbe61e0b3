import type { FastifyPluginAsync } from 'fastify';
import type { GatewayOptions } from '../gateway-area.ts';
import { claimPrefix } from '../../http/claim-prefix.ts';
import { pathBelow } from '../path-below.ts';
import { storageErrorHandler, storageNotFound } from './errors.ts';

/** Storage's API for supabase-js (`/storage/v1`): buckets and objects come with the gateway. */
export const storageArea: FastifyPluginAsync<GatewayOptions> = async (storage) => {
  storage.setErrorHandler(storageErrorHandler);
  storage.setNotFoundHandler((request, reply) =>
    reply.code(404).send(storageNotFound(request.method, pathBelow(storage.prefix, request.url))),
  );
  claimPrefix(storage);
};
