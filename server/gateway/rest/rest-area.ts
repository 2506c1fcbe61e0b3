import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayOptions } from '../gateway-options.ts';
import { claimPrefix } from '../../http/claim-prefix.ts';
import { asRole } from '../as-role.ts';
import {
  anonymousClaims,
  bearerToken,
  verifyGatewayToken,
  type GatewayClaims,
} from '../gateway-jwt.ts';
import { nestsTooDeep } from '../json-depth.ts';
import { pathBelow } from '../path-below.ts';
import {
  fromDatabaseError,
  isDatabaseError,
  PostgrestError,
  restErrorHandler,
  restNotFound,
} from './errors.ts';
import { GrammarError, parseQuery, type ParsedQuery } from './query-grammar.ts';
import {
  argumentNames,
  buildCall,
  buildShapedCall,
  findRoutine,
  resultRelation,
  routineNotFound,
} from './rpc-call.ts';
import {
  schemaCacheOf,
  type Relation,
  type RoutineInfo,
  type SchemaCache,
} from './schema-cache.ts';
import {
  buildDelete,
  buildInsert,
  buildRead,
  buildUpdate,
  columnOf,
  maxRows,
  writableColumnOf,
  type CountKind,
  type InsertPlan,
  type Statement,
} from './sql-builder.ts';

/** Bulk inserts may be larger than the hub's own JSON bodies. */
const restBodyLimit = 1024 * 1024;

const singleObject = 'application/vnd.pgrst.object+json';

interface Preferences {
  representation: boolean;
  count?: CountKind;
  resolution?: 'merge' | 'ignore';
  missingDefault: boolean;
}

/** `Prefer` may come as one header with commas or as several headers. */
function preferences(request: FastifyRequest): string[] {
  const header = request.headers.prefer;
  return (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(/[,;]/)
    .map((value) => value.trim());
}

function preferencesOf(request: FastifyRequest): Preferences {
  const values = preferences(request);
  const prefs: Preferences = {
    representation: values.includes('return=representation'),
    missingDefault: values.includes('missing=default'),
  };
  const count = values.find((value) => /^count=(exact|planned|estimated)$/.test(value));
  if (count) prefs.count = count.slice('count='.length) as CountKind;
  if (values.includes('resolution=merge-duplicates')) prefs.resolution = 'merge';
  else if (values.includes('resolution=ignore-duplicates')) prefs.resolution = 'ignore';
  return prefs;
}

const jsonMediaTypes = [
  '*/*',
  'application/*',
  'application/json',
  singleObject,
  'application/vnd.pgrst.array+json',
];

/**
 * Whether the caller asked for one object instead of an array. Only JSON is served: an Accept
 * that allows none of its media types (`.csv()`, say) is PostgREST's 406.
 */
function wantsSingle(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') return false;
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  if (!types.some((type) => jsonMediaTypes.includes(type))) {
    throw new PostgrestError(406, 'PGRST107', `None of these media types are available: ${accept}`);
  }
  return types.includes(singleObject);
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

function notSingle(rows: number): PostgrestError {
  return new PostgrestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', {
    details: `The result contains ${rows} rows`,
  });
}

/** The schema asked for with Accept-Profile / Content-Profile: only `public` is exposed. */
function checkProfile(request: FastifyRequest): void {
  for (const header of ['accept-profile', 'content-profile'] as const) {
    const value = request.headers[header];
    if (value !== undefined && value !== 'public') {
      throw new PostgrestError(406, 'PGRST106', `Invalid schema: ${String(value)}`, {
        hint: 'Only the following schemas are exposed: public',
      });
    }
  }
}

function roleNamed(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    return String((payload as { role?: unknown }).role ?? '');
  } catch {
    return '';
  }
}

