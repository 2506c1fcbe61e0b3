import { describe, expect, it } from 'vitest';
import { nextRetryDelay, retryMaxDelayMs } from './backoff.ts';

const almostOne = 0.999_999;

describe('nextRetryDelay', () => {
  it('waits 2.5 to 5 seconds after the first failure', () => {
    expect(nextRetryDelay(1, () => 0)).toBe(2_500);
    expect(nextRetryDelay(1, () => almostOne)).toBeLessThanOrEqual(5_000);
    expect(nextRetryDelay(1, () => almostOne)).toBeGreaterThan(4_990);
    expect(nextRetryDelay(1, () => 0.5)).toBe(3_750);
  });

  it('doubles with every further failure', () => {
    expect(nextRetryDelay(2, () => 0)).toBe(5_000);
    expect(nextRetryDelay(3, () => 0)).toBe(10_000);
    expect(nextRetryDelay(4, () => almostOne)).toBeLessThanOrEqual(40_000);
  });

  it('never waits more than 5 minutes, however often it failed', () => {
    for (const attempts of [7, 8, 20, 50, 1_000, Infinity]) {
      expect(nextRetryDelay(attempts, () => almostOne)).toBeLessThanOrEqual(retryMaxDelayMs);
      expect(nextRetryDelay(attempts, () => 0)).toBe(retryMaxDelayMs / 2);
    }
    expect(nextRetryDelay(50, () => 1)).toBe(retryMaxDelayMs);
  });

  it('keeps jitter in range for odd inputs', () => {
    expect(nextRetryDelay(0, () => 0)).toBe(2_500);
    expect(nextRetryDelay(-3, () => 2)).toBe(5_000);
    expect(nextRetryDelay(Number.NaN, () => -1)).toBe(retryMaxDelayMs / 2);
  });
});
