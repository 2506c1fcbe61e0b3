/**
 * Wrong passwords, counted per client and address together, in memory (per instance, like the
 * other limits). A limit on the address alone lets anyone lock its owner out (the security
 * review locked the admin out with ten tries): here a client's failures never slow another
 * client down. One client gets a few free tries for an address, then a wait that doubles with
 * each further failure, and at most `failuresPerHour` failures an hour. A successful sign-in
 * clears that client's count for the address.
 */
export interface SigninThrottle {
  /** Seconds this client must still wait before trying this address again, or 0. */
  waitSeconds(client: string, email: string, now: Date): number;
  failed(client: string, email: string, now: Date): void;
  succeeded(client: string, email: string): void;
}

/** Failures before the first wait. */
const freeFailures = 3;
const hourMs = 60 * 60 * 1000;
const maxWaitMs = 15 * 60 * 1000;
// Expired entries are swept once the map grows past this, so a flood of distinct keys cannot
// keep memory growing for long.
const sweepAbove = 10_000;

interface Entry {
  /** When the first failure of this hour's window happened. */
  since: number;
  failures: number;
  /** No try before this time. */
  until: number;
}

export function createSigninThrottle(failuresPerHour: number): SigninThrottle {
  const entries = new Map<string, Entry>();
  const keyOf = (client: string, email: string) => `${client}\u0000${email}`;
  const current = (key: string, at: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && at - entry.since >= hourMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    waitSeconds(client, email, now) {
      const entry = current(keyOf(client, email), now.getTime());
      return entry && entry.until > now.getTime()
        ? Math.ceil((entry.until - now.getTime()) / 1000)
        : 0;
    },
    failed(client, email, now) {
      const at = now.getTime();
      if (entries.size > sweepAbove) {
        for (const [key, entry] of entries) if (at - entry.since >= hourMs) entries.delete(key);
      }
      const key = keyOf(client, email);
      const entry = current(key, at) ?? { since: at, failures: 0, until: 0 };
      entry.failures += 1;
      if (entry.failures >= failuresPerHour) {
        entry.until = entry.since + hourMs;
      } else if (entry.failures >= freeFailures) {
        const wait = Math.min(1000 * 2 ** (entry.failures - freeFailures), maxWaitMs);
        entry.until = at + wait;
      }
      entries.set(key, entry);
    },
    succeeded(client, email) {
      entries.delete(keyOf(client, email));
    },
  };
}
