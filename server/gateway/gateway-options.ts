import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';

/** What the gateway and each of its services (auth, rest, storage) are given. */
export interface GatewayOptions {
  db: Database;
  config: Pick<ServerConfig, 'jwtSecret' | 'dataDir' | 'smtpUrl' | 'publicUrl'> &
    Partial<Pick<ServerConfig, 'authRateLimit' | 'gatewayConcurrency'>>;
  now: () => Date;
}
