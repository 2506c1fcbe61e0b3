import type { FastifyPluginAsync } from 'fastify';
import { gatewayPrefixes } from '../../src/domain/routes.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { authArea } from './auth/auth-area.ts';
import { restArea } from './rest/rest-area.ts';
import { storageArea } from './storage/storage-area.ts';

/**
 * The local Supabase-compatible gateway (DESIGN 6), so Survey Desk runs on supabase-js without a
 * hosted project. Each part answers in the error shape of the service it stands in for, because
 * supabase-js reads each service's errors differently.
 */
export interface GatewayOptions {
  db: Database;
  config: Pick<ServerConfig, 'jwtSecret' | 'dataDir' | 'smtpUrl' | 'publicUrl'>;
  now: () => Date;
}

export const gatewayArea: FastifyPluginAsync<GatewayOptions> = async (gateway, options) => {
  await gateway.register(authArea, { prefix: gatewayPrefixes.auth, ...options });
  await gateway.register(restArea, { prefix: gatewayPrefixes.rest, ...options });
  await gateway.register(storageArea, { prefix: gatewayPrefixes.storage, ...options });
};