/** The bearer token's claims (none: anon). The `apikey` header plays no part, as in PostgREST. */
async function claimsOf(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
): Promise<GatewayClaims> {
  const token = bearerToken(request.headers.authorization);
  if (token === undefined) return anonymousClaims;
  const check = await verifyGatewayToken(token, secret);
  if (check.ok) return check.claims;
  const refusal =
    check.reason === 'expired'
      ? new PostgrestError(401, 'PGRST303', 'JWT expired')
      : check.reason === 'role'
        ? new PostgrestError(401, '22023', `role "${roleNamed(token)}" does not exist`)
        : new PostgrestError(401, 'PGRST301', 'No suitable key or wrong key type', {
            details: 'None of the keys was able to decode the JWT',
          });
  reply.header(
    'www-authenticate',
    `Bearer error="invalid_token", error_description="${refusal.message.replace(/"/g, "'")}"`,
  );
  throw refusal;
}

function queryString(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

function parse(url: string, extraKeys?: ReadonlySet<string>): ParsedQuery {
  try {
    return parseQuery(queryString(url), extraKeys);
  } catch (error) {
    if (error instanceof GrammarError) {
      throw new PostgrestError(400, 'PGRST100', error.message, { details: error.details });
    }
    throw error;
  }
}

function invalidBody(message = 'Empty or invalid json'): PostgrestError {
  return new PostgrestError(400, 'PGRST102', message);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function contentRange(offset: number, rows: number, total: number | undefined): string {
  const range = rows === 0 ? '*' : `${offset}-${offset + rows - 1}`;
  return `${range}/${total ?? '*'}`;
}

/** `Range: 0-9` (with `Range-Unit: items`), PostgREST's older way of paging. */
function applyRangeHeader(request: FastifyRequest, query: ParsedQuery): void {
  const top = query.resources.get('')!;
  const match = /^(\d{1,15})-(\d{0,15})$/.exec(String(request.headers.range ?? '').trim());
  if (!match || top.limit !== undefined || top.offset !== undefined) return;
  const from = Number(match[1]);
  top.offset = from;
  if (match[2]) top.limit = Math.max(0, Number(match[2]) - from + 1);
}

interface ResultRow {
  body: string | null;
  n: number;
  total?: number | string | bigint | null;
}

/** PostgREST's API for supabase-js (`/rest/v1`): every table, view and function of `public`. */
export const restArea: FastifyPluginAsync<GatewayOptions> = async (rest, options) => {
  const { db, config } = options;
  const schema = schemaCacheOf(db, options.now, 1_000, (error) =>
    rest.log.error({ err: error }, 'could not read the schema cache'),
  );
  rest.setErrorHandler(restErrorHandler);
  // supabase-js sends `Content-Type: application/json` on a DELETE without a body; PostgREST
  // reads that as no body, where Fastify's own parser refuses it.
  const parseJson = rest.getDefaultJsonParser('error', 'error');
  rest.removeContentTypeParser('application/json');
  rest.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: restBodyLimit },
    (request, body, done) => {
      const text = body.toString();
      if (text === '') done(null, undefined);
      else if (nestsTooDeep(text)) done(invalidBody());
      else parseJson(request, text, done);
    },
  );
  rest.setNotFoundHandler((request) => {
    throw restNotFound(pathBelow(rest.prefix, request.url));
  });

  async function relationNamed(request: FastifyRequest, name: string) {
    let cache = await schema.get();
    let relation = cache.relations.get(name);
    if (!relation) {
      cache = await schema.refresh();
      relation = cache.relations.get(name);
    }
    if (!relation) throw restNotFound(pathBelow(rest.prefix, request.url));
    return { cache, relation };
  }

  /** Runs `fn` as the caller's role; the database's refusals become PostgREST's errors. */
  async function run<T>(
    request: FastifyRequest,
    claims: GatewayClaims,
    readOnly: boolean,
    fn: Parameters<typeof asRole<T>>[3],
  ): Promise<T> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    const info = {
      method: request.method,
      path: pathBelow(rest.prefix, request.url),
      headers,
      readOnly,
    };
    try {
      return await asRole(db, claims, info, fn);
    } catch (error) {
      if (isDatabaseError(error)) throw fromDatabaseError(error, claims.role);
      throw error;
    }
  }

  /**
   * Runs a read built by the SQL builder (a table's rows or a set-returning function's) and sets
   * what PostgREST answers with it: Content-Range, and 206 when a count shows more rows than sent.
   */
  async function readPage(
    request: FastifyRequest,
    reply: FastifyReply,
    claims: GatewayClaims,
    readOnly: boolean,
    read: {
      statement: Statement;
      planned: Statement | undefined;
      query: ParsedQuery;
      single: boolean;
    },
  ) {
    const { statement, planned, query, single } = read;
    const top = query.resources.get('')!;
    const offset = top.offset ?? 0;
    const result = await run(request, claims, readOnly, async (tx) => {
      const row = (await tx.query<ResultRow>(statement.sql, statement.params)).rows[0]!;
      let total = row.total === undefined || row.total === null ? undefined : Number(row.total);
      if (planned) {
        // The planner's estimate ignores row-level security. A page that is not full tells the
        // exact total, so the estimate is never shown where the caller saw the end (a pending
        // account would otherwise learn the size of tables it may not read).
        const full = row.n >= Math.min(top.limit ?? maxRows, maxRows);
        total = full ? Math.max(await plannedRows(tx, planned), offset + row.n) : offset + row.n;
      }
      if (single && row.n !== 1) throw notSingle(row.n);
      return { body: row.body ?? '[]', n: row.n, total };
    });
    reply.header('content-range', contentRange(offset, result.n, result.total));
    const partial = result.total !== undefined && result.n < result.total && !single;
    reply.code(partial ? 206 : 200);
    return result;
  }

  async function read(request: FastifyRequest, reply: FastifyReply, name: string) {
    const claims = await claimsOf(request, reply, config.jwtSecret);
    checkProfile(request);
    const query = parse(request.url);
    applyRangeHeader(request, query);
    const { cache, relation } = await relationNamed(request, name);
    const prefs = preferencesOf(request);
    const single = wantsSingle(request);
    const { read: statement, planned } = buildRead(cache, relation, query, prefs.count);
    const result = await readPage(request, reply, claims, true, {
      statement,
      planned,
      query,
      single,
    });
    return sendJson(reply, request, single ? firstOf(result.body) : result.body, single);
  }

  async function write(request: FastifyRequest, reply: FastifyReply, name: string) {
    const claims = await claimsOf(request, reply, config.jwtSecret);
    checkProfile(request);
    const query = parse(request.url);
    const { cache, relation } = await relationNamed(request, name);
    const prefs = preferencesOf(request);
    const single = wantsSingle(request);
    const options = { representation: prefs.representation };
    const statements = statementsFor(request, cache, relation, query, prefs, options);
    const result = await run(request, claims, false, async (tx) => {
      let bodies: unknown[] = [];
      let n = 0;
      for (const statement of statements) {
        const outcome = await tx.query<ResultRow>(statement.sql, statement.params);
        if (options.representation) {
          const row = outcome.rows[0]!;
          n += row.n;
          bodies = bodies.concat(JSON.parse(row.body ?? '[]') as unknown[]);
        } else n += outcome.rowCount;
      }
      if (single && options.representation && n !== 1) throw notSingle(n);
      return { bodies, n };
    });
    reply.header('content-range', `*/${prefs.count ? result.n : '*'}`);
    const created = request.method === 'POST';
    if (!options.representation) return reply.code(created ? 201 : 204).send();
    reply.code(created ? 201 : 200);
    return sendJson(
      reply,
      request,
      JSON.stringify(single ? result.bodies[0] : result.bodies),
      single,
    );
  }

  async function call(request: FastifyRequest, reply: FastifyReply, name: string) {
    const claims = await claimsOf(request, reply, config.jwtSecret);
    checkProfile(request);
    const readOnly = request.method !== 'POST';
    let cache = await schema.get();
    if (!cache.functions.has(name)) cache = await schema.refresh();
    // On GET and HEAD the arguments come in the query string; its other keys shape the result.
    let argNames = new Set<string>();
    let args: Record<string, unknown>;
    if (readOnly) {
      const names = argumentNames(cache, name);
      const search = [...new URLSearchParams(queryString(request.url))];
      args = Object.fromEntries(search.filter(([key, value]) => isArgument(names, key, value)));
      argNames = new Set(Object.keys(args));
    } else {
      const body = request.body ?? {};
      if (!isRecord(body)) throw invalidBody();
      args = body;
    }
    let routine = findRoutine(cache, name, args);
    if (!routine) {
      cache = await schema.refresh();
      routine = findRoutine(cache, name, args);
    }
    if (!routine) throw routineNotFound(name, args);
    const query = parse(request.url, argNames);
    applyRangeHeader(request, query);
    const relation = await resultRelation(db, cache, routine);
    if (relation)
      return shapedCall(request, reply, claims, { cache, relation, routine, args, query });
    const found = routine;
    const statement = buildCall(found, args);
    const single = wantsSingle(request);
    const result = await run(request, claims, readOnly, async (tx) => {
      const row = (await tx.query<ResultRow>(statement.sql, statement.params)).rows[0];
      if (single && found.returnsSet && row?.n !== 1) throw notSingle(row?.n ?? 0);
      return row;
    });
    if (found.returns === 'void' && !found.returnsSet) return reply.code(204).send();
    let body = result?.body ?? 'null';
    if (!found.returnsSet && found.returns === 'composite') body = firstOf(body);
    if (found.returnsSet && single) body = firstOf(body);
    return sendJson(reply, request, body, single);
  }

  /** A set-returning function's rows, read like a table's (`/rpc/fn?select=...&order=...`). */
  async function shapedCall(
    request: FastifyRequest,
    reply: FastifyReply,
    claims: GatewayClaims,
    target: {
      cache: SchemaCache;
      relation: Relation;
      routine: RoutineInfo;
      args: Record<string, unknown>;
      query: ParsedQuery;
    },
  ) {
    const { cache, relation, routine, args, query } = target;
    const prefs = preferencesOf(request);
    const single = wantsSingle(request);
    const { read: statement, planned } = buildShapedCall(
      cache,
      relation,
      routine,
      args,
      query,
      prefs.count,
    );
    const readOnly = request.method !== 'POST' || !routine.volatile;
    const result = await readPage(request, reply, claims, readOnly, {
      statement,
      planned,
      query,
      single,
    });
    // supabase-js asks `return=minimal` when it counts (`head: true`) with arguments in a body.
    if (request.method === 'POST' && preferences(request).includes('return=minimal')) {
      return reply.send();
    }
    return sendJson(reply, request, single ? firstOf(result.body) : result.body, single);
  }

  const tableRoute = { bodyLimit: restBodyLimit, exposeHeadRoute: false } as const;
  rest.route({
    ...tableRoute,
    method: ['GET', 'HEAD'],
    url: '/:name',
    handler: (request, reply) => read(request, reply, nameOf(request)),
  });
  rest.route({
    ...tableRoute,
    method: ['POST', 'PATCH', 'DELETE'],
    url: '/:name',
    handler: (request, reply) => write(request, reply, nameOf(request)),
  });
  rest.route({
    ...tableRoute,
    method: ['GET', 'HEAD', 'POST'],
    url: '/rpc/:name',
    handler: (request, reply) => call(request, reply, nameOf(request)),
  });
  claimPrefix(rest);
};

