import type { FastifyBaseLogger } from 'fastify';

/**
 * Mails of the auth routes, sent after the answer: how long a relay takes (or whether a mail goes
 * out at all) must not show in the answer's timing, or it tells which addresses have accounts. A
 * few at a time, at most `capacity` waiting; a job that finds the queue full is refused, and its
 * caller treats that as a failed send.
 */
export interface MailQueue {
  /** False when the queue is full (nothing was queued). */
  add(job: () => Promise<void>): boolean;
  /** Resolves when every queued job has finished (on shutdown, before the database closes). */
  idle(): Promise<void>;
}

export function createMailQueue(
  log: FastifyBaseLogger,
  options: { concurrency?: number; capacity?: number } = {},
): MailQueue {
  const concurrency = options.concurrency ?? 2;
  const capacity = options.capacity ?? 200;
  const waiting: (() => Promise<void>)[] = [];
  let running = 0;
  let idleWaiters: (() => void)[] = [];

  function next(): void {
    while (running < concurrency && waiting.length > 0) {
      const job = waiting.shift()!;
      running += 1;
      void job()
        .catch((error: unknown) => {
          // The job handles its own failures; this is only a guard. No message: it may name
          // the address.
          log.error({ code: mailErrorCode(error) }, 'mail job failed');
        })
        .finally(() => {
          running -= 1;
          next();
        });
    }
    if (running === 0 && waiting.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  return {
    add(job) {
      if (waiting.length >= capacity) return false;
      waiting.push(job);
      next();
      return true;
    },
    idle() {
      if (running === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}

/**
 * What may be logged of a failed send: the error's code and the SMTP reply code, never its
 * message (a relay's refusal quotes the recipient's address).
 */
export function mailErrorCode(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const parts = [typeof code === 'string' ? code : 'unknown'];
  if (typeof responseCode === 'number') parts.push(String(responseCode));
  return parts.join(' ');
}
