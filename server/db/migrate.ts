import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from './database.ts';

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  skipped: string[];
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

// Supabase's CLI names files <YYYYMMDDHHMMSS>_<name>.sql and applies them in file-name order;
// keeping that form lets `supabase db push` apply the same folder to a hosted project.
const FILE_PATTERN = /^(\d{14})_([a-z0-9_]+)\.sql$/;
// Any constant works; it only has to be the same for every process that migrates this database.
const MIGRATION_LOCK = 727_2026;

export async function readMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (file) => {
      const match = FILE_PATTERN.exec(file);
      if (!match) throw new MigrationError(`Migrationsdatei falsch benannt: ${file}`);
      const sql = await readFile(path.join(dir, file), 'utf8');
      return {
        version: match[1]!,
        name: match[2]!,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    }),
  );
}

/**
 * Applies every migration not yet recorded, each in its own transaction together with its
 * record, so a failed migration leaves neither its changes nor a record behind, and the ones
 * after it are never attempted. An applied migration whose file changed since is refused: the
 * database would no longer match the files.
 */
export async function migrate(db: Database, migrations: Migration[]): Promise<MigrationReport> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      name text not null,
      checksum text not null,
      applied_at timestamptz not null default now()
    );`);
  const report: MigrationReport = { applied: [], skipped: [] };
  const known = new Set(migrations.map((m) => m.version));
  const recorded = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations order by version',
  );
  const unknown = recorded.rows.filter((r) => !known.has(r.version));
  if (unknown.length > 0) {
    throw new MigrationError(
      `Die Datenbank enthält Migrationen, die es als Datei nicht gibt: ${unknown.map((r) => r.version).join(', ')}`,
    );
  }

  for (const migration of migrations) {
    const label = `${migration.version}_${migration.name}`;
    const outcome = await db
      .transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        const existing = await tx.query<{ checksum: string }>(
          'select checksum from supabase_migrations.schema_migrations where version = $1',
          [migration.version],
        );
        const row = existing.rows[0];
        if (row) {
          if (row.checksum !== migration.checksum) {
            throw new MigrationError(
              `Migration ${label} wurde nach dem Anwenden geändert; lege eine neue Migration an.`,
            );
          }
          return 'skipped' as const;
        }
        await tx.exec(migration.sql);
        await tx.query(
          'insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $2, $3)',
          [migration.version, migration.name, migration.checksum],
        );
        return 'applied' as const;
      })
      .catch((error: unknown) => {
        if (error instanceof MigrationError) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new MigrationError(`Migration ${label} ist fehlgeschlagen: ${reason}`, {
          cause: error,
        });
      });
    report[outcome].push(label);
  }
  return report;
}
