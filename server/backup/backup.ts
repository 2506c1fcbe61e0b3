import { randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/database.ts';
import { createArchive } from './archive.ts';

/**
 * `universa-backup-20261128T093000123Z.zip` (UTC to the millisecond, so two backups in one second
 * keep both): sorts by time, and only such files are ever pruned.
 */
export const backupFilePattern = /^universa-backup-(\d{8}T\d{9}Z)\.zip$/;

export function backupFileName(at: Date): string {
  return `universa-backup-${at.toISOString().replace(/[-:.]/g, '')}.zip`;
}

/** What a backup holds, in its `manifest.json`. */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** The PostgreSQL version that wrote the dump (PGlite's). */
  postgres: string;
  /** The newest migration the database had. */
  newestMigration: string | null;
  counts: { leads: number; users: number; documents: number };
  /** SHA-256 (hex) per entry, the manifest itself excluded. */
  entries: Record<string, string>;
}

export interface BackupResult {
  file: string;
  bytes: number;
  counts: BackupManifest['counts'];
  /** How long intake waited: the dump's exclusive turn. */
  pauseMs: number;
  /** BACKUP_DIR is on the same file system as DATA_DIR. */
  sameDisk: boolean;
}

export interface BackupOptions {
  db: Database;
  dataDir: string;
  backupDir: string;
  now?: Date;
}

interface ObjectRow {
  bucket_id: string;
  name: string;
  version: string;
}

/**
 * A consistent backup of the embedded database while the server runs: pg_dump (pglite-tools) as
 * the only work on PGlite's one connection, and in the same turn each stored document's current
 * body hard-linked into a staging folder in DATA_DIR (same disk, microseconds per file), so the
 * dump and the documents show the same instant. Bodies never change once written, so the copy into
 * the archive happens after the turn, while intake goes on. Intake waits during the dump (about
 * 0.6 s per 1,000 leads, measured); nothing is refused.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const { db } = options;
  if (!db.exclusive) {
    throw new Error(
      'Diese Sicherung gilt der eingebauten Datenbank (PGlite). Für PostgreSQL: pg_dump, siehe docs/backup.md.',
    );
  }
  const dataDir = path.resolve(options.dataDir);
  const backupDir = path.resolve(options.backupDir);
  assertOutside(backupDir, dataDir);
  await mkdir(backupDir, { recursive: true });
  const at = options.now ?? new Date();
  const file = path.join(backupDir, backupFileName(at));
  const staging = path.join(dataDir, `.backup-staging-${randomUUID()}`);
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    // Loaded on the first backup, not at every start.
    const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump');
    const started = performance.now();
    const snapshot = await db.exclusive(async (pg) => {
      const dump = await pgDump({ pg, args: ['--no-owner'] });
      // pg_dump ran on the server's own session and leaves it inside its read-only, repeatable
      // read transaction (every write would fail) with its settings: row_security off (every
      // query under a policy would fail), extra_float_digits 3. It wrote nothing: end that
      // transaction and go back to the session's defaults (the app sets only transaction-local
      // settings).
      await pg.exec('rollback');
      await pg.exec('reset all');
      const facts = await pg.query<{
        postgres: string;
        migration: string | null;
        leads: number;
        users: number;
        has_storage: boolean;
      }>(
        `select current_setting('server_version') as postgres,
                (select max(version) from supabase_migrations.schema_migrations) as migration,
                (select count(*)::int from public.responses) as leads,
                (select count(*)::int from auth.users) as users,
                to_regclass('storage.objects') is not null as has_storage`,
      );
      const objects = facts.rows[0]?.has_storage
        ? (
            await pg.query<ObjectRow>(
              `select bucket_id, name, version from storage.objects where version is not null
                order by bucket_id, name`,
            )
          ).rows
        : [];
      const linked: string[] = [];
      for (const object of objects) {
        const name = entryName(object);
        if (!name) continue;
        const target = path.join(staging, ...name.split('/'));
        await mkdir(path.dirname(target), { recursive: true });
        try {
          await link(path.join(dataDir, ...name.split('/')), target);
          linked.push(name);
        } catch (error) {
          // A row whose body is gone (a crash between row and file) is in the dump all the same.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
      return { sql: await dump.text(), facts: facts.rows[0], linked };
    });
    const pauseMs = Math.round(performance.now() - started);
    const archive = await createArchive(`${file}.partial`);
    try {
      await archive.addBytes('database.sql', Buffer.from(snapshot.sql, 'utf8'), true);
      for (const name of snapshot.linked) {
        await archive.addFile(name, path.join(staging, ...name.split('/')));
      }
      const secret = await readFile(path.join(dataDir, 'jwt-secret')).catch(() => undefined);
      if (secret) await archive.addBytes('jwt-secret', secret, false);
      const manifest: BackupManifest = {
        format: 1,
        createdAt: at.toISOString(),
        postgres: snapshot.facts?.postgres ?? '',
        newestMigration: snapshot.facts?.migration ?? null,
        counts: {
          leads: snapshot.facts?.leads ?? 0,
          users: snapshot.facts?.users ?? 0,
          documents: snapshot.linked.length,
        },
        entries: { ...archive.hashes },
      };
      await archive.addBytes('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)), true);
      const bytes = await archive.finish();
      await rename(`${file}.partial`, file);
      return {
        file,
        bytes,
        counts: manifest.counts,
        pauseMs,
        sameDisk: await sameDisk(backupDir, dataDir),
      };
    } catch (error) {
      await archive.abort();
      await rm(`${file}.partial`, { force: true });
      throw error;
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** `storage/<bucket>/<name>/<version>`, or undefined for a name that would leave the store. */
function entryName(object: ObjectRow): string | undefined {
  const parts = [object.bucket_id, ...object.name.split('/'), object.version];
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\'))) {
    return undefined;
  }
  return ['storage', ...parts].join('/');
}

/** A backup inside DATA_DIR would be lost with it (and end up in the next backup). */
export function assertOutside(backupDir: string, dataDir: string): void {
  const relative = path.relative(dataDir, backupDir);
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    throw new Error(
      `BACKUP_DIR (${backupDir}) liegt in DATA_DIR (${dataDir}). Bitte einen Ordner außerhalb wählen.`,
    );
  }
}

/** Whether two folders (the first may not exist yet) are on the same file system. */
export async function sameDisk(backupDir: string, dataDir: string): Promise<boolean> {
  let probe = path.resolve(backupDir);
  for (;;) {
    const found = await stat(probe).catch(() => undefined);
    if (found) return found.dev === (await stat(dataDir)).dev;
    const parent = path.dirname(probe);
    if (parent === probe) return false;
    probe = parent;
  }
}

/** The backups in a folder, oldest first. */
export async function listBackups(backupDir: string): Promise<string[]> {
  const names = await readdir(backupDir).catch(() => [] as string[]);
  return names.filter((name) => backupFilePattern.test(name)).sort();
}

/** Keeps the newest `keep` backups in the folder; removes only files named like one. */
export async function pruneBackups(backupDir: string, keep: number): Promise<string[]> {
  const names = await listBackups(backupDir);
  const removed = names.slice(0, Math.max(0, names.length - keep));
  for (const name of removed) await rm(path.join(backupDir, name), { force: true });
  return removed;
}
