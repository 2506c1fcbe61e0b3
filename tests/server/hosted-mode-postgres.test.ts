import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { readMigrations, type Migration } from '../../server/db/migrate.ts';
import { apiRoleGrantSentence, missingApiRoleGrant } from '../../server/db/role-grants.ts';
import { migrationsDir, setupDatabase } from '../../server/db/setup.ts';
import { hubService, testSecret } from '../helpers/hub.ts';
import { asSuperuser, startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startServerProcess } from '../helpers/server-process.ts';

// Hosted mode (GATEWAY=off) on a bare PostgreSQL that has what a hosted Supabase project has
// (roles, `auth`, `storage`), with supabase/migrations applied as the Supabase CLI applies them.

const projectFiles = ['supabase-local.sql', 'supabase-local-storage.sql'].map(
  (name) => new URL(`../../server/db/${name}`, import.meta.url),
);
const seedFile = new URL('../../supabase/seed.sql', import.meta.url);
const legacySecret = 'the-projects-legacy-jwt-secret-of-at-least-32-chars';

/** What a hosted project has before its first migration. */
async function standInProject(server: TestPostgres, database: string) {
  await asSuperuser(server, `create database ${database}`);
  for (const file of projectFiles) {
    await asSuperuser(server, await readFile(file, 'utf8'), database);
  }
}

/**
 * `supabase db push --include-seed`, as far as the database sees it: the CLI's history table as
 * the CLI creates it, then per file one transaction with its statements and its history row
 * (the CLI records the file split at semicolons), then the seed.
 */
