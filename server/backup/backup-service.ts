import { mkdir, rm, stat, chmod } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Database } from '../db/database.ts';
import { startPeriodicJob, type PeriodicJob } from '../jobs/periodic-job.ts';
import {
  assertOutside,
  createBackup,
  listBackups,
  pruneBackups,
  sameDisk,
  type BackupResult,
} from './backup.ts';

const dayMs = 24 * 60 * 60 * 1000;
/** The daily job looks this often whether the newest backup is a day old. */
const checkEveryMs = 60 * 60 * 1000;

export interface BackupLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: { code: string }, message: string): void;
}

export interface BackupServiceOptions {
  db: Database;
  dataDir: string;
  /** BACKUP_DIR; undefined: no daily backup. */
  dailyDir: string | undefined;
  /** Where a backup asked for over the control socket goes (BACKUP_DIR, else ./backups). */
  manualDir: string;
  keep: number;
  log: BackupLog;
}

export interface BackupService {
  /** One backup into `dir` now, after one in progress (never two dumps at once). */
  backup(dir: string): Promise<BackupResult>;
  /** Lines for the start banner (stdout). */
  readonly banner: string[];
  stop(): Promise<void>;
}

/**
 * Backups of the running embedded database (docs/backup.md): the daily one into BACKUP_DIR, pruned
 * to BACKUP_KEEP, and the ones `npm run backup` asks for over the control socket. PGlite only;
 * with DATABASE_URL the database is PostgreSQL's to back up (pg_dump), and the banner says so.
 */
export async function startBackupService(options: BackupServiceOptions): Promise<BackupService> {
  const { db, dataDir, log } = options;
  const banner: string[] = [];
  if (db.kind !== 'pglite') {
    banner.push(
      '  Sicherung: PostgreSQL sichert pg_dump (docs/backup.md), die Dokumente DATA_DIR/storage.',
    );
    return { banner, backup: () => Promise.reject(new Error('PGlite only')), stop: async () => {} };
  }
  let last: Promise<unknown> = Promise.resolve();
  const backup = (dir: string): Promise<BackupResult> => {
    const next = last
      .catch(() => undefined)
      .then(() => createBackup({ db, dataDir, backupDir: dir }));
    last = next;
    return next.then(async (result) => {
      log.info(
        { file: path.basename(result.file), bytes: result.bytes, pauseMs: result.pauseMs },
        'backup written',
      );
      if (result.sameDisk) log.warn({ dir }, 'backup on the same disk as DATA_DIR');
      return result;
    });
  };

  let job: PeriodicJob<unknown> | undefined;
  const dailyDir = options.dailyDir;
  if (dailyDir) {
    // A BACKUP_DIR inside DATA_DIR stops the start, with the reason.
    assertOutside(dailyDir, dataDir);
    await mkdir(dailyDir, { recursive: true });
    const onSameDisk = await sameDisk(dailyDir, dataDir);
    banner.push(
      `  Tägliche Sicherung: ${dailyDir} (die letzten ${options.keep})`,
      ...(onSameDisk
        ? [
            '  Achtung: BACKUP_DIR liegt auf demselben Datenträger wie DATA_DIR; ein Plattenausfall trifft beide.',
          ]
        : []),
    );
    if (onSameDisk) log.warn({ dir: dailyDir }, 'backup on the same disk as DATA_DIR');
    const due = async () => {
      const newest = (await listBackups(dailyDir)).at(-1);
      if (!newest) return true;
      const written = await stat(path.join(dailyDir, newest)).catch(() => undefined);
      return !written || Date.now() - written.mtimeMs >= dayMs - checkEveryMs / 2;
    };
    job = startPeriodicJob({
      run: async () => {
        if (!(await due())) return;
        await backup(dailyDir);
        const removed = await pruneBackups(dailyDir, options.keep);
        if (removed.length > 0) log.info({ removed: removed.length }, 'old backups removed');
      },
      intervalMs: checkEveryMs,
      log,
      failure: 'backup failed',
      first: due,
    });
  } else {
    banner.push('  Tägliche Sicherung: aus (BACKUP_DIR setzen, siehe docs/backup.md)');
  }

  const answer = async () => {
    const result = await backup(options.manualDir);
    return {
      file: result.file,
      bytes: result.bytes,
      counts: result.counts,
      sameDisk: result.sameDisk,
      pauseMs: result.pauseMs,
    };
  };
  let socket: { close(): Promise<void> } | undefined;
  try {
    socket = await startControlSocket(dataDir, answer);
  } catch (error) {
    if (error instanceof ServerHoldsFolder) throw error;
    // E.g. a DATA_DIR path too long for a socket (about 100 bytes): the server runs, and
    // `npm run backup` says it cannot reach it.
    log.warn({ code: (error as NodeJS.ErrnoException).code ?? 'unknown' }, 'no control socket');
    banner.push(
      '  Achtung: kein Steuer-Socket; "npm run backup" braucht dann den gestoppten Server.',
    );
  }

  return {
    banner,
    backup,
    stop: async () => {
      await job?.stop();
      await socket?.close();
      await last.catch(() => undefined);
    },
  };
}

/** `DATA_DIR/control/backup.sock`, in a folder only the server's user may enter. */
export function controlSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'control', 'backup.sock');
}

/**
 * The control socket `npm run backup` asks: a Unix socket, not an HTTP route. Only the user the
 * server runs as (who can read DATA_DIR anyway) can reach it: its folder has mode 0700 and the
 * socket 0600, there is no secret to manage and nothing on the network can start a dump (which
 * pauses intake for seconds). One request: `POST /backup` → the new file and its counts.
 */
export async function startControlSocket(
  dataDir: string,
  onBackup: () => Promise<object>,
): Promise<{ close(): Promise<void> }> {
  const file = controlSocketPath(dataDir);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await chmod(path.dirname(file), 0o700);
  // A socket left by a process that ended without closing it; one that answers belongs to a
  // running server, and two servers on one PGlite folder would break it.
  if (await answers(file)) throw new ServerHoldsFolder(dataDir);
  await rm(file, { force: true });
  const server = http.createServer((request, response) => {
    request.resume();
    if (request.method !== 'POST' || request.url !== '/backup') {
      response.writeHead(404).end();
      return;
    }
    request.on('end', () => {
      onBackup().then(
        (result) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(result));
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: (error as Error).message }));
        },
      );
    });
  });
  // A dump takes seconds; the CLI waits for it.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  await chmod(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Another process answers on the control socket: it holds DATA_DIR. */
export class ServerHoldsFolder extends Error {
  constructor(dataDir: string) {
    super(`Ein anderer Server hält ${path.resolve(dataDir)} (sein Steuer-Socket antwortet).`);
    this.name = 'ServerHoldsFolder';
  }
}

/** Whether a server listens on the control socket. */
export function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.request({ socketPath: file, method: 'GET', path: '/' }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('error', () => resolve(false));
    request.end();
  });
}

/** Asks the running server for a backup; undefined when no server listens in this DATA_DIR. */
export function requestBackup(dataDir: string): Promise<Record<string, unknown> | undefined> {
  const file = controlSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath: file, method: 'POST', path: '/backup' },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () => {
          const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<
            string,
            unknown
          >;
          if (response.statusCode === 200) resolve(body);
          else
            reject(
              new Error(
                typeof body.error === 'string' ? body.error : `Status ${response.statusCode}`,
              ),
            );
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined);
      else reject(error);
    });
    request.end();
  });
}