const shapingKey = /(^|\.)(select|order|limit|offset|or|and|columns|on_conflict)$/;
const filterValue = /^(not\.)?(eq|neq|gt|gte|lt|lte|like|ilike|in|is)\./;

/**
 * Whether a GET parameter is a function argument: one named so is; any other is a filter or
 * shapes the result when it reads like one, and an argument the function lacks (PGRST202) when not.
 */
function isArgument(names: ReadonlySet<string>, key: string, value: string): boolean {
  if (names.has(key)) return true;
  return !shapingKey.test(key) && !filterValue.test(value);
}

function nameOf(request: FastifyRequest): string {
  return (request.params as { name: string }).name;
}

async function plannedRows(tx: Parameters<Parameters<typeof asRole>[3]>[0], statement: Statement) {
  const plan = (await tx.query<{ 'QUERY PLAN': unknown }>(statement.sql, statement.params)).rows[0];
  const raw = plan?.['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
    Plan: { 'Plan Rows': number };
  }>;
  return Math.round(parsed[0]?.Plan['Plan Rows'] ?? 0);
}

function firstOf(body: string): string {
  const rows = JSON.parse(body) as unknown[];
  return JSON.stringify(rows[0] ?? null);
}

function sendJson(reply: FastifyReply, request: FastifyRequest, body: string, single: boolean) {
  reply.type(single ? `${singleObject}; charset=utf-8` : 'application/json; charset=utf-8');
  if (request.method === 'HEAD') return reply.send();
  const stripped = (request.headers.accept ?? '').includes('nulls=stripped');
  return reply.send(stripped ? JSON.stringify(stripNulls(JSON.parse(body))) : body);
}

