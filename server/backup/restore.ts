import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/database.ts';
import { readArchive, type ArchiveContents } from './archive.ts';
import type { BackupManifest } from './backup.ts';

/**
 * The API roles the dump's grants name. pg_dump writes no roles; a hosted project and the local
 * gateway's start (server/db/supabase-local.sql) create them, a restore has to first.
 */
const apiRolesSql = `do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;`;

export interface RestoreResult {
  counts: BackupManifest['counts'];
  createdAt: string;
  /** The generated secret came back into DATA_DIR/jwt-secret. */
  secretRestored: boolean;
}

interface Backup {
  manifest: BackupManifest;
  sql: string;
  secret: Buffer | undefined;
  /** The folder below which the documents were unpacked (`storage/…`). */
  unpacked: string;
  documents: number;
}

/** Unpacks a backup below `unpacked` and checks every entry against the manifest. */
async function readBackup(file: string, unpacked: string): Promise<Backup> {
  let contents: ArchiveContents;
  try {
    contents = await readArchive(file, unpacked);
  } catch (error) {
    throw new Error(`Die Sicherung ${file} ist nicht lesbar: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const manifestBytes = contents.inMemory.get('manifest.json');
  const sql = contents.inMemory.get('database.sql');
  if (!manifestBytes || !sql) {
    throw new Error(
      `${file} ist keine vollständige Sicherung (manifest.json oder database.sql fehlt).`,
    );
  }
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as BackupManifest;
  if (manifest.format !== 1)
    throw new Error(`Unbekanntes Sicherungsformat ${String(manifest.format)}.`);
  const names = Object.keys(manifest.entries);
  const read = Object.keys(contents.hashes).filter((name) => name !== 'manifest.json');
  for (const name of new Set([...names, ...read])) {
    if (manifest.entries[name] !== contents.hashes[name]) {
      throw new Error(
        `Die Sicherung ist beschädigt: ${name} stimmt nicht mit manifest.json überein.`,
      );
    }
  }
  return {
    manifest,
    sql: sql.toString('utf8'),
    secret: contents.inMemory.get('jwt-secret'),
    unpacked,
    documents: contents.onDisk.length,
  };
}

/** A folder that is missing or holds nothing. */
async function isEmptyFolder(folder: string): Promise<boolean> {
  const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  return entries.length === 0;
}

/**
 * Restores a backup into an empty DATA_DIR: the database into DATA_DIR/pglite, the documents
 * into DATA_DIR/storage and the generated secret (unless JWT_SECRET is set). A folder that holds
 * anything is refused, so a restore never mixes with or overwrites data. On failure DATA_DIR is
 * emptied again. `npm start` then applies migrations newer than the backup.
 */
export async function restoreIntoDataDir(options: {
  file: string;
  dataDir: string;
  keepSecret: boolean;
}): Promise<RestoreResult> {
  const dataDir = path.resolve(options.dataDir);
  if (!(await isEmptyFolder(dataDir))) {
    throw new Error(
      `DATA_DIR ${dataDir} ist nicht leer. Die Wiederherstellung schreibt nur in einen leeren Ordner.`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  const unpacked = path.join(dataDir, `.restore-${randomUUID()}`);
  try {
    const backup = await readBackup(path.resolve(options.file), unpacked);
    const db = await openDatabase({ dataDir });
    try {
      await db.exec(apiRolesSql);
      await db.exec(backup.sql);
    } finally {
      await db.close();
    }
    await moveDocuments(backup, dataDir);
    const secretRestored = Boolean(backup.secret) && options.keepSecret;
    if (backup.secret && options.keepSecret) {
      await writeFile(path.join(dataDir, 'jwt-secret'), backup.secret, { mode: 0o600, flag: 'wx' });
    }
    await rm(unpacked, { recursive: true, force: true });
    return { counts: backup.manifest.counts, createdAt: backup.manifest.createdAt, secretRestored };
  } catch (error) {
    // The folder was empty before: leave it so, and a second try finds it empty again.
    for (const entry of await readdir(dataDir).catch(() => [] as string[])) {
      await rm(path.join(dataDir, entry), { recursive: true, force: true });
    }
    throw error;
  }
}

/**
 * Restores a backup into PostgreSQL (DATABASE_URL, the local gateway on PostgreSQL): the dump in
 * one transaction into a database without the app's tables, the documents into that server's
 * DATA_DIR/storage. PGlite's pg_dump is PostgreSQL 18's; lines an older server refuses are left
 * out (`SET transaction_timeout`, PostgreSQL 17+). The role that connects must be able to create
 * the API roles or already have them (docs/production.md).
 */
export async function restoreIntoPostgres(options: {
  file: string;
  databaseUrl: string;
  dataDir: string;
  keepSecret: boolean;
}): Promise<RestoreResult> {
  const dataDir = path.resolve(options.dataDir);
  const storage = path.join(dataDir, 'storage');
  if (!(await isEmptyFolder(storage))) {
    throw new Error(
      `${storage} ist nicht leer. Die Dokumente der Sicherung gehören in einen leeren Ordner.`,
    );
  }
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  await mkdir(dataDir, { recursive: true });
  const unpacked = path.join(dataDir, `.restore-${randomUUID()}`);
  try {
    const target = await client.query<{ occupied: boolean; version: number }>(
      `select to_regclass('public.responses') is not null as occupied,
              current_setting('server_version_num')::int as version`,
    );
    if (target.rows[0]?.occupied) {
      throw new Error(
        'Die Zieldatenbank enthält bereits die Tabellen der App. Bitte in eine leere Datenbank wiederherstellen.',
      );
    }
    const backup = await readBackup(path.resolve(options.file), unpacked);
    const sql = forPostgres(backup.sql, target.rows[0]?.version ?? 0);
    await client.query(apiRolesSql);
    await client.query('begin');
    try {
      // Without parameters pg uses the simple protocol, which takes the whole script at once.
      await client.query(sql);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
    await moveDocuments(backup, dataDir);
    const jwtFile = path.join(dataDir, 'jwt-secret');
    const secretRestored =
      Boolean(backup.secret) && options.keepSecret && !(await stat(jwtFile).catch(() => undefined));
    if (backup.secret && secretRestored) {
      await writeFile(jwtFile, backup.secret, { mode: 0o600, flag: 'wx' });
    }
    return { counts: backup.manifest.counts, createdAt: backup.manifest.createdAt, secretRestored };
  } finally {
    await rm(unpacked, { recursive: true, force: true });
    await client.end();
  }
}

/** The dump without what a server older than PostgreSQL 17 refuses. */
export function forPostgres(sql: string, serverVersionNum: number): string {
  if (serverVersionNum >= 170000) return sql;
  return sql.replace(/^SET transaction_timeout = .*$/gm, '');
}

async function moveDocuments(backup: Backup, dataDir: string): Promise<void> {
  if (backup.documents === 0) return;
  await rename(path.join(backup.unpacked, 'storage'), path.join(dataDir, 'storage'));
}
