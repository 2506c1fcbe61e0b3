// The two databases `npm run db:diff` and tests/database/declarative-schema.test.ts compare: one
// migrated from supabase/migrations by the server's own runner, one built from the declarative
// schema files in supabase/schemas. Both start from the same local stand-ins for what a hosted
// project already has (roles, `auth`, `storage`: server/db/supabase-local*.sql).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database } from '../server/db/database.ts';
import { migrate, readMigrations } from '../server/db/migrate.ts';
import { applyLocalSupabase, migrationsDir } from '../server/db/setup.ts';

export { migrationsDir };
export const schemasDir = fileURLToPath(new URL('../supabase/schemas', import.meta.url));

export interface SchemaFile {
  name: string;
  sql: string;
}

/** The schema files in the order Supabase applies them: by file name. */
export async function readSchemaFiles(dir = schemasDir): Promise<SchemaFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => ({ name, sql: await readFile(path.join(dir, name), 'utf8') })),
  );
}

/** Opens `url` (PostgreSQL), runs `fill` on it and closes it again. */
async function withDatabase(url: string, fill: (db: Database) => Promise<void>): Promise<void> {
  const db = await openDatabase({ databaseUrl: url });
  try {
    await applyLocalSupabase(db);
    await fill(db);
  } finally {
    await db.close();
  }
}

/** Applies every migration of `dir` to the empty database at `url`, as the server does. */
export async function buildMigrated(url: string, dir = migrationsDir): Promise<void> {
  await withDatabase(url, async (db) => {
    await migrate(db, await readMigrations(dir));
  });
}

/** Runs the schema files, in order, on the empty database at `url`. */
export async function buildDeclared(url: string, files: SchemaFile[]): Promise<void> {
  await withDatabase(url, async (db) => {
    for (const file of files) {
      try {
        await db.transaction((tx) => tx.exec(file.sql));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Schemadatei ${file.name} fehlgeschlagen: ${reason}`, { cause: error });
      }
    }
  });
}
