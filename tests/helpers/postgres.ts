import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './server-process.ts';

export interface TestPostgres {
  url(database?: string): string;
  stop(): void;
}

/** Debian's server binaries: /usr/lib/postgresql/<version>/bin, newest version first. */
function findPgBin(): string | undefined {
  if (process.env.PG_BIN && existsSync(path.join(process.env.PG_BIN, 'pg_ctl'))) {
    return process.env.PG_BIN;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/**
 * A throwaway PostgreSQL cluster for one test run. The server refuses to run as root, so as
 * root the cluster belongs to the `postgres` user that Debian's package creates.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = findPgBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL-Server nicht gefunden (pg_ctl). Bitte Debians Paket installieren: apt-get install -y postgresql',
    );
  }
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-test-'));
  const dataDir = path.join(dir, 'data');
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? 'runuser' : path.join(bin, tool);
    const fullArgs = asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
    const result = spawnSync(command, fullArgs, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${tool} fehlgeschlagen: ${result.stderr || result.stdout || result.error}`);
    }
  };
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  run('initdb', [
    '-D',
    dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`,
    '-w',
    'start',
  ]);
  return {
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs SQL on the test cluster as its superuser, as the person who administers the server. */
export async function asSuperuser(
  server: TestPostgres,
  sql: string,
  database = 'postgres',
): Promise<void> {
  const client = new pg.Client({ connectionString: server.url(database) });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
