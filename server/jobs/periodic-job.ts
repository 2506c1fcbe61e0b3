export interface PeriodicJobOptions<Result> {
  /**
   * One pass of the job. The signal is aborted when the job is stopped: a pass that works through
   * a list (the new-lead mails) ends between two items and gives back what it has not started.
   */
  run: (signal: AbortSignal) => Promise<Result>;
  intervalMs: number;
  /** Where a failed pass is told (the server's logger). */
  log: { error(fields: { code: string }, message: string): void };
  /** The log message of a failed pass, e.g. 'retention run failed'. */
  failure: string;
  /**
   * The first pass: at once (`'at-once'`), or when the check says it is due. A check that fails
   * is logged as a failed pass.
   */
  first: 'at-once' | (() => Promise<boolean>);
}

export interface PeriodicJob<Result> {
  /** One pass now, after a running one has finished; its failure is the caller's to handle. */
  runNow(): Promise<Result>;
  /** A pass as the timer starts one: its failure is logged. Nothing once stopped. */
  tick(): void;
  readonly stopped: boolean;
  /** What the readiness check (/api/ready) reads: is the job alive, and how did its last pass go. */
  status(): PeriodicJobStatus;
  /**
   * Ends the timer, tells a pass in progress to end between two items (its signal), and waits for
   * the first check and that pass.
   */
  stop(): Promise<void>;
}

/** Times are milliseconds since the epoch (`Date.now()`). */
export interface PeriodicJobStatus {
  intervalMs: number;
  /** When the job was started. */
  startedAt: number;
  stopped: boolean;
  /** When the pass in progress started; undefined while none runs. */
  runningSince: number | undefined;
  /** When the newest pass ended, successful or not. */
  lastFinishedAt: number | undefined;
  /** The newest finished pass failed, with this code (errorCode). */
  lastFailureCode: string | undefined;
}

/**
 * The runner both background jobs (lead mail, retention) share: a pass every `intervalMs` on a
 * timer that does not keep the process alive, never two passes at once (a pass asked for while
 * one runs follows it, and asks that arrive meanwhile share that one), and a failed pass logged
 * by its code only (a PostgreSQL or SMTP message may quote personal data) and tried again at the
 * next tick.
 */
export function startPeriodicJob<Result>(options: PeriodicJobOptions<Result>): PeriodicJob<Result> {
  const { log, failure } = options;
  const stopping = new AbortController();
  const startedAt = Date.now();
  let runningSince: number | undefined;
  let lastFinishedAt: number | undefined;
  let lastFailureCode: string | undefined;
  const run = async (): Promise<Result> => {
    runningSince = Date.now();
    try {
      const result = await options.run(stopping.signal);
      lastFailureCode = undefined;
      return result;
    } catch (error) {
      lastFailureCode = errorCode(error);
      throw error;
    } finally {
      runningSince = undefined;
      lastFinishedAt = Date.now();
    }
  };
  /** The newest pass asked for, running or waiting. */
  let latest: Promise<Result> | undefined;
  /** A pass asked for that has not started yet. */
  let waiting: Promise<Result> | undefined;
  let stopped = false;

  const runNow = (): Promise<Result> => {
    if (waiting) return waiting;
    const next = (latest ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        waiting = undefined;
        return run();
      });
    waiting = next;
    latest = next;
    void next
      .finally(() => {
        if (latest === next) latest = undefined;
      })
      .catch(() => undefined);
    return next;
  };

  const logFailure = (error: unknown) => log.error({ code: errorCode(error) }, failure);

  const tick = () => {
    if (stopped) return;
    runNow().catch(logFailure);
  };

  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  let firstTimer: NodeJS.Timeout | undefined;
  let checked: Promise<void> = Promise.resolve();
  if (options.first === 'at-once') {
    firstTimer = setTimeout(tick, 0);
    firstTimer.unref();
  } else {
    const due = options.first;
    checked = (async () => {
      try {
        if (await due()) tick();
      } catch (error) {
        logFailure(error);
      }
    })();
  }

  return {
    runNow,
    tick,
    get stopped() {
      return stopped;
    },
    status: () => ({
      intervalMs: options.intervalMs,
      startedAt,
      stopped,
      runningSince,
      lastFinishedAt,
      lastFailureCode,
    }),
    stop: async () => {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      clearTimeout(firstTimer);
      await checked;
      await latest?.catch(() => undefined);
    },
  };
}

/** An SMTP reply code or a Node or PostgreSQL error code: never the message. */
export function errorCode(error: unknown): string {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  const value = responseCode ?? code;
  return typeof value === 'string' || typeof value === 'number'
    ? String(value).slice(0, 64)
    : 'unknown';
}
