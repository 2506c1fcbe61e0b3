import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { startupMark } from '../startup-timing.ts';
import type { Database } from './database.ts';
import { migrate, readMigrations, type MigrationReport } from './migrate.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const migrationsDir = `${root}supabase/migrations`;
const seedFile = `${root}supabase/seed.sql`;
// What a hosted project already has, in order: roles and `auth`, then `storage`. Named from the
// project's root, as `npm start`'s compiled server (scripts/build-if-stale.mjs) finds them too.
const localSupabaseFiles = ['supabase-local.sql', 'supabase-local-storage.sql'].map(
  (name) => `${root}server/db/${name}`,
);

export interface AdminAccount {
  email: string;
  /** Set only when this start created the account with a generated password. */
  generatedPassword: string | undefined;
  created: boolean;
}

export interface SetupResult {
  migrations: MigrationReport;
  seeded: boolean;
  admin: AdminAccount | undefined;
}

export interface SetupOptions {
  /** The local gateway stands in for Supabase: create what a hosted project already has. */
  gateway: boolean;
  admin?: { email: string; password: string | undefined } | undefined;
}

/** Brings a database to the current schema; seeds a fresh one. Safe to run on every start. */
export async function setupDatabase(db: Database, options: SetupOptions): Promise<SetupResult> {
  if (options.gateway) {
    await applyLocalSupabase(db);
    startupMark('supabase-local-schema');
  }
  const files = await readMigrations(migrationsDir);
  startupMark('migrations-read');
  const migrations = await migrate(db, files);
  startupMark('migrated');
  // Seed exactly once, on the start that created the schema: data deleted later by staff
  // must not come back on the next restart.
  const seeded = migrations.applied.length > 0 && migrations.skipped.length === 0;
  if (seeded) {
    const seedSql = await readFile(seedFile, 'utf8');
    await db.transaction((tx) => tx.exec(seedSql));
    startupMark('seeded');
  }
  const admin = options.gateway && options.admin ? await ensureAdmin(db, options.admin) : undefined;
  return { migrations, seeded, admin };
}

/**
 * The local stand-in for what a hosted project has. Idempotent, but rewriting its functions and
 * grants on every start took a second of a restart on PGlite (bench:startup): the files' hash is
 * kept as the comment of schema `auth`, and files that did not change since are not run again.
 */
export async function applyLocalSupabase(db: Database): Promise<void> {
  const files = await Promise.all(localSupabaseFiles.map((file) => readFile(file, 'utf8')));
  const stamp = `Lokale Supabase-Grundlage ${createHash('sha256').update(files.join('\0')).digest('hex')}`;
  const applied = await db.query<{ stamp: string | null }>(
    `select obj_description(to_regnamespace('auth'), 'pg_namespace') as stamp`,
  );
  if (applied.rows[0]?.stamp === stamp) return;
  for (const sql of files) await db.exec(sql);
  // Hex digits and words only: safe to write into the statement.
  await db.exec(`comment on schema auth is '${stamp}'`);
}

async function ensureAdmin(
  db: Database,
  admin: { email: string; password: string | undefined },
): Promise<AdminAccount> {
  const email = admin.email.toLowerCase();
  return db.transaction(async (tx) => {
    const existing = await tx.query('select id from auth.users where lower(email) = $1', [email]);
    if (existing.rows.length > 0) return { email, generatedPassword: undefined, created: false };
    const generatedPassword = admin.password ? undefined : randomBytes(12).toString('base64url');
    const hash = await bcrypt.hash(admin.password ?? generatedPassword!, 10);
    const inserted = await tx.query<{ id: string }>(
      `insert into auth.users (email, encrypted_password, email_confirmed_at, raw_user_meta_data)
       values ($1, $2, now(), $3) returning id`,
      [email, hash, JSON.stringify({ email, email_verified: true, phone_verified: false })],
    );
    await tx.query(`update public.staff set role = 'admin' where user_id = $1`, [
      inserted.rows[0]!.id,
    ]);
    return { email, generatedPassword, created: true };
  });
}
