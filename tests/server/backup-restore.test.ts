import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assertOutside,
  backupFileName,
  backupFilePattern,
  pruneBackups,
} from '../../server/backup/backup.ts';
import {
  admin,
  deskState,
  fillDesk,
  postLead,
  runScript,
  signedInAdmin,
  storedLeads,
  writtenFile,
} from '../helpers/backup-fixture.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

// `npm run backup` against a server that keeps taking leads, `npm run restore` into a fresh
// DATA_DIR, and a server started on it: every lead acknowledged before the backup began, the
// desk's accounts, the documents and the access log are there (docs/backup.md).

describe('a backup of the running embedded database', () => {
  const folders: string[] = [];
  let server: ServerProcess | undefined;
  const folder = async (name: string) => {
    const made = await mkdtemp(path.join(tmpdir(), `${name}-`));
    folders.push(made);
    return made;
  };
  afterAll(async () => {
    await server?.kill('SIGKILL');
    for (const made of folders) await rm(made, { recursive: true, force: true });
  });

  it('restores into an empty DATA_DIR with every lead acknowledged before it began', async () => {
    const dataDir = await folder('backup-source');
    const backupDir = await folder('backup-target');
    const env = {
      DATA_DIR: dataDir,
      BACKUP_DIR: backupDir,
      ADMIN_PASSWORD: admin.password,
      RATE_LIMIT_SUBMISSIONS_PER_MINUTE: '100000',
    };
    server = await startServerProcess(env);
    const running = server;
    const before = await fillDesk(running.url, dataDir);

    // Four senders, each at most one lead per 50 ms, for as long as the backup runs, and 450
    // leads in all at most (the hub lists 500 at once).
    const acknowledged: string[] = [];
    let sending = true;
    const sender = async () => {
      while (sending && acknowledged.length < 450) {
        const id = await postLead(running.url);
        if (id) acknowledged.push(id);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 20));
    const beforeBackup = [...acknowledged];
    const backup = await runScript('backup', [], { DATA_DIR: dataDir, BACKUP_DIR: backupDir });
    const duringBackup = acknowledged.length - beforeBackup.length;
    sending = false;
    await Promise.all(senders);
    expect(backup.code, backup.output).toBe(0);
    // Intake went on while the server wrote the backup.
    expect(duringBackup).toBeGreaterThan(0);
    // Two temporary folders share a disk: the CLI says so.
    expect(backup.output).toMatch(/Achtung: Die Sicherung liegt auf demselben Datenträger/);
    const file = writtenFile(backup.output);
    expect(path.dirname(file)).toBe(backupDir);
    expect(path.basename(file)).toMatch(backupFilePattern);
    // The server wrote its daily backup at start too (BACKUP_DIR set, none there yet).
    expect((await readdir(backupDir)).filter((name) => backupFilePattern.test(name))).toHaveLength(
      2,
    );
    // The server stores leads after the backup too (pg_dump's transaction did not stay open).
    expect(await postLead(running.url)).toBeDefined();
    // The running server's desk still reads as before: pg_dump's session settings (row_security
    // off) did not stay on its connection.
    const { client: stillRunning } = await signedInAdmin(running.url, dataDir);
    expect(await deskState(stillRunning, before.document.name)).toEqual(before);
    await running.kill('SIGTERM');
    server = undefined;

    // A folder that holds anything is refused, and left as it was.
    const refused = await runScript('restore', [file], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/ist nicht leer/);

    const restoredDir = path.join(await folder('backup-restored'), 'data');
    const restore = await runScript('restore', [file], { DATA_DIR: restoredDir });
    expect(restore.code, restore.output).toBe(0);

    server = await startServerProcess({ DATA_DIR: restoredDir });
    const { client, token } = await signedInAdmin(server.url, restoredDir);
    const after = await deskState(client, before.document.name);
    expect(after.staff).toEqual(before.staff);
    expect(after.document).toEqual(before.document);
    expect(after.accessLog).toEqual(before.accessLog);
    expect(after.accessLog.map((line) => line.action)).toContain('answers_viewed');
    const stored = await storedLeads(server.url, token);
    expect(beforeBackup.filter((id) => !stored.has(id))).toEqual([]);
    console.log(
      `Sicherung: ${beforeBackup.length} Leads vor dem Start bestätigt, ${duringBackup} währenddessen`,
    );
  }, 180_000);
});

describe('the backup folder', () => {
  it('keeps the newest BACKUP_KEEP backups and removes only files named like one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'backup-prune-'));
    try {
      const names = [0, 1, 2, 3].map((day) =>
        backupFileName(new Date(Date.UTC(2026, 10, 20 + day))),
      );
      for (const name of [...names, 'notizen.txt', 'universa-backup-kaputt.zip']) {
        await writeFile(path.join(dir, name), 'x');
        await utimes(path.join(dir, name), new Date(), new Date());
      }
      expect(await pruneBackups(dir, 2)).toEqual(names.slice(0, 2));
      expect((await readdir(dir)).sort()).toEqual(
        [...names.slice(2), 'notizen.txt', 'universa-backup-kaputt.zip'].sort(),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a BACKUP_DIR inside DATA_DIR', () => {
    expect(() => assertOutside('/srv/data/backups', '/srv/data')).toThrow(/liegt in DATA_DIR/);
    expect(() => assertOutside('/srv/data', '/srv/data')).toThrow(/liegt in DATA_DIR/);
    expect(() => assertOutside('/srv/backups', '/srv/data')).not.toThrow();
  });
});
