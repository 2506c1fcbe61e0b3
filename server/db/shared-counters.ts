import { createHmac } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Database } from './database.ts';

/**
 * The counters every server instance shares, in `public.request_counters`
 * (supabase/schemas/95_shared_counters.sql): the hub's route limits, the auth limits per client,
 * sign-in failures and waits, the mail minute per address. Several instances on one PostgreSQL
 * count together, and a restart forgets nothing; on PGlite (one process) the same statements run
 * on its one connection, except for the routes' rate limits (processWindowCounts).
 *
 * Each row is one key of one scope (which limit). The key is stored as an HMAC with the server's
 * secret, so the table holds no IP or e-mail address. A row past its `expires_at` counts as
 * absent: each statement starts it afresh, and a sweep (at most once a minute per process)
 * deletes such rows. Every time comes from the caller's clock (the app's `now`), never from SQL's
 * `now()`, so tests that move the clock move these windows too.
 */
export interface SharedCounters {
  /**
   * Counts one hit in a fixed window that starts with the key's first hit (like
   * @fastify/rate-limit's own store): the hits so far in this window, and the milliseconds
   * until it ends.
   */
  hit(scope: string, key: string, windowMs: number, now: Date): Promise<WindowCount>;
  /** The key's block (see `fail`), or none when it has expired or never existed. */
  blockedUntil(scope: string, key: string, now: Date): Promise<Date | undefined>;
  /**
   * Counts one failure in a window of `windowMs` from the first; `blockAfter` says, from the
   * failures so far (this one included) and the window's start, until when the key is blocked,
   * or undefined for no new block (an earlier block stands).
   */
  fail(scope: string, key: string, windowMs: number, now: Date, rule: BlockRule): Promise<void>;
  /**
   * Takes the key's turn: when its last turn is at least `windowMs` ago (or it had none), this
   * one starts now and the answer is 0; otherwise the milliseconds until the next turn.
   */
  takeTurn(scope: string, key: string, windowMs: number, now: Date): Promise<number>;
  /** Forgets the key in this scope (a success clears the failures; a failed mail its turn). */
  forget(scope: string, key: string): Promise<void>;
}

export interface WindowCount {
  hits: number;
  msLeft: number;
}

/**
 * The block after a failure, as SQL: `n` is the failure count (this one included), `since` the
 * window's start, `at` this failure's time; both are SQL expressions the rule combines. The
 * answer is an SQL expression of type timestamptz, or null for no new block.
 */
export type BlockRule = (n: string, since: string, at: string) => string;

/** How often each process deletes expired rows. */
const sweepEveryMs = 60_000;

export function createSharedCounters(db: Database, secret: string): SharedCounters {
  const hashOf = (scope: string, key: string) =>
    createHmac('sha256', secret).update(`${scope}\u0000${key}`).digest('base64url');
  let sweptAt = 0;
  // Expired rows count as absent, so deleting them never changes an answer; this only keeps the
  // table small (a flood of distinct clients leaves a row each until its window ends).
  const sweep = async (now: Date) => {
    if (Math.abs(now.getTime() - sweptAt) < sweepEveryMs) return;
    sweptAt = now.getTime();
    await db.query('delete from public.request_counters where expires_at <= $1::timestamptz', [
      now.toISOString(),
    ]);
  };

  return {
    async hit(scope, key, windowMs, now) {
      await sweep(now);
      const { rows } = await db.query<{ hits: number; ms_left: number }>(
        `insert into public.request_counters as c (scope, key_hash, hits, started_at, expires_at)
         values ($1, $2, 1, $3::timestamptz, $3::timestamptz + $4::float8 * interval '1 millisecond')
         on conflict (scope, key_hash) do update set
           hits = case when c.expires_at <= excluded.started_at then 1 else c.hits + 1 end,
           started_at = case when c.expires_at <= excluded.started_at
             then excluded.started_at else c.started_at end,
           expires_at = case when c.expires_at <= excluded.started_at
             then excluded.expires_at else c.expires_at end
         returning c.hits,
           (extract(epoch from c.expires_at - $3::timestamptz) * 1000)::float8 as ms_left`,
        [scope, hashOf(scope, key), now.toISOString(), windowMs],
      );
      const row = rows[0]!;
      return { hits: row.hits, msLeft: Math.max(0, Math.round(row.ms_left)) };
    },

    async blockedUntil(scope, key, now) {
      const { rows } = await db.query<{ until_ms: number | null }>(
        `select (extract(epoch from blocked_until) * 1000)::float8 as until_ms
           from public.request_counters
          where scope = $1 and key_hash = $2 and expires_at > $3::timestamptz`,
        [scope, hashOf(scope, key), now.toISOString()],
      );
      const until = rows[0]?.until_ms;
      return until === null || until === undefined ? undefined : new Date(until);
    },

    async fail(scope, key, windowMs, now, rule) {
      await sweep(now);
      const at = '$3::timestamptz';
      const expired = `c.expires_at <= ${at}`;
      const n = `(case when ${expired} then 1 else c.hits + 1 end)`;
      const since = `(case when ${expired} then ${at} else c.started_at end)`;
      await db.query(
        `insert into public.request_counters as c
           (scope, key_hash, hits, started_at, expires_at, blocked_until)
         values ($1, $2, 1, ${at}, ${at} + $4::float8 * interval '1 millisecond', ${rule('1', at, at)})
         on conflict (scope, key_hash) do update set
           hits = ${n},
           started_at = ${since},
           expires_at = case when ${expired} then excluded.expires_at else c.expires_at end,
           blocked_until = coalesce(${rule(n, since, at)},
             case when ${expired} then null else c.blocked_until end)`,
        [scope, hashOf(scope, key), now.toISOString(), windowMs],
      );
    },

    async takeTurn(scope, key, windowMs, now) {
      await sweep(now);
      // The select sees the table as the statement started: when the insert took no turn, the
      // row that stopped it is there, unless another instance made it a moment ago (then a
      // whole window is left, near enough).
      const { rows } = await db.query<{ taken: boolean; ms_left: number | null }>(
        `with turn as (
           insert into public.request_counters as c (scope, key_hash, hits, started_at, expires_at)
           values ($1, $2, 1, $3::timestamptz, $3::timestamptz + $4::float8 * interval '1 millisecond')
           on conflict (scope, key_hash) do update set
             hits = 1, started_at = excluded.started_at, expires_at = excluded.expires_at,
             blocked_until = null
           where c.expires_at <= excluded.started_at
           returning 1
         )
         select exists (select 1 from turn) as taken,
           (select (extract(epoch from r.expires_at - $3::timestamptz) * 1000)::float8
              from public.request_counters r
             where r.scope = $1 and r.key_hash = $2) as ms_left`,
        [scope, hashOf(scope, key), now.toISOString(), windowMs],
      );
      const row = rows[0]!;
      if (row.taken) return 0;
      return row.ms_left !== null && row.ms_left > 0 ? row.ms_left : windowMs;
    },

    async forget(scope, key) {
      await db.query('delete from public.request_counters where scope = $1 and key_hash = $2', [
        scope,
        hashOf(scope, key),
      ]);
    },
  };
}

