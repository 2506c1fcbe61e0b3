import type { Database, Queryable } from '../../db/database.ts';
import { asRole } from '../as-role.ts';
import type { ApiRequest } from './api-request.ts';
import { fromDatabaseError, isDatabaseError, notSingle } from './errors.ts';
import type { Plan, ReadPlan } from './plan.ts';
import { maxRows } from './read-tree.ts';
import type { Query, Statement } from './sql-builder.ts';

// Step 4 of the REST path: the statements run in one transaction as the caller's role (with
// Supabase's statement timeouts and the row budget of gateway.spend_row, see as-role.ts). The
// database's refusals become PostgREST's errors; so does a result that is not the one object
// asked for, inside the transaction, so a write that touched another number of rows is undone.

/** What the statements answered, before it is shaped into a response. */
export type Outcome =
  | { kind: 'read'; body: string; n: number; total?: number }
  | { kind: 'mutate'; bodies: unknown[]; n: number }
  | { kind: 'call'; body?: string | null; n?: number };

interface ResultRow {
  body: string | null;
  n: number;
  total?: number | string | bigint | null;
}

export async function runQuery(
  db: Database,
  api: ApiRequest,
  plan: Plan,
  query: Query,
): Promise<Outcome> {
  const readOnly = plan.kind === 'mutate' ? false : plan.readOnly;
  const info = { method: api.method, path: api.path, headers: api.headers, readOnly };
  try {
    return await asRole(db, api.claims, info, async (tx) => {
      if (plan.kind === 'read' && query.kind === 'read') return read(tx, plan, query);
      if (plan.kind === 'mutate' && query.kind === 'mutate') {
        let bodies: unknown[] = [];
        let n = 0;
        for (const statement of query.statements) {
          const outcome = await tx.query<ResultRow>(statement.sql, statement.params);
          if (plan.representation) {
            const row = outcome.rows[0]!;
            n += row.n;
            bodies = bodies.concat(JSON.parse(row.body ?? '[]') as unknown[]);
          } else n += outcome.rowCount;
        }
        if (plan.single && plan.representation && n !== 1) throw notSingle(n);
        return { kind: 'mutate', bodies, n };
      }
      if (plan.kind === 'call' && query.kind === 'call') {
        const { statement } = query;
        const row = (await tx.query<ResultRow>(statement.sql, statement.params)).rows[0];
        if (plan.single && plan.routine.returnsSet && row?.n !== 1) throw notSingle(row?.n ?? 0);
        return row ? { kind: 'call', body: row.body, n: row.n } : { kind: 'call' };
      }
      throw new Error(`a ${plan.kind} plan with a ${query.kind} query`);
    });
  } catch (error) {
    if (isDatabaseError(error)) throw fromDatabaseError(error, api.claims.role);
    throw error;
  }
}

async function read(
  tx: Queryable,
  plan: ReadPlan,
  query: Extract<Query, { kind: 'read' }>,
): Promise<Outcome> {
  const row = (await tx.query<ResultRow>(query.read.sql, query.read.params)).rows[0]!;
  let total = row.total === undefined || row.total === null ? undefined : Number(row.total);
  if (query.planned) {
    // The planner's estimate ignores row-level security. A page that is not full tells the
    // exact total, so the estimate is never shown where the caller saw the end (a pending
    // account would otherwise learn the size of tables it may not read).
    const full = row.n >= Math.min(plan.limit ?? maxRows, maxRows);
    total = full
      ? Math.max(await plannedRows(tx, query.planned), plan.offset + row.n)
      : plan.offset + row.n;
  }
  if (plan.single && row.n !== 1) throw notSingle(row.n);
  const outcome: Outcome = { kind: 'read', body: row.body ?? '[]', n: row.n };
  if (total !== undefined) outcome.total = total;
  return outcome;
}

async function plannedRows(tx: Queryable, statement: Statement): Promise<number> {
  const plan = (await tx.query<{ 'QUERY PLAN': unknown }>(statement.sql, statement.params)).rows[0];
  const raw = plan?.['QUERY PLAN'];
  // EXPLAIN (FORMAT JSON)'s documented shape; a driver may hand the json over as text.
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
    Plan: { 'Plan Rows': number };
  }>;
  return Math.round(parsed[0]?.Plan['Plan Rows'] ?? 0);
}
