import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { setupDatabase } from '../server/db/setup.ts';

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
 */
export async function startBenchHub(
  name: string,
  // `null` forces PGlite even when DATABASE_URL is set (bench:hub runs on both).
  databaseUrl: string | null | undefined = process.env.DATABASE_URL,
): Promise<BenchHub> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `${name}-`));
  const db = await openDatabase({ databaseUrl: databaseUrl ?? undefined, dataDir });
  await setupDatabase(db, { gateway: true, admin: undefined });
  const secret = 'bench-secret-bench-secret-bench-secret-0000';
  const app = await buildApp({
    config: {
      jwtSecret: secret,
      hubService: undefined,
      rateLimit: { submissionsPerMinute: 1_000_000, batchesPerMinute: 1_000_000 },
      staticDir: path.join(dataDir, 'no-dist'),
      logLevel: 'silent',
      gateway: true,
      dataDir,
    },
    db,
    logger: false,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    secret,
    db,
    stop: async () => {
      await app.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
