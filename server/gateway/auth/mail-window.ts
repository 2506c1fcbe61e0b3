import type { SharedCounters } from '../../db/shared-counters.ts';

/** GoTrue's default (SMTP max frequency): one mail per address and minute. */
export const mailIntervalMs = 60_000;

export interface MailWindow {
  /** Seconds until the address may get its next mail, or 0 (and the time counts from now). */
  secondsLeft(email: string, now: Date): Promise<number>;
  /** A mail that failed does not count: the sender may try again at once. */
  forget(email: string): Promise<void>;
}

/**
 * When each address may get its next mail, in the shared counters (every instance keeps the
 * same minute, see server/db/shared-counters.ts); `scope` names the route's own minute. The time
 * is taken on every valid request for every address alike, whether a mail goes out or not, so a
 * 429 tells nothing about which addresses have accounts.
 */
export function createMailWindow(counters: SharedCounters, scope: string): MailWindow {
  return {
    async secondsLeft(email, now) {
      const msLeft = await counters.takeTurn(scope, email, mailIntervalMs, now);
      return msLeft > 0 ? Math.ceil(msLeft / 1000) : 0;
    },
    async forget(email) {
      await counters.forget(scope, email);
    },
  };
}
