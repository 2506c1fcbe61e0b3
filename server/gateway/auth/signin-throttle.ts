import type { SharedCounters } from '../../db/shared-counters.ts';

/**
 * Wrong passwords, counted per client and address together, in the shared counters (every
 * instance counts together and sees the same waits, see server/db/shared-counters.ts). A limit
 * on the address alone lets anyone lock its owner out (the security review locked the admin out
 * with ten tries): here a client's failures never slow another client down. One client gets a
 * few free tries for an address, then a wait that doubles with each further failure, and at most
 * `failuresPerHour` failures an hour. A successful sign-in clears that client's count for the
 * address.
 */
export interface SigninThrottle {
  /** Seconds this client must still wait before trying this address again, or 0. */
  waitSeconds(client: string, email: string, now: Date): Promise<number>;
  failed(client: string, email: string, now: Date): Promise<void>;
  succeeded(client: string, email: string): Promise<void>;
}

/** Failures before the first wait. */
const freeFailures = 3;
const hourMs = 60 * 60 * 1000;
/** The longest wait, 15 minutes; 2^10 s is past it, so the exponent stops there. */
const maxWaitSeconds = 15 * 60;
const scope = 'signin-failures';

export function createSigninThrottle(
  counters: SharedCounters,
  failuresPerHour: number,
): SigninThrottle {
  const perHour = Math.max(1, Math.trunc(failuresPerHour));
  const keyOf = (client: string, email: string) => `${client}\u0000${email}`;
  // At `failuresPerHour` failures the address is closed to this client until the hour from the
  // first failure ends; from the `freeFailures`-th on, each failure sets a wait of 1, 2, 4 … s.
  const block = (n: string, since: string, at: string) =>
    `case when ${n} >= ${perHour} then ${since} + interval '1 hour'
          when ${n} >= ${freeFailures} then ${at} + least(
            power(2::float8, least(${n} - ${freeFailures}, 10)) * interval '1 second',
            ${maxWaitSeconds} * interval '1 second')
     end`;
  return {
    async waitSeconds(client, email, now) {
      const until = await counters.blockedUntil(scope, keyOf(client, email), now);
      return until && until.getTime() > now.getTime()
        ? Math.ceil((until.getTime() - now.getTime()) / 1000)
        : 0;
    },
    async failed(client, email, now) {
      await counters.fail(scope, keyOf(client, email), hourMs, now, block);
    },
    async succeeded(client, email) {
      await counters.forget(scope, keyOf(client, email));
    },
  };
}
