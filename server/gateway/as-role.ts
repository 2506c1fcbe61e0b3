import type { Database, Queryable } from '../db/database.ts';
import type { GatewayClaims } from './gateway-jwt.ts';

export interface RequestInfo {
  method: string;
  /** The path below the service prefix, as PostgREST reports it in `request.path`. */
  path: string;
  /** Lower-cased header names; never logged. */
  headers?: Record<string, string>;
  /** GET and HEAD run read only, as in PostgREST. */
  readOnly: boolean;
}

/**
 * Runs `fn` in one transaction as the token's database role with the claims where `auth.uid()`
 * and `auth.jwt()` read them, so row-level security decides exactly as on hosted Supabase.
 * Everything is `set local` (`set_config(..., true)`): nothing outlives the transaction, which
 * matters on PGlite's one shared connection.
 */
export async function asRole<T>(
  db: Database,
  claims: GatewayClaims,
  request: RequestInfo,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    if (request.readOnly) await tx.query('set transaction read only');
    await tx.query(
      `select set_config('role', $1, true),
              set_config('request.jwt.claims', $2, true),
              set_config('request.method', $3, true),
              set_config('request.path', $4, true),
              set_config('request.headers', $5, true),
              set_config('search_path', 'public, extensions', true)`,
      [
        claims.role,
        JSON.stringify(claims),
        request.method,
        request.path,
        JSON.stringify(request.headers ?? {}),
      ],
    );
    return fn(tx);
  });
}
