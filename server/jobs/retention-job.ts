import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import type { FileStore } from '../gateway/storage/file-store.ts';
import type { Tables } from '../../src/domain/database.types.ts';
import type { Columns, FunctionResult, ReadAsDate, ReadAsInt8 } from '../db/table-rows.ts';
import { errorCode, startPeriodicJob, type PeriodicJobStatus } from './periodic-job.ts';
import { removeBatchSize, removeStorageObjects, type StorageApi } from './storage-api.ts';

export const retentionInterval = 24 * 60 * 60 * 1000;

/**
 * A run whose last real run (any instance's, or pg_cron's on hosted Supabase) is younger than
 * this share of the interval does nothing: several instances on one database run it once a day.
 */
export const recentRunShare = 0.9;

/** Queued documents one run hands to Storage at most (in batches of `removeBatchSize`). */
export const storageRemovalsPerRun = 20 * removeBatchSize;

export interface RetentionJobOptions {
  db: Database;
  log: FastifyBaseLogger;
  /** The retention clock (tests move it); the process's clock otherwise. */
  now?: () => Date;
  /**
   * The local gateway's stored bodies: the job removes the files of the objects a run gave up.
   */
  files?: FileStore | undefined;
  /**
   * Hosted Storage (GATEWAY=off with SUPABASE_SERVICE_ROLE_KEY): the job removes the queued
   * documents through Storage's API. With neither this nor `files`, the names stay queued and
   * each pass says in the log how many wait.
   */
  storage?: StorageApi | undefined;
  intervalMs?: number;
}

export interface RetentionJob {
  /**
   * One pass now (at the job's clock), after a running one has finished: the counts of a real
   * run, or undefined when a run within the last day made this one unnecessary.
   */
  runNow(): Promise<Record<string, number> | undefined>;
  /** See PeriodicJob.status (the readiness check). */
  status(): PeriodicJobStatus;
  /** Ends the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * The daily retention run inside the server, so nothing outside it (cron) is needed locally: at
 * start when the last real run is a day old or older, then every 24 hours. Across instances on
 * one database a run happens once a day: each pass takes the run's lock and does nothing when
 * another run is recent. Every pass then removes the queued documents (locally their bodies,
 * hosted through Storage's API). It logs counts only: what was removed is personal data.
 */
export function startRetentionJob(options: RetentionJobOptions): RetentionJob {
  const { db, log, files, storage } = options;
  const now = options.now ?? (() => new Date());
  const intervalMs = options.intervalMs ?? retentionInterval;

  const run = async (): Promise<Record<string, number> | undefined> => {
    const at = now();
    const removed = await db.transaction(async (tx) => {
      // apply_retention takes the same lock again (re-entrant in one transaction): a pass of
      // another instance waits here and then finds this run.
      await tx.query(`select pg_advisory_xact_lock(hashtext('public.apply_retention'))`);
      const { rows: last } = await tx.query<LastRun>(
        'select max(as_of) as last from public.retention_runs',
      );
      const lastAt = last[0]?.last?.getTime();
      if (lastAt !== undefined && at.getTime() - lastAt < intervalMs * recentRunShare) {
        return undefined;
      }
      const { rows } = await tx.query<Pick<FunctionResult<'apply_retention'>, 'kind' | 'items'>>(
        'select kind, items from public.apply_retention($1, false)',
        [at.toISOString()],
      );
      return Object.fromEntries(rows.map((row) => [row.kind, row.items]));
    });
    if (removed) log.info({ removed }, 'retention run');
    else log.info('retention skipped: the last run is less than a day old');

    if (files) await removeQueuedFiles(db, files);
    else if (storage) await removeThroughStorage(db, storage, log);
    else await tellWaiting(db, log);
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

type QueueRow = ReadAsInt8<
  Columns<'retention_file_queue', 'id' | 'bucket_id' | 'name' | 'version'>,
  'id'
>;

/** Removes the bodies of given-up objects and then their queue entries. */
async function removeQueuedFiles(db: Database, files: FileStore): Promise<void> {
  const { rows } = await db.query<QueueRow>(
    'select id, bucket_id, name, version from public.retention_file_queue order by id',
  );
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

/**
 * Hosted Storage keeps a given-up document's row and body until its API removes them: the
 * queued names whose object is still the queued version go to Storage in batches; a name whose
 * object is gone, or was uploaded again since (another version), only leaves the queue, so a
 * newer upload under the same name stays. A name Storage did not remove stays queued for the
 * next run, as do all of them when Storage fails (logged by status only).
 */
async function removeThroughStorage(
  db: Database,
  storage: StorageApi,
  log: FastifyBaseLogger,
): Promise<void> {
  let after: QueueRow['id'] = 0;
  let removed = 0;
  let dequeued = 0;
  let handed = 0;
  try {
    while (handed < storageRemovalsPerRun) {
      const { rows }: { rows: (QueueRow & { due: boolean })[] } = await db.query(
        `select q.id, q.bucket_id, q.name, q.version,
                exists (select 1 from storage.objects o
                         where o.bucket_id = q.bucket_id and o.name = q.name
                           and o.version is not distinct from q.version) as due
           from public.retention_file_queue q
          where q.id > $1
          order by q.id
          limit $2`,
        [after, removeBatchSize],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.id;
      const done = rows.filter((row) => !row.due).map((row) => row.id);
      const byBucket = new Map<string, QueueRow[]>();
      for (const row of rows.filter((row) => row.due)) {
        byBucket.set(row.bucket_id, [...(byBucket.get(row.bucket_id) ?? []), row]);
      }
      for (const [bucket, due] of byBucket) {
        handed += due.length;
        const gone = new Set(
          await removeStorageObjects(
            storage,
            bucket,
            due.map((row) => row.name),
          ),
        );
        const removedRows = due.filter((row) => gone.has(row.name));
        removed += removedRows.length;
        done.push(...removedRows.map((row) => row.id));
      }
      if (done.length > 0) {
        await db.query('delete from public.retention_file_queue where id = any($1::bigint[])', [
          done,
        ]);
        dequeued += done.length;
      }
      if (rows.length < removeBatchSize) break;
    }
  } catch (error) {
    log.warn({ code: errorCode(error), removed, dequeued }, 'retention storage removal failed');
    return;
  }
  if (dequeued > 0) log.info({ files: { removed, dequeued } }, 'retention storage removal');
}

/**
 * Hosted mode without the service-role key: nothing here may remove a document from Storage,
 * so each pass (once a day) says how many wait (docs/retention-and-person-rights.md).
 */
async function tellWaiting(db: Database, log: FastifyBaseLogger): Promise<void> {
  const { rows } = await db.query<{ queued: number }>(
    'select count(*)::integer as queued from public.retention_file_queue',
  );
  const queued = rows[0]?.queued ?? 0;
  if (queued > 0) {
    log.warn(
      { queued },
      'retention: documents wait for removal from Storage; set SUPABASE_SERVICE_ROLE_KEY so the server removes them',
    );
  }
}
