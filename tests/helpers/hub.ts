import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { setupDatabase } from '../../server/db/setup.ts';

export const testSecret = 'test-secret-that-is-long-enough-for-hs256-signing';
export const hubService = { email: 'crm@example.de', password: 'service-passwort-123' };
const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };

export interface TestAppOptions {
  /** Signs the gateway's tokens; `testSecret` unless told otherwise. */
  secret?: string;
  /** The first admin and the hub's service account; benchmarks make neither. */
  accounts?: boolean;
  /** Per-minute limits of the hub; high enough by default that tests never meet them. */
  rateLimit?: AppOptions['config']['rateLimit'];
  authRateLimit?: AppOptions['config']['authRateLimit'];
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the client; none by default. */
  trustProxy?: AppOptions['config']['trustProxy'];
  /** The gateway's caps on requests at once; the server's defaults unless told otherwise. */
  gatewayConcurrency?: AppOptions['config']['gatewayConcurrency'];
  /** Log lines to a stream (at level info) for tests that read what the server logs. */
  logStream?: NodeJS.WritableStream;
  /** The gateway's clock (signed URLs, token reuse windows); the process's clock otherwise. */
  now?: () => Date;
  /** DATA_DIR (stored files, mail). */
  dataDir?: string;
  /** The daily retention job, off unless a test asks for it. */
  retention?: AppOptions['retention'];
  /** The new-lead mail worker, off unless a test asks for it. */
  leadMail?: AppOptions['leadMail'];
}

/** Migrates and seeds `db` as every test app has it: the gateway's schemas, and the accounts. */
export async function setupTestDatabase(db: Database, options: TestAppOptions = {}) {
  await setupDatabase(db, { gateway: true, admin: options.accounts === false ? undefined : admin });
}

/** The whole app with the gateway on, over a database that setupTestDatabase prepared. */
export function buildTestApp(db: Database, options: TestAppOptions = {}): Promise<FastifyInstance> {
  const accounts = options.accounts ?? true;
  return buildApp({
    config: {
      jwtSecret: options.secret ?? testSecret,
      hubService: accounts ? hubService : undefined,
      rateLimit: options.rateLimit ?? {
        submissionsPerMinute: 10_000,
        batchesPerMinute: 10_000,
        leadReadsPerMinute: 10_000,
      },
      ...(options.authRateLimit ? { authRateLimit: options.authRateLimit } : {}),
      ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
      ...(options.gatewayConcurrency ? { gatewayConcurrency: options.gatewayConcurrency } : {}),
      staticDir: '/nonexistent-dist',
      logLevel: options.logStream ? 'info' : 'silent',
      gateway: true,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    },
    db,
    logger: options.logStream ? { stream: options.logStream } : false,
    ...(options.now ? { now: options.now } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.leadMail ? { leadMail: options.leadMail } : {}),
  });
}

export interface TestHub {
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}

/**
 * A hub on a fresh in-memory PGlite (or `db`), migrated and seeded, driven with `app.inject`.
 * For a server on a port with supabase-js clients, see startGatewayServer (gateway-server.ts).
 */
export async function createTestHub(
  options: {
    rateLimit?: AppOptions['config']['rateLimit'];
    db?: Database;
  } = {},
): Promise<TestHub> {
  const db = options.db ?? (await openDatabase({}));
  await setupTestDatabase(db);
  const app = await buildTestApp(db, options.rateLimit ? { rateLimit: options.rateLimit } : {});
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
