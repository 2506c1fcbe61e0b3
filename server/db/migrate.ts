import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database, Queryable } from './database.ts';

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
 * The Supabase CLI's own history table, created exactly as the CLI creates it: this runner and
 * `supabase db push` share it, so each sees what the other applied and neither applies a file
 * twice (DESIGN 6). A row is what the CLI writes: version, name and the file's statements.
 */
const HISTORY_TABLE = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
  alter table supabase_migrations.schema_migrations add column if not exists statements text[];
  alter table supabase_migrations.schema_migrations add column if not exists name text;`;

/**
 * The text a migration's statements stand for, whoever recorded them: the CLI splits a file at
 * its semicolons and trims each statement, this runner keeps the file whole. Without whitespace
 * and semicolons both read the same, and any other edit still shows.
 */
const fingerprint = (sql: string) => sql.replace(/[\s;]+/g, '');

/**
 * Applies every migration not yet recorded, each in its own transaction together with its
 * record, so a failed migration leaves neither its changes nor a record behind, and the ones
 * after it are never attempted. An applied migration whose file changed since is refused: the
 * database would no longer match the files.
 */
export async function migrate(db: Database, migrations: Migration[]): Promise<MigrationReport> {
  const stamp = `Migrationen ${createHash('sha256')
    .update(migrations.map((m) => `${m.version}:${textDigest(m.sql)}`).join('\n'))
    .digest('hex')}`;
  if (await allRecorded(db, migrations, stamp)) {
    return { applied: [], skipped: migrations.map((m) => `${m.version}_${m.name}`) };
  }
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(HISTORY_TABLE);
    await upgradeOwnHistory(tx, migrations);
  });
  const report: MigrationReport = { applied: [], skipped: [] };
  const known = new Set(migrations.map((m) => m.version));
  // A digest of each recorded text rather than the text: the statements of every migration are
  // half a megabyte, and PGlite parsing that array took most of a restart's second
  // (bench:startup). Where a digest differs, the text itself decides (sameText).
  const recorded = await db.query<{ version: string; digest: string | null }>(
    `select version,
            encode(sha256(convert_to(
              regexp_replace(array_to_string(statements, ''), '[ \t\n\r\f\v;]+', '', 'g'),
              'UTF8')), 'hex') as digest
       from supabase_migrations.schema_migrations order by version`,
  );
  const unknown = recorded.rows.filter((r) => !known.has(r.version));
  if (unknown.length > 0) {
    throw new MigrationError(
      `Die Datenbank enthält Migrationen, die es als Datei nicht gibt: ${unknown.map((r) => r.version).join(', ')}`,
    );
  }

  // A restart finds every file recorded: compared here from the one read above, without a
  // transaction per file (bench:startup). Recorded rows are never rewritten, so only files not
  // yet recorded need the lock, which checks again whether another process applied them.
  const digestOf = new Map(recorded.rows.map((r) => [r.version, r.digest]));
  for (const migration of migrations) {
    const label = `${migration.version}_${migration.name}`;
    if (digestOf.has(migration.version)) {
      const digest = digestOf.get(migration.version);
      if (digest && digest !== textDigest(migration.sql)) {
        const stored = await db.query<{ statements: string[] }>(
          'select statements from supabase_migrations.schema_migrations where version = $1',
          [migration.version],
        );
        if (!sameText(stored.rows[0]!.statements.join(''), migration.sql)) {
          throw new MigrationError(
            `Migration ${label} wurde nach dem Anwenden geändert; lege eine neue Migration an.`,
          );
        }
      }
      report.skipped.push(label);
      continue;
    }
    const outcome = await db
      .transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        const existing = await tx.query<{ statements: string[] | null }>(
          'select statements from supabase_migrations.schema_migrations where version = $1',
          [migration.version],
        );
        const row = existing.rows[0];
        if (row) {
          // A version recorded without its statements (`supabase migration repair`) cannot be
          // compared; the CLI takes it as applied, and so does this runner.
          if (row.statements && !sameText(row.statements.join(''), migration.sql)) {
            throw new MigrationError(
              `Migration ${label} wurde nach dem Anwenden geändert; lege eine neue Migration an.`,
            );
          }
          return 'skipped' as const;
        }
        await tx.exec(migration.sql);
        await tx.query(
          'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
          [migration.version, migration.name, [migration.sql.trim()]],
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
  // Hex digits and a word only: safe to write into the statement. Only the table's owner may set
  // its comment; without it every start compares as above.
  await db
    .exec(`comment on table supabase_migrations.schema_migrations is '${stamp}'`)
    .catch(() => {});
  return report;
}

/**
 * A restart's shortcut: the run that last found these very files (their digests) applied left
 * their stamp as the history table's comment, and the table still records exactly their
 * versions. Rows are never rewritten; a version added or removed since (the CLI, a repair)
 * shows in the list, a file changed since in the stamp, and either takes the full comparison.
 */
async function allRecorded(db: Database, migrations: Migration[], stamp: string) {
  const table = await db.query<{ stamp: string | null }>(
    `select obj_description(to_regclass('supabase_migrations.schema_migrations'), 'pg_class') as stamp`,
  );
  if (table.rows[0]?.stamp !== stamp) return false;
  const recorded = await db.query<{ versions: string | null }>(
    `select string_agg(version, ',' order by version) as versions
       from supabase_migrations.schema_migrations`,
  );
  return recorded.rows[0]?.versions === migrations.map((m) => m.version).join(',');
}

const sameText = (a: string, b: string) => fingerprint(a) === fingerprint(b);

/**
 * The digest the history query computes of a recorded text: without ASCII whitespace and
 * semicolons. Other white space (a no-break space) may count differently in the database's
 * locale; then the digests differ and sameText compares the texts.
 */
const textDigest = (sql: string) =>
  createHash('sha256')
    .update(sql.replace(/[ \t\n\r\f\v;]+/g, ''))
    .digest('hex');

/**
 * Databases migrated by an earlier version of this runner carry its own columns in the CLI's
 * table (a required `checksum`, which made every `supabase db push` insert fail). Their rows get
 * the statements of the files they were checked against, then the table takes the CLI's shape.
 */
async function upgradeOwnHistory(tx: Queryable, migrations: Migration[]): Promise<void> {
  const own = await tx.query(
    `select from information_schema.columns
     where table_schema = 'supabase_migrations' and table_name = 'schema_migrations'
       and column_name = 'checksum'`,
  );
  if (own.rows.length === 0) return;
  const rows = await tx.query<{ version: string; checksum: string }>(
    'select version, checksum from supabase_migrations.schema_migrations',
  );
  for (const row of rows.rows) {
    const file = migrations.find((m) => m.version === row.version);
    // An unknown version is refused right after, by the rules of every run.
    if (!file) continue;
    if (file.checksum !== row.checksum) {
      throw new MigrationError(
        `Migration ${file.version}_${file.name} wurde nach dem Anwenden geändert; lege eine neue Migration an.`,
      );
    }
    await tx.query(
      'update supabase_migrations.schema_migrations set statements = $2 where version = $1',
      [row.version, [file.sql.trim()]],
    );
  }
  await tx.exec(`
    alter table supabase_migrations.schema_migrations
      drop column checksum,
      drop column if exists applied_at,
      alter column name drop not null;`);
}
