import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import type { Database } from './database.ts';
import { migrate, readMigrations, type MigrationReport } from './migrate.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const migrationsDir = `${root}supabase/migrations`;
const seedFile = `${root}supabase/seed.sql`;
// What a hosted project already has, in order: roles and `auth`, then `storage`.
const localSupabaseFiles = ['supabase-local.sql', 'supabase-local-storage.sql'].map((name) =>
  fileURLToPath(new URL(`./${name}`, import.meta.url)),
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
    for (const file of localSupabaseFiles) await db.exec(await readFile(file, 'utf8'));
  }
  const migrations = await migrate(db, await readMigrations(migrationsDir));
  // Seed exactly once, on the start that created the schema: data deleted later by staff
  // must not come back on the next restart.
  const seeded = migrations.applied.length > 0 && migrations.skipped.length === 0;
  if (seeded) {
    const seedSql = await readFile(seedFile, 'utf8');
    await db.transaction((tx) => tx.exec(seedSql));
  }
  const admin = options.gateway && options.admin ? await ensureAdmin(db, options.admin) : undefined;
  return { migrations, seeded, admin };
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
