import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import type { FileStore } from '../gateway/storage/file-store.ts';
import type { Tables } from '../../src/domain/database.types.ts';
import type { Columns, FunctionResult, ReadAsDate, ReadAsInt8 } from '../db/table-rows.ts';
import { startPeriodicJob, type PeriodicJobStatus } from './periodic-job.ts';

export const retentionInterval = 24 * 60 * 60 * 1000;

export interface RetentionJobOptions {
  db: Database;
  log: FastifyBaseLogger;
  /** The retention clock (tests move it); the process's clock otherwise. */
  now?: () => Date;
  /**
   * The local gateway's stored bodies: the job removes the files of the objects a run gave up.
   * Without it (hosted Supabase) the names stay queued for Storage's API.
   */
  files?: FileStore;
  intervalMs?: number;
}

export interface RetentionJob {
  /** One real run now (at the job's clock), after a running one has finished. */
  runNow(): Promise<Record<string, number>>;
  /** See PeriodicJob.status (the readiness check). */
  status(): PeriodicJobStatus;
  /** Ends the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * The daily retention run inside the server, so nothing outside it (cron) is needed locally: at
 * start when the last real run is a day old or older, then every 24 hours. It logs counts only:
 * what was removed is personal data.
 */
export function startRetentionJob(options: RetentionJobOptions): RetentionJob {
  const { db, log, files } = options;
  const now = options.now ?? (() => new Date());
  const intervalMs = options.intervalMs ?? retentionInterval;

  const run = async (): Promise<Record<string, number>> => {
    const { rows } = await db.query<Pick<FunctionResult<'apply_retention'>, 'kind' | 'items'>>(
      'select kind, items from public.apply_retention($1, false)',
      [now().toISOString()],
    );
    const removed = Object.fromEntries(rows.map((row) => [row.kind, row.items]));
    if (files) await removeQueuedFiles(db, files);
    log.info({ removed }, 'retention run');
    return removed;
  };

  const job = startPeriodicJob({
    run,
    intervalMs,
    log,
    failure: 'retention run failed',
    // At start only when the last real run is a day old or older.
    first: async () => {
      const { rows } = await db.query<LastRun>(
        'select max(as_of) as last from public.retention_runs',
      );
      const last = rows[0]?.last?.getTime();
      return last === undefined || now().getTime() - last >= intervalMs;
    },
  });

  return { runNow: job.runNow, status: job.status, stop: job.stop };
}

/** `max(as_of)`: null before the first run. */
type LastRun = ReadAsDate<{ last: Tables<'retention_runs'>['as_of'] | null }, 'last'>;

/** Removes the bodies of given-up objects and then their queue entries. */
async function removeQueuedFiles(db: Database, files: FileStore): Promise<void> {
  const { rows } = await db.query<
    ReadAsInt8<Columns<'retention_file_queue', 'id' | 'bucket_id' | 'name' | 'version'>, 'id'>
  >('select id, bucket_id, name, version from public.retention_file_queue order by id');
  for (const row of rows) {
    // Only bodies whose row is gone: an object uploaded again under the same name stays.
    const { rows: live } = await db.query(
      'select 1 from storage.objects where bucket_id = $1 and name = $2 and version = $3',
      [row.bucket_id, row.name, row.version],
    );
    if (live.length === 0 && row.version) await files.remove(row.bucket_id, row.name, row.version);
    await db.query('delete from public.retention_file_queue where id = $1', [row.id]);
  }
}
