import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerIfStale, serverBundle } from '../../scripts/build-if-stale.mjs';
import { freePort } from '../helpers/server-process.ts';

// `npm start` runs the server compiled once into one module (scripts/build-if-stale.mjs), with
// plain Node instead of tsx. The compiled server is the same server: it finds the database's
// files (local Supabase schema, migrations, template) from where it lies, starts, answers and
// stops on SIGTERM; and a start whose sources did not change does not compile it again.

const root = fileURLToPath(new URL('../..', import.meta.url));

describe("npm start's compiled server", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'start-compiled-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is compiled once and not again while its sources stay as they are', async () => {
    expect(await buildServerIfStale()).toBe(serverBundle);
    const compiled = statSync(serverBundle).mtimeMs;
    expect(await buildServerIfStale()).toBe(serverBundle);
    expect(statSync(serverBundle).mtimeMs).toBe(compiled);
  }, 60_000);

  it('starts on a new data folder with every migration applied, answers, and stops on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [serverBundle], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        HOST: '127.0.0.1',
        PORT: String(port),
        ADMIN_PASSWORD: 'ein-langes-Passwort-1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 50_000;
      let ready: Response | undefined;
      while (!ready) {
        if (child.exitCode !== null) throw new Error(`Server beendet:\n${output}`);
        if (Date.now() > deadline) throw new Error(`Server nicht bereit:\n${output}`);
        ready = await fetch(`${url}/api/ready`).catch(() => undefined);
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The readiness check compares the database with the migration files it finds.
      expect(ready.status).toBe(200);
      const report = (await ready.json()) as {
        checks: Record<string, Array<{ status: string }>>;
      };
      expect(report.checks['database:migrations']?.[0]?.status).toBe('pass');
      expect(output).toContain('Admin-Konto angelegt: ');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
