import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { setupDatabase } from '../../server/db/setup.ts';

export const testSecret = 'test-secret-that-is-long-enough-for-hs256-signing';
export const hubService = { email: 'crm@example.de', password: 'service-passwort-123' };

export interface TestHub {
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}

/** A hub on a fresh in-memory PGlite, migrated and seeded, driven with `app.inject`. */
export async function createTestHub(
  options: {
    rateLimit?: { submissionsPerMinute: number; batchesPerMinute: number };
    db?: Database;
  } = {},
): Promise<TestHub> {
  const db = options.db ?? (await openDatabase({}));
  await setupDatabase(db, {
    gateway: true,
    admin: { email: 'admin@example.de', password: 'admin-passwort-1' },
  });
  const app = await buildApp({
    config: {
      jwtSecret: testSecret,
      hubService,
      rateLimit: options.rateLimit ?? { submissionsPerMinute: 10_000, batchesPerMinute: 10_000 },
      staticDir: '/nonexistent-dist',
      logLevel: 'silent',
      gateway: true,
    },
    db,
    logger: false,
  });
  return {
    app,
    db,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

export async function countRows(db: Database, table: 'responses' | 'answers' | 'users') {
  const result = await db.query<{ n: number }>(`select count(*)::int as n from public.${table}`);
  return result.rows[0]!.n;
}
