import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { setupDatabase } from '../../server/db/setup.ts';
import { hubService, testSecret } from './hub.ts';
import { startTestPostgres, type TestPostgres } from './postgres.ts';
import { accessTokenFor } from './supabase.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface GatewayServer {
  /** The serving origin, as supabase-js is given it. */
  url: string;
  /** The database as its owner (superuser): for fixtures and for checking what a request did. */
  db: Database;
  /** The server's DATA_DIR (stored files, mail). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The whole app with the gateway on, listening on 127.0.0.1 at a free port, over a fresh
 * in-memory PGlite or a throwaway PostgreSQL cluster. `prepare` runs as the database owner after
 * the migrations and before the app reads the catalog (e.g. for test-only functions).
 */
export async function startGatewayServer(
  kind: DatabaseKind,
  prepare?: (db: Database) => Promise<void>,
  options: { now?: () => Date } = {},
): Promise<GatewayServer> {
  let postgres: TestPostgres | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-server-'));
  let db: Database | undefined;
  const cleanUp = async () => {
    await db?.close();
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (kind === 'postgres') postgres = await startTestPostgres();
    db = await openDatabase(postgres ? { databaseUrl: postgres.url() } : {});
    await setupDatabase(db, {
      gateway: true,
      admin: { email: 'admin@example.de', password: 'admin-passwort-1' },
    });
    await prepare?.(db);
    const app = await buildApp({
      config: {
        jwtSecret: testSecret,
        hubService,
        rateLimit: { submissionsPerMinute: 10_000, batchesPerMinute: 10_000 },
        staticDir: '/nonexistent-dist',
        logLevel: 'silent',
        gateway: true,
        dataDir,
      },
      db,
      logger: false,
      ...(options.now ? { now: options.now } : {}),
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    return {
      url,
      db,
      dataDir,
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
