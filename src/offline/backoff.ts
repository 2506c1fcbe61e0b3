export const retryBaseDelayMs = 5_000;
export const retryMaxDelayMs = 5 * 60_000;

/**
 * Delay before the next attempt after `attempts` failed ones (1 = the first failure).
 *
 * Exponential from 5 s, doubling, capped at 5 minutes (Enketo's queue only recovered after a
 * server outage once it retried up to every 300 s). "Equal jitter": half the step is fixed,
 * half random, so the first retry falls in 2.5-5 s and the cap in 150-300 s. Full jitter could
 * pick ~0 ms and hammer a hub that is just coming back; the random half spreads a fair's worth
 * of tablets that all lost the same Wi-Fi.
 */
export function nextRetryDelay(attempts: number, random: () => number): number {
  const exponent = Number.isFinite(attempts) ? Math.min(Math.max(attempts - 1, 0), 30) : 30;
  const step = Math.min(retryMaxDelayMs, retryBaseDelayMs * 2 ** exponent);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(step / 2 + (step / 2) * r);
}
