import type { SharedCounters } from '../../db/shared-counters.ts';

/**
 * Counts attempts per key in fixed one-minute windows, in the shared counters (every instance
 * counts together, see server/db/shared-counters.ts). Used where the key comes from the body
 * (the e-mail address of a sign-in), which a route-level limiter never sees.
 */
export interface RateWindow {
  /** Counts one attempt; false when the key has used up its window. */
  allow(key: string, now: Date): Promise<boolean>;
}

const windowMs = 60_000;

/** `scope` names the limit in the shared table: each window counts apart. */
export function createRateWindow(
  counters: SharedCounters,
  scope: string,
  maxPerMinute: number,
): RateWindow {
  return {
    async allow(key, now) {
      const { hits } = await counters.hit(scope, key, windowMs, now);
      return hits <= maxPerMinute;
    },
  };
}
