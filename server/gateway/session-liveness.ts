import type { Queryable } from '../db/database.ts';
import { isUuid } from '../http/uuid.ts';

// Whether the session an access token names still exists. GoTrue checks this only on its own
// routes; PostgREST and Storage accept a token until its `exp`. Here /rest/v1, /storage/v1 and
// the hub's /api ask too, so a password change or a sign-out everywhere ends every other
// session's access at once, not an hour later. A live answer is kept for a second (one query per
// session and second, not per request); an ended session stays ended (ids are never reused).
// The gateway's own deletions (password change, sign-out, a reused refresh token) clear the
// cache at once; a deletion made elsewhere (SQL, hosted GoTrue) shows within the second.

/** How long a session found alive counts as alive without asking again. */
export const liveSessionTtlMs = 1_000;

const nilUuid = '00000000-0000-0000-0000-000000000000';
const maxEntries = 10_000;

type Known = { live: true; until: number } | { live: false };
const caches = new WeakMap<Queryable, Map<string, Known>>();

function cacheOf(db: Queryable): Map<string, Known> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

/**
 * What a token's `session_id` claim says: 'none' (no claim, or GoTrue's nil id: a token minted
 * without a session, as service tokens are), 'live', 'ended', or 'invalid' (not a UUID: no token
 * GoTrue signs).
 */
export async function sessionState(
  db: Queryable,
  claim: unknown,
  nowMs = Date.now(),
): Promise<'none' | 'live' | 'ended' | 'invalid'> {
  if (claim === undefined || claim === null || claim === '' || claim === nilUuid) return 'none';
  if (!isUuid(claim)) return 'invalid';
  const id = claim.toLowerCase();
  const cache = cacheOf(db);
  const known = cache.get(id);
  if (known && (!known.live || known.until > nowMs)) return known.live ? 'live' : 'ended';
  const found = await db.query(
    `select 1 from auth.sessions where id = $1 and (not_after is null or not_after > now())`,
    [id],
  );
  const live = found.rows.length > 0;
  if (cache.size >= maxEntries) cache.clear();
  cache.set(id, live ? { live: true, until: nowMs + liveSessionTtlMs } : { live: false });
  return live ? 'live' : 'ended';
}

/** After the gateway deleted sessions: no live answer from before counts any more. */
export function forgetLiveSessions(db: Queryable): void {
  caches.get(db)?.clear();
}
