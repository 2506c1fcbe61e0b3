import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { setupDatabase } from '../../server/db/setup.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { hubService, testSecret } from './hub.ts';
import { startTestPostgres, type TestPostgres } from './postgres.ts';
import { accessTokenFor, supabaseClientWithKey } from './supabase.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * Where the server's database comes from: a fresh in-memory PGlite, a throwaway PostgreSQL
 * cluster, or (benchmarks) PGlite on disk in DATA_DIR or an existing PostgreSQL at a URL.
 */
export type DatabaseSource = DatabaseKind | 'pglite-on-disk' | { databaseUrl: string };

export interface GatewayServerOptions {
  /** The gateway's clock (signed URLs, token reuse windows); the process's clock otherwise. */
  now?: () => Date;
  /** Signs the gateway's tokens; `testSecret` unless told otherwise. */
  secret?: string;
  /** The first admin and the hub's service account; benchmarks make neither. */
  accounts?: boolean;
  /** Per-minute limits of the hub; high enough by default that tests never meet them. */
  rateLimit?: AppOptions['config']['rateLimit'];
  authRateLimit?: AppOptions['config']['authRateLimit'];
  /** Log lines to a stream (at level info) for tests that read what the server logs. */
  logStream?: NodeJS.WritableStream;
  /** The prefix of the temporary DATA_DIR, to tell one test's leftovers from another's. */
  name?: string;
}

export interface GatewayServer {
  /** The serving origin, as supabase-js is given it. */
  url: string;
  /** The app itself, for requests sent with `app.inject` (headers supabase-js never sends). */
  app: FastifyInstance;
  /** The database as its owner (superuser): for fixtures and for checking what a request did. */
  db: Database;
  /** The server's DATA_DIR (stored files, mail). */
  dataDir: string;
  /** The secret the server signs and checks tokens with. */
  secret: string;
  /** The server's anon key (the `apikey` header of every request). */
  anonKey: string;
  /** The real supabase-js client against this server, as anon or with an access token. */
  client(accessToken?: string): SupabaseClient;
  close(): Promise<void>;
}

/**
 * The one test server: the whole app with the gateway on, listening on 127.0.0.1 at a free port,
 * over a freshly migrated database (see DatabaseSource). `prepare` runs as the database owner
 * after the migrations and before the app reads the catalog (e.g. for test-only functions).
 * Tests and benchmarks start every server through this.
 */
export async function startGatewayServer(
  source: DatabaseSource,
  prepare?: (db: Database) => Promise<void>,
  options: GatewayServerOptions = {},
): Promise<GatewayServer> {
  const secret = options.secret ?? testSecret;
  const accounts = options.accounts ?? true;
  let postgres: TestPostgres | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), `${options.name ?? 'gateway-server'}-`));
  let db: Database | undefined;
  const cleanUp = async () => {
    await db?.close();
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (source === 'postgres') postgres = await startTestPostgres();
    db = await openDatabase(
      postgres
        ? { databaseUrl: postgres.url() }
        : typeof source === 'object'
          ? { databaseUrl: source.databaseUrl }
          : source === 'pglite-on-disk'
            ? { dataDir }
            : {},
    );
    await setupDatabase(db, {
      gateway: true,
      admin: accounts ? { email: 'admin@example.de', password: 'admin-passwort-1' } : undefined,
    });
    await prepare?.(db);
    const app = await buildApp({
      config: {
        jwtSecret: secret,
        hubService: accounts ? hubService : undefined,
        rateLimit: options.rateLimit ?? { submissionsPerMinute: 10_000, batchesPerMinute: 10_000 },
        ...(options.authRateLimit ? { authRateLimit: options.authRateLimit } : {}),
        staticDir: path.join(dataDir, 'no-dist'),
        logLevel: options.logStream ? 'info' : 'silent',
        gateway: true,
        dataDir,
      },
      db,
      logger: options.logStream ? { stream: options.logStream } : false,
      ...(options.now ? { now: options.now } : {}),
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const { anonKey } = await apiKeys(secret);
    return {
      url,
      app,
      db,
      dataDir,
      secret,
      anonKey,
      client: (accessToken) => supabaseClientWithKey(url, anonKey, accessToken),
      close: async () => {
        await app.close();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

export type AccountRole = 'pending' | 'staff' | 'admin';

export interface Account {
  id: string;
  email: string;
  accessToken: string;
}

/**
 * A Survey Desk account made directly in `auth.users` (the trigger gives it a pending `staff`
 * row), set to `role`, with an access token as the gateway's auth would sign it.
 */
export async function createAccount(
  db: Database,
  email: string,
  role: AccountRole,
): Promise<Account> {
  const inserted = await db.query<{ id: string }>(
    `insert into auth.users (email, encrypted_password, email_confirmed_at)
     values ($1, 'not-used', now()) returning id::text`,
    [email],
  );
  const id = inserted.rows[0]!.id;
  await db.query('update public.staff set role = $2 where user_id = $1', [id, role]);
  return { id, email, accessToken: await accessTokenFor(testSecret, id, email) };
}
