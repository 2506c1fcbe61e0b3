/**
 * Counts attempts per key in fixed one-minute windows, in memory (per instance, like the hub's
 * limits). Used where the key comes from the body (the e-mail address of a sign-in), which a
 * route-level limiter never sees.
 */
export interface RateWindow {
  /** Counts one attempt; false when the key has used up its window. */
  allow(key: string, now: Date): boolean;
}

const windowMs = 60_000;
// Expired entries are swept once the map grows past this, so a flood of distinct keys cannot
// keep memory growing for long.
const sweepAbove = 10_000;

export function createRateWindow(maxPerMinute: number): RateWindow {
  const counts = new Map<string, { start: number; count: number }>();
  return {
    allow(key, now) {
      const at = now.getTime();
      if (counts.size > sweepAbove) {
        for (const [k, entry] of counts) if (at - entry.start >= windowMs) counts.delete(k);
      }
      const entry = counts.get(key);
      if (!entry || at - entry.start >= windowMs) {
        counts.set(key, { start: at, count: 1 });
        return true;
      }
      entry.count += 1;
      return entry.count <= maxPerMinute;
    },
  };
}
