import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import type { FileStore } from '../gateway/storage/file-store.ts';

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
  let running: Promise<Record<string, number>> | undefined;
  let stopped = false;

  const run = async (): Promise<Record<string, number>> => {
    const { rows } = await db.query<{ kind: string; items: number }>(
      'select kind, items from public.apply_retention($1, false)',
      [now().toISOString()],
    );
    const removed = Object.fromEntries(rows.map((row) => [row.kind, row.items]));
    if (files) await removeQueuedFiles(db, files);
    log.info({ removed }, 'retention run');
    return removed;
  };

  const runNow = (): Promise<Record<string, number>> => {
    const next = (running ?? Promise.resolve({})).catch(() => ({})).then(run);
    running = next;
    void next
      .finally(() => {
        if (running === next) running = undefined;
      })
      .catch(() => undefined);
    return next;
  };

  // A failed run is logged by its code only (a PostgreSQL message may quote data) and tried
  // again at the next tick.
  const tick = () => {
    if (stopped) return;
    runNow().catch((error: unknown) => {
      log.error({ code: (error as { code?: string }).code ?? 'unknown' }, 'retention run failed');
    });
  };

  const timer = setInterval(tick, intervalMs);
  timer.unref();
  const started = (async () => {
    try {
      const { rows } = await db.query<{ last: string | Date | null }>(
        'select max(as_of) as last from public.retention_runs',
      );
      const last = rows[0]?.last ? new Date(rows[0].last).getTime() : undefined;
      if (last === undefined || now().getTime() - last >= intervalMs) tick();
    } catch (error) {
      log.error({ code: (error as { code?: string }).code ?? 'unknown' }, 'retention run failed');
    }
  })();

  return {
    runNow,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await started;
      await running?.catch(() => undefined);
    },
  };
}

/** Removes the bodies of given-up objects and then their queue entries. */
async function removeQueuedFiles(db: Database, files: FileStore): Promise<void> {
  const { rows } = await db.query<{ id: string; bucket_id: string; name: string; version: string }>(
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
