import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
import { asSuperuser, startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

// The move off the embedded default (docs/backup.md): a backup of a PGlite DATA_DIR restored by
// `npm run restore` into PostgreSQL (DATABASE_URL), and the server started there shows the same
// desk. PGlite dumps as PostgreSQL 18; the test cluster is Debian's (15 on bookworm), so the
// lines an older server refuses must be left out.

describe('a backup of the embedded database restored into PostgreSQL', () => {
  const folders: string[] = [];
  let server: ServerProcess | undefined;
  let postgres: TestPostgres | undefined;
  const folder = async (name: string) => {
    const made = await mkdtemp(path.join(tmpdir(), `${name}-`));
    folders.push(made);
    return made;
  };
  afterAll(async () => {
    await server?.kill('SIGKILL');
    postgres?.stop();
    for (const made of folders) await rm(made, { recursive: true, force: true });
  });

  it('starts on the restored database with the same desk, leads and documents', async () => {
    const dataDir = await folder('backup-pg-source');
    const backupDir = await folder('backup-pg-target');
    server = await startServerProcess({
      DATA_DIR: dataDir,
      BACKUP_DIR: backupDir,
      ADMIN_PASSWORD: admin.password,
    });
    const before = await fillDesk(server.url, dataDir);
    const leads: string[] = [];
    for (let i = 0; i < 5; i += 1) leads.push((await postLead(server.url))!);
    const backup = await runScript('backup', [], { DATA_DIR: dataDir, BACKUP_DIR: backupDir });
    expect(backup.code, backup.output).toBe(0);
    const file = writtenFile(backup.output);
    await server.kill('SIGTERM');
    server = undefined;

    postgres = await startTestPostgres();
    await asSuperuser(postgres, 'create database moved');
    const url = postgres.url('moved');
    const targetDir = path.join(await folder('backup-pg-restored'), 'data');
    const restore = await runScript('restore', [file], { DATABASE_URL: url, DATA_DIR: targetDir });
    expect(restore.code, restore.output).toBe(0);
    // A database that already holds the app's tables is refused.
    const again = await runScript('restore', [file], {
      DATABASE_URL: url,
      DATA_DIR: path.join(await folder('backup-pg-again'), 'data'),
    });
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/enthält bereits die Tabellen/);

    server = await startServerProcess({ DATABASE_URL: url, DATA_DIR: targetDir });
    const { client, token } = await signedInAdmin(server.url, targetDir);
    const after = await deskState(client, before.document.name);
    expect(after).toEqual(before);
    const stored = await storedLeads(server.url, token);
    expect(leads.filter((id) => !stored.has(id))).toEqual([]);
  }, 180_000);
});
