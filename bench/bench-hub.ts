import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { setupDatabase } from '../server/db/setup.ts';

export interface BenchHub {
  url: string;
  db: Database;
  stop(): Promise<void>;
}

/**
 * The hub in this process on 127.0.0.1 (a free port), on PGlite in a temporary folder or on
 * DATABASE_URL, with rate limits out of the way: benchmarks measure the work, not the limiter.
 */
export async function startBenchHub(name: string): Promise<BenchHub> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `${name}-`));
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await setupDatabase(db, { gateway: true, admin: undefined });
  const app = await buildApp({
    config: {
      jwtSecret: 'bench-secret-bench-secret-bench-secret-0000',
      hubService: undefined,
      rateLimit: { submissionsPerMinute: 1_000_000, batchesPerMinute: 1_000_000 },
      staticDir: path.join(dataDir, 'no-dist'),
      logLevel: 'silent',
    },
    db,
    logger: false,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    db,
    stop: async () => {
      await app.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
