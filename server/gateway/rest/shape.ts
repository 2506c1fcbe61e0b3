import { singleObject, type ApiRequest } from './api-request.ts';
import type { Plan } from './plan.ts';
import type { Outcome } from './run.ts';

// Step 5 of the REST path: the outcome as PostgREST answers it, status, Content-Range, the
// media type, and a body (none for HEAD, for `return=minimal` and for a function of void).

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  /** Absent: Fastify's default (no body). */
  contentType?: string;
  body?: string;
}

export function responseOf(api: ApiRequest, plan: Plan, outcome: Outcome): RestResponse {
  if (plan.kind === 'read' && outcome.kind === 'read') {
    const headers = { 'content-range': contentRange(plan.offset, outcome.n, outcome.total) };
    const partial = outcome.total !== undefined && outcome.n < outcome.total && !plan.single;
    const status = partial ? 206 : 200;
    // supabase-js asks `return=minimal` when it counts (`head: true`) with arguments in a body.
    if (plan.minimal) return { status, headers };
    return json(
      api,
      status,
      headers,
      plan.single ? firstOf(outcome.body) : outcome.body,
      plan.single,
    );
  }
  if (plan.kind === 'mutate' && outcome.kind === 'mutate') {
    const headers = { 'content-range': `*/${plan.count ? outcome.n : '*'}` };
    if (!plan.representation) return { status: plan.created ? 201 : 204, headers };
    const rows = plan.single ? outcome.bodies[0] : outcome.bodies;
    return json(api, plan.created ? 201 : 200, headers, JSON.stringify(rows), plan.single);
  }
  if (plan.kind === 'call' && outcome.kind === 'call') {
    const { routine, single } = plan;
    if (routine.returns === 'void' && !routine.returnsSet) return { status: 204, headers: {} };
    let body = outcome.body ?? 'null';
    if (!routine.returnsSet && routine.returns === 'composite') body = firstOf(body);
    if (routine.returnsSet && single) body = firstOf(body);
    return json(api, 200, {}, body, single);
  }
  throw new Error(`a ${plan.kind} plan with a ${outcome.kind} outcome`);
}

function contentRange(offset: number, rows: number, total: number | undefined): string {
  const range = rows === 0 ? '*' : `${offset}-${offset + rows - 1}`;
  return `${range}/${total ?? '*'}`;
}

function firstOf(body: string): string {
  const rows = JSON.parse(body) as unknown[];
  return JSON.stringify(rows[0] ?? null);
}

function json(
  api: ApiRequest,
  status: number,
  headers: Record<string, string>,
  body: string,
  single: boolean,
): RestResponse {
  const contentType = single ? `${singleObject}; charset=utf-8` : 'application/json; charset=utf-8';
  if (api.method === 'HEAD') return { status, headers, contentType };
  const stripped = api.accept?.stripNulls ? JSON.stringify(stripNulls(JSON.parse(body))) : body;
  return { status, headers, contentType, body: stripped };
}

/** `nulls=stripped` (supabase-js's stripNulls()): object keys whose value is null are left out. */
function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => entry !== null)
      .map(([key, entry]) => [key, stripNulls(entry)]),
  );
}
