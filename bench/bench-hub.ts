import { startGatewayServer } from '../tests/helpers/gateway-server.ts';
import type { Database } from '../server/db/database.ts';

export interface BenchHub {
  url: string;
  /** Signs the gateway's tokens (bench:gateway signs a staff session with it). */
  secret: string;
  db: Database;
  stop(): Promise<void>;
}

/**
 * The hub in this process on 127.0.0.1 (a free port), on PGlite in a temporary folder or on
 * DATABASE_URL, with rate limits out of the way: benchmarks measure the work, not the limiter.
 * The tests' server (tests/helpers/gateway-server.ts), without their accounts.
 */
export async function startBenchHub(
  name: string,
  // `null` forces PGlite even when DATABASE_URL is set (bench:hub runs on both).
  databaseUrl: string | null | undefined = process.env.DATABASE_URL,
): Promise<BenchHub> {
  const server = await startGatewayServer(
    databaseUrl ? { databaseUrl } : 'pglite-on-disk',
    undefined,
    {
      name,
      secret: 'bench-secret-bench-secret-bench-secret-0000',
      accounts: false,
      rateLimit: { submissionsPerMinute: 1_000_000, batchesPerMinute: 1_000_000 },
    },
  );
  return { url: server.url, secret: server.secret, db: server.db, stop: server.close };
}
