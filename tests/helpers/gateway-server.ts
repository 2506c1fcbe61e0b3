import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type Database } from '../../server/db/database.ts';
import type { StaffRole } from '../../src/domain/database-enums.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { buildTestApp, setupTestDatabase, testSecret, type TestAppOptions } from './hub.ts';
import { startTestPostgres, type TestPostgres } from './postgres.ts';
import { accessTokenFor, supabaseClientWithKey } from './supabase.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * Where the server's database comes from: a fresh in-memory PGlite, a throwaway PostgreSQL
 * cluster, or (benchmarks) PGlite on disk in DATA_DIR or an existing PostgreSQL at a URL.
 */
export type DatabaseSource = DatabaseKind | 'pglite-on-disk' | { databaseUrl: string };

export interface GatewayServerOptions extends Omit<TestAppOptions, 'dataDir'> {
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
  const { name = 'gateway-server', ...appOptions } = options;
  const secret = appOptions.secret ?? testSecret;
  let postgres: TestPostgres | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), `${name}-`));
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
    await setupTestDatabase(db, appOptions);
    await prepare?.(db);
    const app = await buildTestApp(db, { ...appOptions, dataDir });
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

/** A staff account's role, as the database's `staff_role` enum names it. */
export type AccountRole = StaffRole;

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
