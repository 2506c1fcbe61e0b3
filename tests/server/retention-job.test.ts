import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentObjectName } from '../../src/domain/routes.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { createFileStore } from '../../server/gateway/storage/file-store.ts';
import { startRetentionJob, retentionInterval } from '../../server/jobs/retention-job.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { setupTestDatabase } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';

// The daily retention job inside the server (server/jobs/retention-job.ts): it runs at start when
// the last run is a day old, then every 24 hours, removes the stored bodies of the files a run
// gave up, and logs counts only; several instances on one PostgreSQL run it once a day.

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

describe('retention job', () => {
  let server: GatewayServer;
  let clock = new Date(Date.now() + 40 * day);
  const log = new PassThrough();
  let logged = '';
  log.on('data', (chunk: Buffer) => (logged += chunk.toString()));
  const lead = questionnaireLead({ email: 'Erika.Muster@example.de' });
  const runs = async () =>
    (
      await server.db.query<{ n: number }>(
        'select count(*)::integer as n from public.retention_runs',
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    // The server starts with its clock 40 days on: the upload below is past its 30 days then.
    server = await startGatewayServer('pglite', undefined, {
      name: 'retention-job',
      logStream: log,
      retention: { now: () => clock },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at start, removes an unreferenced upload from DATA_DIR and logs counts only', async () => {
    // The start's run found nothing (no run before): wait for it, then make something to remove.
    await until(async () => (await runs()) === 1, 'der Lauf beim Start');
    const staffAccount = await createAccount(server.db, 'job-staff@example.de', 'staff');
    const staff = server.client(staffAccount.accessToken);
    const name = documentObjectName(1, 'Ersetzt.pdf', crypto.randomUUID());
    const upload = await staff.storage.from('documents').upload(name, pdf('alt'));
    expect(upload.error).toBeNull();
    expect(bodiesOf(server.dataDir)).toHaveLength(1);
    const posted = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
    expect(posted.status).toBe(201);
    await server.db.query(`update public.responses set received_at = now() - interval '6 years'`);
    await server.db.query(`update public.users set created_at = now() - interval '6 years'`);

    // A job as the server runs it, one day on: due at its start.
    clock = new Date(clock.getTime() + day);
    const job = startRetentionJob({
      db: server.db,
      log: pino({ level: 'info' }, log),
      now: () => clock,
      files: createFileStore(server.dataDir),
    });
    await until(async () => (await runs()) === 2, 'der fällige Lauf');
    await job.stop();
    await until(async () => bodiesOf(server.dataDir).length === 0, 'die Datei entfernt');
    const left = await server.db.query<{ objects: number; queued: number; leads: number }>(
      `select (select count(*)::integer from storage.objects) as objects,
              (select count(*)::integer from public.retention_file_queue) as queued,
              (select count(*)::integer from public.responses) as leads`,
    );
    expect(left.rows[0]).toEqual({ objects: 0, queued: 0, leads: 0 });
    const jobLines = logged.split('\n').filter((line) => line.includes('retention run'));
    expect(jobLines.map((line) => JSON.parse(line).removed)).toEqual([
      { leads: 0, answers: 0, customers: 0, consent_records: 0, files: 0, access_log: 0 },
      { leads: 1, answers: 3, customers: 1, consent_records: 0, files: 1, access_log: 0 },
    ]);
    expect(jobLines.join('\n')).not.toMatch(/erika|muster|Ersetzt|example/i);
  });

  it('waits a day after the last run, then runs every 24 hours until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const before = await runs();
    const job = startRetentionJob({
      db: server.db,
      log: pino({ level: 'silent' }),
      now: () => clock,
    });
    // The last run is at this clock: nothing at start.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await runs()).toBe(before);

    clock = new Date(clock.getTime() + day);
    vi.advanceTimersByTime(retentionInterval);
    await until(async () => (await runs()) === before + 1, 'der Lauf nach 24 Stunden');

    await job.stop();
    clock = new Date(clock.getTime() + day);
    vi.advanceTimersByTime(retentionInterval);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await runs()).toBe(before + 1);
  });

  it('logs a failed run by its code only and tries again at the next tick', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const failures = new PassThrough();
    let failed = '';
    failures.on('data', (chunk: Buffer) => (failed += chunk.toString()));
    let calls = 0;
    const refuse = async (): Promise<never> => {
      calls += 1;
      throw Object.assign(new Error('relation "users" ... erika@example.de'), { code: '57014' });
    };
    const refusing = { ...server.db, query: refuse, transaction: refuse } as typeof server.db;
    const job = startRetentionJob({
      db: refusing,
      log: pino({ level: 'info' }, failures),
      now: () => clock,
    });
    await until(async () => failed.includes('retention run failed'), 'der Fehler im Log');
    vi.advanceTimersByTime(retentionInterval);
    await until(async () => calls === 2, 'der nächste Versuch');
    await job.stop();
    const lines = failed
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.msg, line.code])).toEqual([
      ['retention run failed', '57014'],
      ['retention run failed', '57014'],
    ]);
    expect(failed).not.toMatch(/erika|relation/);
  });
});

describe('retention job on one PostgreSQL shared by two instances', () => {
  let postgres: TestPostgres | undefined;
  const instances: Database[] = [];
  const log = new PassThrough();
  let logged = '';
  log.on('data', (chunk: Buffer) => (logged += chunk.toString()));
  const runs = async () =>
    (
      await instances[0]!.query<{ n: number }>(
        'select count(*)::integer as n from public.retention_runs',
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    // Each instance has its own pool on the one database, as two server processes have.
    for (let i = 0; i < 2; i += 1) {
      instances.push(await openDatabase({ databaseUrl: postgres.url() }));
    }
    await setupTestDatabase(instances[0]!);
  }, 120_000);

  afterAll(async () => {
    for (const db of instances) await db.close();
    postgres?.stop();
  });

  it('runs once when both start due, and once when both are asked at the same moment', async () => {
    let clock = new Date(Date.now() + 40 * day);
    const jobs = instances.map((db) =>
      startRetentionJob({ db, log: pino({ level: 'info' }, log), now: () => clock }),
    );
    // Both were due at start (no run yet): one runs, the other finds that run.
    await until(async () => (await runs()) >= 1, 'der Lauf beim Start');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await Promise.all(jobs.map((job) => job.stop()));
    expect(await runs()).toBe(1);

    // A day on, both passes at once: one runs, the other waits for its lock and finds that run.
    clock = new Date(clock.getTime() + day);
    const passes = await Promise.all(jobs.map((job) => job.runNow()));
    expect(passes.filter((pass) => pass !== undefined)).toHaveLength(1);
    expect(passes.filter((pass) => pass === undefined)).toHaveLength(1);
    expect(await runs()).toBe(2);

    const messages = logged
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).msg as string);
    expect(messages.filter((msg) => msg === 'retention run')).toHaveLength(2);
  });
});
