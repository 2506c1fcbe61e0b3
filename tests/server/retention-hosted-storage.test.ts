import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentObjectName } from '../../src/domain/routes.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { startRetentionJob } from '../../server/jobs/retention-job.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';

// Hosted mode (GATEWAY=off): Storage keeps a given-up document's row and body, so the retention
// job removes the names apply_retention queued through Storage's API with the service-role key
// (SUPABASE_SERVICE_ROLE_KEY), and without the key says in the log how many wait. The local
// gateway's Storage stands in for the project's: with a `storage.migrations` table,
// apply_retention treats it as hosted Storage and leaves the rows to the API.

const day = 24 * 60 * 60 * 1000;
const pdf = (text: string) =>
  new Blob([`%PDF-1.4\n% ${text}\n%%EOF\n`], { type: 'application/pdf' });

function bodiesOf(dataDir: string): string[] {
  try {
    return readdirSync(path.join(dataDir, 'storage', 'documents'), {
      recursive: true,
      withFileTypes: true,
    })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Nicht eingetreten: ${what}`);
}

describe('retention job with hosted Storage', () => {
  let server: GatewayServer;
  // 40 days on: every upload below is past its 30 days at the job's clock.
  const clock = new Date(Date.now() + 40 * day);
  const log = new PassThrough();
  let logged = '';
  log.on('data', (chunk: Buffer) => (logged += chunk.toString()));
  const lines = () =>
    logged
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const gone = documentObjectName(1, 'Abgelaufen-Erika-Muster.pdf', crypto.randomUUID());
  const replaced = documentObjectName(1, 'Neu-hochgeladen.pdf', crypto.randomUUID());
  const missing = documentObjectName(1, 'Schon-weg.pdf', crypto.randomUUID());
  const queue = async () =>
    (await server.db.query<{ name: string }>('select name from public.retention_file_queue')).rows
      .map((row) => row.name)
      .sort();

  beforeAll(async () => {
    server = await startGatewayServer(
      'pglite',
      // Hosted Storage has its own migrations table; the local emulation has none.
      (db) => db.exec('create table storage.migrations (id integer)'),
      { name: 'retention-hosted-storage' },
    );
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('without the key keeps the names queued and says once per run how many wait', async () => {
    const admin = server.client(
      (await createAccount(server.db, 'h-admin@example.de', 'admin')).accessToken,
    );
    for (const name of [gone, replaced]) {
      const upload = await admin.storage.from('documents').upload(name, pdf('alt'));
      expect(upload.error).toBeNull();
    }
    const job = startRetentionJob({
      db: server.db,
      log: pino({ level: 'info' }, log),
      now: () => clock,
    });
    await until(async () => lines().some((line) => line.msg === 'retention run'), 'der Lauf');
    await job.stop();

    // Queued, and on hosted Storage still there: row and body.
    expect(await queue()).toEqual([gone, replaced].sort());
    expect(bodiesOf(server.dataDir)).toHaveLength(2);
    const waiting = lines().filter((line) => line.level === 40);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ queued: 2 });
    expect(waiting[0]!.msg).toContain('SUPABASE_SERVICE_ROLE_KEY');
    expect(logged).not.toMatch(/erika|muster|Abgelaufen|\.pdf/i);
  });

  it('with a key Storage refuses leaves every name queued and logs the status only', async () => {
    logged = '';
    const wrong = await apiKeys('ein-anderes-geheimnis-das-lang-genug-fuer-hs256-ist');
    const job = startRetentionJob({
      db: server.db,
      log: pino({ level: 'info' }, log),
      now: () => clock,
      storage: { url: server.url, serviceRoleKey: wrong.serviceRoleKey },
    });
    // The last run is at this clock: the pass only hands the queue to Storage.
    expect(await job.runNow()).toBeUndefined();
    await job.stop();
    expect(await queue()).toEqual([gone, replaced].sort());
    expect(bodiesOf(server.dataDir)).toHaveLength(2);
    const failed = lines().filter((line) => line.msg === 'retention storage removal failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.code).toMatch(/^storage-4\d\d$/);
    expect(logged).not.toMatch(/erika|muster|Abgelaufen|\.pdf/i);
  });

  it('with the service-role key removes the queued documents through Storage and empties the queue', async () => {
    logged = '';
    const admin = server.client(
      (await createAccount(server.db, 'h-admin2@example.de', 'admin')).accessToken,
    );
    // Uploaded again after the run gave it up: another version, which must stay.
    const again = await admin.storage
      .from('documents')
      .upload(replaced, pdf('neu'), { upsert: true });
    expect(again.error).toBeNull();
    // Queued, but already removed by hand.
    await server.db.query(
      `insert into public.retention_file_queue (bucket_id, name, version) values ('documents', $1, 'v1')`,
      [missing],
    );
    const { serviceRoleKey } = await apiKeys(server.secret);
    const job = startRetentionJob({
      db: server.db,
      log: pino({ level: 'info' }, log),
      now: () => clock,
      storage: { url: server.url, serviceRoleKey },
    });
    expect(await job.runNow()).toBeUndefined();
    await job.stop();

    expect(await queue()).toEqual([]);
    const anon = server.client();
    const removed = await anon.storage.from('documents').download(gone);
    expect(removed.error).not.toBeNull();
    const kept = await anon.storage.from('documents').download(replaced);
    expect(await kept.data!.text()).toContain('% neu');
    // The removed document's body is gone from DATA_DIR; the new version's stays.
    expect(bodiesOf(server.dataDir)).toHaveLength(1);
    const objects = await server.db.query<{ name: string }>(
      `select name from storage.objects where bucket_id = 'documents'`,
    );
    expect(objects.rows.map((row) => row.name)).toEqual([replaced]);
    expect(lines().find((line) => line.msg === 'retention storage removal')).toMatchObject({
      files: { removed: 1, dequeued: 3 },
    });
    expect(logged).not.toMatch(/erika|muster|Abgelaufen|Schon-weg|\.pdf/i);
  });
});
