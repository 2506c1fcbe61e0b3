import type { FastifyPluginAsync } from 'fastify';
import type { GatewayOptions } from '../gateway-options.ts';
import { claimPrefix } from '../../http/claim-prefix.ts';
import { pathBelow } from '../path-below.ts';
import { storageErrorHandler, storageNotFound } from './errors.ts';
import { createFileStore } from './file-store.ts';
import { objectRoutes } from './object-routes.ts';
import type { StorageContext } from './storage-context.ts';
import { uploadRoutes } from './upload-routes.ts';

/**
 * Storage's API for supabase-js (`/storage/v1`): objects of the buckets in `storage.buckets`,
 * their rows under row-level security, their bodies under `DATA_DIR/storage`.
 */
export const storageArea: FastifyPluginAsync<GatewayOptions> = async (storage, options) => {
  storage.setErrorHandler(storageErrorHandler);
  storage.setNotFoundHandler((request, reply) =>
    reply.code(404).send(storageNotFound(request.method, pathBelow(storage.prefix, request.url))),
  );
  claimPrefix(storage);

  const context: StorageContext = {
    db: options.db,
    secret: options.config.jwtSecret,
    now: options.now,
    files: createFileStore(options.config.dataDir),
  };
  await storage.register(uploadRoutes, context);
  await storage.register(objectRoutes, context);
};
