/** GoTrue's default (SMTP max frequency): one mail per address and minute. */
export const mailIntervalMs = 60_000;

export interface MailWindow {
  /** Seconds until the address may get its next mail, or 0 (and the time counts from now). */
  secondsLeft(email: string, now: Date): number;
  /** A mail that failed does not count: the sender may try again at once. */
  forget(email: string): void;
}

/**
 * When each address may get its next mail, in memory (per instance, like the other limits). The
 * time is taken on every valid request for every address alike, whether a mail goes out or not,
 * so a 429 tells nothing about which addresses have accounts.
 */
export function createMailWindow(): MailWindow {
  const lastAttempt = new Map<string, number>();
  return {
    secondsLeft(email, now) {
      const at = now.getTime();
      if (lastAttempt.size > 10_000) {
        for (const [key, time] of lastAttempt)
          if (at - time >= mailIntervalMs) lastAttempt.delete(key);
      }
      const previous = lastAttempt.get(email);
      if (previous !== undefined && at - previous < mailIntervalMs) {
        return Math.ceil((previous + mailIntervalMs - at) / 1000);
      }
      lastAttempt.set(email, at);
      return 0;
    },
    forget(email) {
      lastAttempt.delete(email);
    },
  };
}
