import type { Queryable } from '../db/database.ts';
import { readMigrations } from '../db/migrate.ts';
import { migrationsDir } from '../db/setup.ts';
import { errorCode, type PeriodicJobStatus } from '../jobs/periodic-job.ts';

/** A database that has not answered `select 1` within this time counts as unreachable. */
export const readinessDatabaseTimeoutMs = 2000;
/** A job counts as dead when it has shown no sign of life for this many of its intervals. */
const intervalsWithoutPass = 3;

export type CheckStatus = 'pass' | 'warn' | 'fail';

/**
 * One entry of `checks`, as the IETF draft "Health Check Response Format for HTTP APIs"
 * (draft-inadarei-api-health-check) shapes it; `output` says in German what is wrong.
 */
export interface CheckResult {
  componentType: 'datastore' | 'component';
  status: CheckStatus;
  observedValue?: number | string;
  observedUnit?: string;
  time?: string;
  output?: string;
}

/** The body of /api/ready (`application/health+json`). */
export interface ReadinessReport {
  status: CheckStatus;
  /** Names the checks that failed, when one did. */
  output?: string;
  checks: Record<string, CheckResult[]>;
}

/** The background jobs this process runs, by name, told as they start (app.ts). */
export type JobStatuses = Map<string, () => PeriodicJobStatus>;

export interface ReadinessOptions {
  db: Queryable;
  jobs: JobStatuses;
  /** The migration versions this code expects; the files in supabase/migrations by default. */
  migrationVersions?: () => Promise<string[]>;
}

/**
 * Readiness apart from liveness (/api/health): may a proxy or an orchestrator send this process
 * work? Ready when the database answers, has exactly the migrations of this code's files, and
 * every background job started is alive. A job whose last pass failed (an SMTP relay that is
 * down) is a warning, not a reason to take the process out of service. Calls that arrive while a
 * check runs share its result, so probes never pile statements onto the database.
 */
export function createReadiness(options: ReadinessOptions): () => Promise<ReadinessReport> {
  const { db, jobs } = options;
  let expected: Promise<string[]> | undefined;
  const migrationVersions =
    options.migrationVersions ??
    (async () => (await readMigrations(migrationsDir)).map((migration) => migration.version));
  let pending: Promise<ReadinessReport> | undefined;

  const check = async (): Promise<ReadinessReport> => {
    const checks: Record<string, CheckResult[]> = {};
    const database = await checkDatabase(db);
    checks['database:responseTime'] = [database];
    if (database.status === 'pass') {
      expected ??= migrationVersions().catch((error: unknown) => {
        expected = undefined;
        throw error;
      });
      checks['database:migrations'] = [await checkMigrations(db, expected)];
    }
    const at = Date.now();
    for (const [name, status] of jobs) checks[`${name}:run`] = [checkJob(status(), at)];
    const failed = Object.entries(checks)
      .filter(([, [result]]) => result?.status === 'fail')
      .map(([key]) => key);
    const warned = Object.values(checks).some(([result]) => result?.status === 'warn');
    return {
      status: failed.length > 0 ? 'fail' : warned ? 'warn' : 'pass',
      ...(failed.length > 0 ? { output: `Nicht bereit: ${failed.join(', ')}` } : {}),
      checks,
    };
  };

  return () => {
    pending ??= check().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}

async function checkDatabase(db: Queryable): Promise<CheckResult> {
  const started = performance.now();
  const time = new Date().toISOString();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), readinessDatabaseTimeoutMs);
  });
  try {
    // PGlite cannot cancel a statement: one that outlives the wait ends on its own, and the next
    // check starts its own only after this one has answered.
    const answer = await Promise.race([db.query('select 1').then(() => 'ok' as const), timeout]);
    if (answer === 'timeout') {
      return {
        componentType: 'datastore',
        status: 'fail',
        time,
        output: `Die Datenbank hat nicht innerhalb von ${readinessDatabaseTimeoutMs / 1000} s geantwortet.`,
      };
    }
    return {
      componentType: 'datastore',
      status: 'pass',
      observedValue: Math.round(performance.now() - started),
      observedUnit: 'ms',
      time,
    };
  } catch (error) {
    // The code only: a driver's message may quote the connection string.
    return {
      componentType: 'datastore',
      status: 'fail',
      time,
      output: `Die Datenbank ist nicht erreichbar (${errorCode(error)}).`,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Current: the database has recorded every migration file of this code and none it does not know
 * (the rule the migration runner applies at start, server/db/migrate.ts). A missing one means
 * another process is migrating or failed to; an unknown one, that a newer version migrated it.
 */
async function checkMigrations(db: Queryable, expected: Promise<string[]>): Promise<CheckResult> {
  const time = new Date().toISOString();
  try {
    const files = await expected;
    const present = await db.query<{ present: boolean }>(
      `select to_regclass('supabase_migrations.schema_migrations') is not null as present`,
    );
    const recorded = present.rows[0]?.present
      ? (
          await db.query<{ version: string }>(
            'select version from supabase_migrations.schema_migrations order by version',
          )
        ).rows.map((row) => row.version)
      : [];
    const known = new Set(recorded);
    const missing = files.filter((version) => !known.has(version));
    const ours = new Set(files);
    const unknown = recorded.filter((version) => !ours.has(version));
    const newest = recorded.at(-1) ?? '';
    if (missing.length === 0 && unknown.length === 0) {
      return { componentType: 'datastore', status: 'pass', observedValue: newest, time };
    }
    const problems = [
      ...(missing.length > 0 ? [`es fehlen ${missing.join(', ')}`] : []),
      ...(unknown.length > 0 ? [`unbekannt (neuer als dieser Server): ${unknown.join(', ')}`] : []),
    ];
    return {
      componentType: 'datastore',
      status: 'fail',
      observedValue: newest,
      time,
      output: `Die Migrationen der Datenbank passen nicht zu diesem Server: ${problems.join('; ')}.`,
    };
  } catch (error) {
    return {
      componentType: 'datastore',
      status: 'fail',
      time,
      output: `Die Migrationen ließen sich nicht prüfen (${errorCode(error)}).`,
    };
  }
}

/**
 * Alive: not stopped, and a pass running or finished within three intervals (the timer fires
 * every interval). A pass that runs longer than that, or a last pass that failed, is a warning.
 * `observedValue`: seconds since the last pass ended (since the job started, before its first).
 */
export function checkJob(status: PeriodicJobStatus, at: number): CheckResult {
  const limit = intervalsWithoutPass * status.intervalMs;
  const sinceLast = at - (status.lastFinishedAt ?? status.startedAt);
  const base = {
    componentType: 'component' as const,
    observedValue: Math.round(sinceLast / 1000),
    observedUnit: 's',
    time: new Date(at).toISOString(),
  };
  if (status.stopped) {
    return { ...base, status: 'fail', output: 'Der Hintergrundauftrag ist beendet.' };
  }
  if (status.runningSince === undefined && sinceLast > limit) {
    return { ...base, status: 'fail', output: `Seit ${base.observedValue} s kein Durchgang.` };
  }
  if (status.runningSince !== undefined && at - status.runningSince > limit) {
    const seconds = Math.round((at - status.runningSince) / 1000);
    return { ...base, status: 'warn', output: `Der laufende Durchgang dauert schon ${seconds} s.` };
  }
  if (status.lastFailureCode !== undefined) {
    return {
      ...base,
      status: 'warn',
      output: `Der letzte Durchgang ist fehlgeschlagen (${status.lastFailureCode}).`,
    };
  }
  return { ...base, status: 'pass' };
}