/**
 * Window counts in this process's memory, by the rules of `SharedCounters.hit` (a fixed window
 * from the key's first hit), for the route limits on PGlite: its database belongs to one process,
 * so the table would share nothing with anyone, and every lead would take one more turn of its
 * one connection. A restart forgets the windows (a minute's counts at most); the sign-in waits
 * and the mail minute stay in the table.
 */
export function processWindowCounts(): Pick<SharedCounters, 'hit'> {
  const windows = new Map<string, { hits: number; endsAt: number }>();
  let sweptAt = 0;
  return {
    hit(scope, key, windowMs, now) {
      const at = now.getTime();
      // Like the table's sweep: ended windows count as absent, this only keeps the map small.
      if (Math.abs(at - sweptAt) >= sweepEveryMs) {
        sweptAt = at;
        for (const [id, window] of windows) if (window.endsAt <= at) windows.delete(id);
      }
      const id = `${scope}\u0000${key}`;
      let window = windows.get(id);
      if (!window || window.endsAt <= at) {
        window = { hits: 0, endsAt: at + windowMs };
        windows.set(id, window);
      }
      window.hits += 1;
      return Promise.resolve({ hits: window.hits, msLeft: Math.max(0, window.endsAt - at) });
    },
  };
}

/**
 * The store of @fastify/rate-limit (`register(rateLimit, { store })`) on the shared counters.
 * Each route's limit counts in a scope of its own (`hub POST /api/responses`), as the plugin's
 * own store keeps an LRU per route; a limiter made with `hub.rateLimit()` has no route, so its
 * key generator names it (the lead reads' keys start with `lead-reads`).
 */
export function sharedRateLimitStore(
  counters: Pick<SharedCounters, 'hit'>,
  now: () => Date,
): FastifyRateLimitStoreCtor {
  const storeFor = (scope: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      counters.hit(scope, key, timeWindow, now()).then(
        ({ hits, msLeft }) => callback(null, { current: hits, ttl: msLeft }),
        (error: Error) => callback(error),
      );
    },
    // The plugin passes the route's merged options, with the route itself as `routeInfo` (an
    // empty object for `hub.rateLimit()`).
    child(routeOptions) {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      const method = Array.isArray(route?.method) ? route.method.join(',') : route?.method;
      return storeFor(
        typeof method === 'string' && typeof route?.url === 'string'
          ? `hub ${method} ${route.url}`
          : 'hub',
      );
    },
  });
  // The plugin calls `new store(globalOptions)`; a constructor may return the object it makes.
  return function SharedStore() {
    return storeFor('hub');
  } as unknown as FastifyRateLimitStoreCtor;
}
