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
 * Supabase's `statement_timeout` per role (anon 3 s, authenticated 8 s; service_role falls back
 * to the authenticator's 8 s). PostgreSQL ends a longer statement with 57014; PGlite ignores it,
 * which is why the SQL builder also bounds each read's embedded rows (`rowBudget`). The same time
 * bounds the whole transaction too (`TransactionOptions.timeoutMs`): a request of several
 * statements ends with the same 57014 when its time is up.
 */
const timeoutsMs: Record<string, number> = {
  anon: 3_000,
  authenticated: 8_000,
  service_role: 8_000,
};

/** The role's time for one statement, and for the whole transaction of one request. */
export function roleTimeoutMs(role: string): number {
  return timeoutsMs[role] ?? timeoutsMs.anon!;
}

/** Embedded rows one request may build (gateway.spend_row in server/db/supabase-local.sql). */
export const rowBudget = 50_000;

/**
 * Anonymous callers get a fifth of it: they read questionnaires (a few hundred rows), and on
 * PGlite a request's work blocks the one event loop, so the heaviest anonymous read is what a
 * lead or a desk request may have to wait for (bounded concurrency, docs/security.md).
 */
export const anonymousRowBudget = 10_000;

/** The embedded rows one request of `role` may build. */
export function rowBudgetOf(role: string): number {
  return role === 'anon' ? anonymousRowBudget : rowBudget;
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
  return db.transaction(
    async (tx) => {
      if (request.readOnly) await tx.query('set transaction read only');
      await tx.query(
        `select set_config('role', $1, true),
                set_config('request.jwt.claims', $2, true),
                set_config('request.method', $3, true),
                set_config('request.path', $4, true),
                set_config('request.headers', $5, true),
                set_config('search_path', 'public, extensions', true),
                set_config('statement_timeout', $6, true),
                set_config('gateway.rows_left', $7, true),
                set_config('gateway.row_budget', $7, true)`,
        [
          claims.role,
          JSON.stringify(claims),
          request.method,
          request.path,
          JSON.stringify(request.headers ?? {}),
          `${roleTimeoutMs(claims.role)}ms`,
          String(rowBudgetOf(claims.role)),
        ],
      );
      return fn(tx);
    },
    // On PGlite's one connection a visitor's lead goes before any gateway request, and the
    // desk's before anonymous ones.
    { background: true, anonymous: claims.role === 'anon', timeoutMs: roleTimeoutMs(claims.role) },
  );
}
