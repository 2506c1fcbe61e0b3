import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { migrationsDir } from '../../server/db/setup.ts';
import { checkJob, createReadiness, type ReadinessReport } from '../../server/hub/readiness.ts';
import type { PeriodicJobStatus } from '../../server/jobs/periodic-job.ts';
import { buildTestApp, setupTestDatabase } from '../helpers/hub.ts';

// Readiness apart from liveness: /api/ready answers 503 with a health+json body naming what is
// not ready (the database, its migrations, a background job), while /api/health stays as it is.

let db: Database;
beforeAll(async () => {
  db = await openDatabase({});
  await setupTestDatabase(db);
});
afterAll(async () => {
  await db?.close();
});

describe('GET /api/ready', () => {
  let app: FastifyInstance;
  let newest: string;

  const ready = async () => {
    const res = await app.inject({ method: 'GET', url: '/api/ready' });
    return { res, report: res.json<ReadinessReport>() };
  };

  beforeAll(async () => {
    app = await buildTestApp(db, { leadMail: {} });
    await app.ready();
    newest = (await readMigrations(migrationsDir)).at(-1)!.version;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('passes on a migrated database with its jobs running, and /api/health is unchanged', async () => {
    const { res, report } = await ready();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/health+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(report).toMatchObject({
      status: 'pass',
      checks: {
        'database:responseTime': [
          { componentType: 'datastore', status: 'pass', observedUnit: 'ms' },
        ],
        'database:migrations': [{ status: 'pass', observedValue: newest }],
        'lead-mail:run': [{ componentType: 'component', status: 'pass' }],
      },
    });
    expect(report.output).toBeUndefined();

    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('fails while a migration of this code is missing in the database, and names it', async () => {
    const { rows } = await db.query<{ version: string; name: string; statements: string[] }>(
      'delete from supabase_migrations.schema_migrations where version = $1 returning *',
      [newest],
    );
    try {
      const { res, report } = await ready();
      expect(res.statusCode).toBe(503);
      expect(report.status).toBe('fail');
      expect(report.output).toBe('Nicht bereit: database:migrations');
      expect(report.checks['database:responseTime']![0]!.status).toBe('pass');
      const [migrations] = report.checks['database:migrations']!;
      expect(migrations!.status).toBe('fail');
      expect(migrations!.output).toContain(`es fehlen ${newest}`);
    } finally {
      const row = rows[0]!;
      await db.query(
        'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
        [row.version, row.name, row.statements],
      );
    }
    expect((await ready()).res.statusCode).toBe(200);
  });

  it('fails when the database holds a migration this code does not know (a newer version ran)', async () => {
    await db.query(
      `insert into supabase_migrations.schema_migrations (version, name) values ('29990101000000', 'later')`,
    );
    try {
      const { res, report } = await ready();
      expect(res.statusCode).toBe(503);
      expect(report.checks['database:migrations']![0]!.output).toContain(
        'unbekannt (neuer als dieser Server): 29990101000000',
      );
    } finally {
      await db.query(
        `delete from supabase_migrations.schema_migrations where version = '29990101000000'`,
      );
    }
  });

  it('fails when the database does not answer within 2 s', async () => {
    // PGlite's one connection, held by a transaction as a long statement or a dump would hold it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let began!: () => void;
    const holding = new Promise<void>((resolve) => (began = resolve));
    const transaction = db.transaction(async () => {
      began();
      await held;
    });
    await holding;
    try {
      const started = performance.now();
      // Probes that arrive while a check runs share it: the database gets one `select 1`.
      const [first, second] = await Promise.all([ready(), ready()]);
      expect(performance.now() - started).toBeLessThan(3500);
      expect(first.res.statusCode).toBe(503);
      expect(second.report).toEqual(first.report);
      expect(first.report.output).toBe('Nicht bereit: database:responseTime');
      expect(first.report.checks['database:responseTime']![0]).toMatchObject({
        status: 'fail',
        output: 'Die Datenbank hat nicht innerhalb von 2 s geantwortet.',
      });
      expect(first.report.checks['database:migrations']).toBeUndefined();
    } finally {
      release();
      await transaction;
    }
    expect((await ready()).res.statusCode).toBe(200);
  });
});

describe('readiness of the background jobs', () => {
  const interval = 15_000;
  const at = Date.parse('2026-11-28T10:00:00Z');
  const status = (over: Partial<PeriodicJobStatus>): PeriodicJobStatus => ({
    intervalMs: interval,
    startedAt: at - 60_000,
    stopped: false,
    runningSince: undefined,
    lastFinishedAt: at - 5_000,
    lastFailureCode: undefined,
    ...over,
  });

  it('passes a job that ran lately or runs now', () => {
    expect(checkJob(status({}), at).status).toBe('pass');
    expect(checkJob(status({ runningSince: at - 1_000 }), at).status).toBe('pass');
    // Started moments ago, no pass yet.
    expect(checkJob(status({ startedAt: at - 100, lastFinishedAt: undefined }), at).status).toBe(
      'pass',
    );
  });

  it('fails a stopped job and one without a pass for three intervals', () => {
    expect(checkJob(status({ stopped: true }), at)).toMatchObject({
      status: 'fail',
      output: 'Der Hintergrundauftrag ist beendet.',
    });
    expect(checkJob(status({ lastFinishedAt: at - 46_000 }), at)).toEqual({
      componentType: 'component',
      status: 'fail',
      observedValue: 46,
      observedUnit: 's',
      time: '2026-11-28T10:00:00.000Z',
      output: 'Seit 46 s kein Durchgang.',
    });
  });

  it('warns, still ready, when the last pass failed or one runs long', () => {
    expect(checkJob(status({ lastFailureCode: 'ECONNREFUSED' }), at)).toMatchObject({
      status: 'warn',
      output: 'Der letzte Durchgang ist fehlgeschlagen (ECONNREFUSED).',
    });
    expect(checkJob(status({ runningSince: at - 50_000 }), at)).toMatchObject({
      status: 'warn',
      output: 'Der laufende Durchgang dauert schon 50 s.',
    });
  });

  it('answers fail for a stopped job and warn for a failed pass in the whole report', async () => {
    const jobs = new Map([
      ['lead-mail', () => status({ startedAt: Date.now(), lastFinishedAt: Date.now() })],
    ]);
    const readiness = createReadiness({ db, jobs });
    expect((await readiness()).status).toBe('pass');
    jobs.set('retention', () =>
      status({ startedAt: Date.now(), lastFinishedAt: undefined, lastFailureCode: '57P01' }),
    );
    expect((await readiness()).status).toBe('warn');
    jobs.set('lead-mail', () => status({ stopped: true }));
    const report = await readiness();
    expect(report.status).toBe('fail');
    expect(report.output).toBe('Nicht bereit: lead-mail:run');
  });

  it('fails the database check by its code only when the database refuses', async () => {
    // What pg reports when PostgreSQL ends the connection (a restart); the message may name more.
    const refused = () =>
      Promise.reject(
        Object.assign(new Error('terminating connection for user erika@example.org'), {
          code: '57P01',
        }),
      );
    const readiness = createReadiness({ db: { query: refused, exec: refused }, jobs: new Map() });
    const report = await readiness();
    expect(report).toEqual({
      status: 'fail',
      output: 'Nicht bereit: database:responseTime',
      checks: {
        'database:responseTime': [
          {
            componentType: 'datastore',
            status: 'fail',
            time: expect.any(String),
            output: 'Die Datenbank ist nicht erreichbar (57P01).',
          },
        ],
      },
    });
  });
});