/** The statements of a POST, PATCH or DELETE, checked against the catalog before any runs. */
function statementsFor(
  request: FastifyRequest,
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  prefs: Preferences,
  options: { representation: boolean },
): Statement[] {
  if (request.method === 'DELETE') return [buildDelete(cache, relation, query, options)];
  const body = request.body;
  if (request.method === 'PATCH') {
    if (!isRecord(body)) throw invalidBody();
    const columns = Object.keys(body).map((key) => writableColumnOf(relation, key));
    if (columns.length === 0) return [];
    return [buildUpdate(cache, relation, query, body, columns, options)];
  }
  const rows = Array.isArray(body) ? body : [body];
  if (!rows.every(isRecord)) throw invalidBody();
  if (rows.length === 0) return [];
  const listed = query.columns;
  if (!listed && Array.isArray(body)) {
    const first = Object.keys(rows[0]!).sort().join(',');
    if (rows.some((row) => Object.keys(row).sort().join(',') !== first)) {
      throw invalidBody('All object keys must match');
    }
  }
  const names = listed ?? Object.keys(rows[0]!);
  const columns = names.map((name) => writableColumnOf(relation, name));
  let conflict: InsertPlan['conflict'];
  if (prefs.resolution) {
    const keys = query.onConflict ?? relation.primaryKey;
    conflict = {
      action: prefs.resolution,
      columns: keys.map((key) => columnOf(relation, key)),
    };
  }
  const plan = (planRows: Record<string, unknown>[], planColumns: typeof columns): InsertPlan =>
    conflict
      ? { rows: planRows, columns: planColumns, conflict }
      : { rows: planRows, columns: planColumns };
  if (!prefs.missingDefault) {
    return [buildInsert(cache, relation, query, plan(rows, columns), options)];
  }
  // Columns a row leaves out take their default, so rows are inserted in groups of the same keys.
  const groups = new Map<string, { rows: Record<string, unknown>[]; columns: typeof columns }>();
  for (const row of rows) {
    const present = columns.filter((column) => Object.hasOwn(row, column.name));
    const key = present.map((column) => column.name).join('\u0000');
    const group = groups.get(key) ?? { rows: [], columns: present };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) =>
    buildInsert(cache, relation, query, plan(group.rows, group.columns), options),
  );
}