async function pushLikeTheCli(db: Database, migrations: Migration[]) {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
    alter table supabase_migrations.schema_migrations add column if not exists statements text[];
    alter table supabase_migrations.schema_migrations add column if not exists name text;`);
  for (const migration of migrations) {
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      const statements = migration.sql
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
      await tx.query(
        'insert into supabase_migrations.schema_migrations(version, name, statements) values ($1, $2, $3)',
        [migration.version, migration.name, statements],
      );
    });
  }
  await db.transaction(async (tx) => tx.exec(await readFile(seedFile, 'utf8')));
}

/** The project's JWKS endpoint, on this machine. */
async function serveJwks(keys: JWK[]): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url !== '/auth/v1/.well-known/jwks.json') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server };
}

const historyColumns = async (db: Database) =>
  (
    await db.query<{ column_name: string }>(
      `select column_name from information_schema.columns
       where table_schema = 'supabase_migrations' and table_name = 'schema_migrations'
       order by ordinal_position`,
    )
  ).rows.map((r) => r.column_name);

describe('hosted mode on PostgreSQL', () => {
  let server: TestPostgres;
  let migrations: Migration[];
  beforeAll(async () => {
    server = await startTestPostgres();
    migrations = await readMigrations(migrationsDir);
  });
  afterAll(() => server?.stop());

  describe('after `supabase db push`', () => {
    let db: Database;
    let app: FastifyInstance;
    let jwks: Server;
    let jwksUrl: string;
    let ecKey: CryptoKey;
    let rsaKey: CryptoKey;
    let staffId: string;
    let pendingId: string;

    beforeAll(async () => {
      await standInProject(server, 'hosted');
      db = await openDatabase({ databaseUrl: server.url('hosted') });
      await pushLikeTheCli(db, migrations);

      const ec = await generateKeyPair('ES256');
      const rsa = await generateKeyPair('RS256');
      ecKey = ec.privateKey;
      rsaKey = rsa.privateKey;
      const published = [
        { ...(await exportJWK(ec.publicKey)), kid: 'ec-key', alg: 'ES256', use: 'sig' },
        { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-key', alg: 'RS256', use: 'sig' },
      ];
      ({ server: jwks, url: jwksUrl } = await serveJwks(published));

      // Accounts as the project's GoTrue creates them; the migrations' trigger adds staff rows.
      const users = await db.query<{ id: string; email: string }>(
        `insert into auth.users (email, encrypted_password, email_confirmed_at)
         values ('mitarbeiter@example.de', 'x', now()), ('neu@example.de', 'x', now())
         returning id, email`,
      );
      staffId = users.rows.find((u) => u.email === 'mitarbeiter@example.de')!.id;
      pendingId = users.rows.find((u) => u.email === 'neu@example.de')!.id;
      await db.query(`update public.staff set role = 'staff' where user_id = $1`, [staffId]);

      const setup = await setupDatabase(db, { gateway: false });
      expect(setup.migrations.applied).toEqual([]);
      expect(setup.seeded).toBe(false);
      app = await buildApp({
        config: {
          jwtSecret: testSecret,
          hubService,
          rateLimit: { submissionsPerMinute: 100, batchesPerMinute: 100 },
          staticDir: '/nonexistent-dist',
          logLevel: 'silent',
          gateway: false,
          supabase: { url: jwksUrl, anonKey: 'hosted-anon-key', jwtSecret: legacySecret },
        },
        db,
        logger: false,
      });
    });
    afterAll(async () => {
      await app?.close();
      await db?.close();
      jwks?.close();
    });

    const staffToken = (key: CryptoKey | Uint8Array, alg: string, kid: string, sub = staffId) =>
      new SignJWT({ role: 'authenticated', email: 'mitarbeiter@example.de' })
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setSubject(sub)
        .setAudience('authenticated')
        .setIssuer(`${jwksUrl}/auth/v1`)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    const readResponses = (token: string) =>
      app.inject({ url: '/api/responses', headers: { authorization: `Bearer ${token}` } });

    it('finds every migration recorded, runs none again, and keeps the CLI’s rows', async () => {
      const rows = await db.query<{ version: string; statements: string[] }>(
        'select version, statements from supabase_migrations.schema_migrations order by version',
      );
      expect(rows.rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
      expect(rows.rows[0]!.statements.length).toBeGreaterThan(1);
      expect(await historyColumns(db)).toEqual(['version', 'statements', 'name']);
    });

    it('serves the forms and accepts a lead', async () => {
      const forms = await app.inject({ url: '/api/forms' });
      expect(forms.statusCode).toBe(200);
      expect((forms.json() as { id: number }[]).map((f) => f.id)).toEqual([1, 2]);
      const lead = await app.inject({
        method: 'POST',
        url: '/api/responses',
        payload: questionnaireLead(),
      });
      expect(lead.statusCode).toBe(201);
    });

    it('runs no gateway: Supabase is the hosted project', async () => {
      const res = await app.inject({ url: '/rest/v1/forms' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    });

    it('lets staff in with a token of the project’s asymmetric keys (JWKS)', async () => {
      // Staff read leads through the hub only while an admin allows staff to export.
      const refused = await readResponses(await staffToken(ecKey, 'ES256', 'ec-key'));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'export_not_allowed' } });
      await db.query('update public.desk_settings set staff_can_export = true');
      expect((await readResponses(await staffToken(ecKey, 'ES256', 'ec-key'))).statusCode).toBe(
        200,
      );
      expect((await readResponses(await staffToken(rsaKey, 'RS256', 'rsa-key'))).statusCode).toBe(
        200,
      );
    });

    it('refuses a pending account, a foreign key and a wrong legacy secret', async () => {
      const pending = await readResponses(await staffToken(ecKey, 'ES256', 'ec-key', pendingId));
      expect(pending.statusCode).toBe(403);
      const foreign = (await generateKeyPair('ES256')).privateKey;
      const forged = await readResponses(await staffToken(foreign, 'ES256', 'ec-key'));
      expect(forged.statusCode).toBe(401);
      expect(forged.json()).toMatchObject({ error: { code: 'invalid_token' } });
      const wrongSecret = await staffToken(
        new TextEncoder().encode('some-other-secret-of-at-least-32-characters'),
        'HS256',
        'x',
      );
      expect((await readResponses(wrongSecret)).statusCode).toBe(401);
    });

    it('lets staff in with a token of the legacy secret, and integrations with a hub token', async () => {
      const legacy = await new SignJWT({ role: 'authenticated' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(staffId)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(legacySecret));
      expect((await readResponses(legacy)).statusCode).toBe(200);

      const login = await app.inject({
        method: 'POST',
        url: '/api/hub/login',
        payload: hubService,
      });
      const { token } = login.json() as { token: string };
      expect((await readResponses(token)).statusCode).toBe(200);
      // The project's secret signs no hub token: the service role claim alone opens nothing.
      const fake = await new SignJWT({ role: 'hub_service' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer('universa-hub')
        .setAudience('hub')
        .setSubject(hubService.email)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(legacySecret));
      expect((await readResponses(fake)).statusCode).toBe(403);
    });

    it('says so when the project’s keys cannot be fetched, instead of calling the token bad', async () => {
      const unreachable = await buildApp({
        config: {
          jwtSecret: testSecret,
          hubService,
          rateLimit: { submissionsPerMinute: 100, batchesPerMinute: 100 },
          staticDir: '/nonexistent-dist',
          logLevel: 'silent',
          gateway: false,
          supabase: { url: 'http://127.0.0.1:9', anonKey: 'k', jwtSecret: undefined },
        },
        db,
        logger: false,
      });
      try {
        const res = await unreachable.inject({
          url: '/api/responses',
          headers: { authorization: `Bearer ${await staffToken(ecKey, 'ES256', 'ec-key')}` },
        });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ error: { code: 'auth_unavailable' } });
      } finally {
        await unreachable.close();
      }
    });
  });

  it('records what the CLI reads when it migrates first, so `supabase db push` finds nothing to do', async () => {
    await standInProject(server, 'local_first');
    const db = await openDatabase({ databaseUrl: server.url('local_first') });
    try {
      const setup = await setupDatabase(db, { gateway: false });
      expect(setup.migrations.applied).toHaveLength(migrations.length);
      expect(await historyColumns(db)).toEqual(['version', 'statements', 'name']);
      // The CLI's own reading (SELECT_VERSION_TABLE) and writing (INSERT_MIGRATION_VERSION).
      const read = await db.query<{ version: string; name: string; statements: string[] }>(
        `select version, coalesce(name, '') as name, statements from supabase_migrations.schema_migrations order by version`,
      );
      expect(read.rows.map((r) => `${r.version}_${r.name}`)).toEqual(
        migrations.map((m) => `${m.version}_${m.name}`),
      );
      expect(read.rows[0]!.statements).toEqual([migrations[0]!.sql.trim()]);
      await db.query(
        'insert into supabase_migrations.schema_migrations(version, name, statements) values ($1, $2, $3)',
        ['29990101000000', 'later', ['select 1']],
      );
      await db.query(
        `delete from supabase_migrations.schema_migrations where version = '29990101000000'`,
      );
    } finally {
      await db.close();
    }
  });

  it('brings the history of an earlier local runner into the CLI’s shape', async () => {
    await standInProject(server, 'earlier_runner');
    const db = await openDatabase({ databaseUrl: server.url('earlier_runner') });
    try {
      // What the runner wrote before: its own required checksum in the CLI's table.
      await db.exec(`
        create schema supabase_migrations;
        create table supabase_migrations.schema_migrations (
          version text primary key,
          name text not null,
          checksum text not null,
          applied_at timestamptz not null default now()
        );`);
      for (const m of migrations) {
        await db.exec(m.sql);
        await db.query(
          'insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $2, $3)',
          [m.version, m.name, m.checksum],
        );
      }
      const setup = await setupDatabase(db, { gateway: false });
      expect(setup.migrations.applied).toEqual([]);
      expect(await historyColumns(db)).toEqual(['version', 'name', 'statements']);
      const rows = await db.query<{ statements: string[] }>(
        'select statements from supabase_migrations.schema_migrations order by version',
      );
      expect(rows.rows.map((r) => r.statements)).toEqual(migrations.map((m) => [m.sql.trim()]));
    } finally {
      await db.close();
    }
  });

  // Starts the real server process twice: slow on a loaded two-core machine.
  it('stops the start of a gateway whose DATABASE_URL user lacks the API roles, with the grant to run', async () => {
    await asSuperuser(server, 'create role hub_login login');
    await asSuperuser(server, 'create database grants owner hub_login');
    // What a superuser sets up once: the API roles (service_role bypasses row-level security).
    await asSuperuser(server, await readFile(projectFiles[0]!, 'utf8'));
    const superuserDb = await openDatabase({ databaseUrl: server.url('postgres') });
    expect(await missingApiRoleGrant(superuserDb)).toBeUndefined();
    await superuserDb.close();

    const dataDir = mkdtempSync(path.join(tmpdir(), 'grants-'));
    const env = {
      DATABASE_URL: server.url('grants').replace('postgres@', 'hub_login@'),
      GATEWAY: 'on',
      DATA_DIR: dataDir,
      JWT_SECRET: testSecret,
      ADMIN_PASSWORD: 'admin-passwort-1',
      STATIC_DIR: '/nonexistent-dist',
    };
    try {
      const refused = await startServerProcess(env).then(
        async (started) => {
          await started.kill('SIGTERM');
          return '';
        },
        (error: Error) => error.message,
      );
      expect(refused).toContain(apiRoleGrantSentence('hub_login'));
      expect(apiRoleGrantSentence('hub_login')).toBe(
        'Der Datenbanknutzer aus DATABASE_URL ist kein Superuser und braucht die Rollen des Gateways; als Superuser ausführen: grant anon, authenticated, service_role to hub_login;',
      );

      await asSuperuser(server, 'grant anon, authenticated, service_role to hub_login');
      const started = await startServerProcess(env);
      try {
        const res = await fetch(`${started.url}/rest/v1/forms?select=id`, {
          headers: { apikey: 'x' },
        });
        expect(res.status).toBe(200);
      } finally {
        await started.kill('SIGTERM');
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
