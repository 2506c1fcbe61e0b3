import { grammarOf, singleObject, type ApiRequest, type CountKind } from './api-request.ts';
import { PostgrestError, restNotFound } from './errors.ts';
import type { ParsedQuery, ResourceQuery } from './query-grammar.ts';
import {
  columnOf,
  plannedCondition,
  readTree,
  type PlannedCondition,
  type ReadNode,
} from './read-tree.ts';
import { argumentNames, findRoutine, routineNotFound } from './routines.ts';
import type { Column, Relation, RoutineInfo, SchemaCache } from './schema-cache.ts';

// Step 2 of the REST path (PostgREST's Plan): the ApiRequest checked against the schema cache
// into a read, a mutation or a call. Every name from the URL or the body is looked up here (a
// read's select tree in read-tree.ts), so the SQL step only ever sees the catalog's columns,
// relationships and functions. A refusal is PostgREST's error for it, with its status.

/** Rows of a table or view, or of a set-returning function (`source`). */

export interface ReadPlan {
  kind: 'read';
  tree: ReadNode;
  /** The function whose rows are read, in place of the relation's. */
  source?: { routine: RoutineInfo; args: Record<string, unknown> };
  count?: CountKind;
  /** The offset and limit the caller asked (the tree's limit is capped at `maxRows`). */
  offset: number;
  limit?: number;
  single: boolean;
  readOnly: boolean;
  /** `return=minimal` on a POST to a function: no body. */
  minimal: boolean;
}

export interface InsertWrite {
  kind: 'insert';
  rows: Record<string, unknown>[];
  columns: Column[];
  conflict?: { columns: Column[]; action: 'merge' | 'ignore' };
}

export type Write =
  | InsertWrite
  | {
      kind: 'update';
      values: Record<string, unknown>;
      columns: Column[];
      where: PlannedCondition[];
    }
  | { kind: 'delete'; where: PlannedCondition[] };

/** A POST, PATCH or DELETE on a table or view: its statements, checked before any runs. */
export interface MutatePlan {
  kind: 'mutate';
  relation: Relation;
  writes: Write[];
  /** `return=representation`: the rows touched are answered. */
  representation: boolean;
  /** The select over the rows touched, when they are answered and there are writes. */
  returning?: ReadNode;
  count?: CountKind;
  single: boolean;
  created: boolean;
}

/** A function called for its result as such (a scalar, a row, a set without a row shape). */
export interface CallPlan {
  kind: 'call';
  routine: RoutineInfo;
  args: Record<string, unknown>;
  single: boolean;
  readOnly: boolean;
}

export type Plan = ReadPlan | MutatePlan | CallPlan;

/** Where the plan reads the catalog: the schema cache, reread on a miss. */
export interface Catalog {
  get(): Promise<SchemaCache>;
  refresh(): Promise<SchemaCache>;
  /** The row shape of a set-returning function's result, if it has one. */
  resultOf(cache: SchemaCache, routine: RoutineInfo): Promise<Relation | undefined>;
}

export async function planOf(api: ApiRequest, catalog: Catalog): Promise<Plan> {
  if (api.target.kind === 'routine') return planCall(api, api.target.name, catalog);
  let cache = await catalog.get();
  let relation = cache.relations.get(api.target.name);
  if (!relation) {
    cache = await catalog.refresh();
    relation = cache.relations.get(api.target.name);
  }
  if (!relation) throw restNotFound(api.path);
  const single = wantsSingle(api);
  // The parse step reads a table's or view's query string; only a function's waits for its plan.
  const query = api.query!;
  return api.action === 'read'
    ? planRead(cache, relation, withRange(api, query), api, single)
    : planMutation(cache, relation, query, api, single);
}

export function planRead(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  api: ApiRequest,
  single: boolean,
  source?: ReadPlan['source'],
): ReadPlan {
  const top = query.resources.get('')!;
  const tree = readTree(cache, relation, query, { rows: true, capped: true });
  const plan: ReadPlan = {
    kind: 'read',
    tree,
    offset: top.offset ?? 0,
    single,
    readOnly: api.method !== 'POST' || !source?.routine.volatile,
    minimal: api.method === 'POST' && api.preferences.minimal,
  };
  if (source) plan.source = source;
  if (top.limit !== undefined) plan.limit = top.limit;
  if (api.preferences.count) plan.count = api.preferences.count;
  return plan;
}

/** The media types a JSON answer satisfies; `.csv()` and the like are PostgREST's 406. */
const jsonMediaTypes = [
  '*/*',
  'application/*',
  'application/json',
  singleObject,
  'application/vnd.pgrst.array+json',
];

/** Whether the caller asked for one object instead of an array. Only JSON is served. */
function wantsSingle(api: ApiRequest): boolean {
  const accept = api.accept;
  if (!accept) return false;
  if (!accept.types.some((type) => jsonMediaTypes.includes(type))) {
    throw new PostgrestError(
      406,
      'PGRST107',
      `None of these media types are available: ${accept.raw}`,
    );
  }
  return accept.types.includes(singleObject);
}

/** `Range: 0-9` applies where the query string sets no limit nor offset. */
function withRange(api: ApiRequest, query: ParsedQuery): ParsedQuery {
  const top = query.resources.get('')!;
  if (!api.range || top.limit !== undefined || top.offset !== undefined) return query;
  const ranged: ResourceQuery = { ...top, offset: api.range.from };
  if (api.range.to !== undefined) ranged.limit = Math.max(0, api.range.to - api.range.from + 1);
  return { ...query, resources: new Map([...query.resources, ['', ranged]]) };
}

// ---------------------------------------------------------------------------------------------
// Writes.

/** A column named in a write's body or `columns=`: PostgREST's PGRST204. */
function writableColumnOf(relation: Relation, name: string): Column {
  const column = relation.columns.find((candidate) => candidate.name === name);
  if (!column) {
    throw new PostgrestError(
      400,
      'PGRST204',
      `Could not find the '${name}' column of '${relation.name}' in the schema cache`,
    );
  }
  return column;
}

function invalidBody(message = 'Empty or invalid json'): PostgrestError {
  return new PostgrestError(400, 'PGRST102', message);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** PATCH and DELETE need a filter; PostgREST refuses them without one (21000). */
function whereOf(relation: Relation, query: ParsedQuery, verb: 'UPDATE' | 'DELETE') {
  const where = (query.resources.get('')?.conditions ?? []).map((condition) =>
    plannedCondition(relation, condition),
  );
  if (where.length === 0) throw new PostgrestError(400, '21000', `${verb} requires a WHERE clause`);
  return where;
}

export function planMutation(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  api: ApiRequest,
  single: boolean,
): MutatePlan {
  const writes = writesOf(relation, query, api);
  const { representation } = api.preferences;
  const created = api.method === 'POST';
  const plan: MutatePlan = { kind: 'mutate', relation, writes, representation, single, created };
  if (representation && writes.length > 0) {
    plan.returning = readTree(cache, relation, query, { rows: false, capped: false });
  }
  if (api.preferences.count) plan.count = api.preferences.count;
  return plan;
}

function writesOf(relation: Relation, query: ParsedQuery, api: ApiRequest): Write[] {
  if (api.action === 'delete')
    return [{ kind: 'delete', where: whereOf(relation, query, 'DELETE') }];
  const body = api.body;
  if (api.action === 'update') {
    if (!isRecord(body)) throw invalidBody();
    const columns = Object.keys(body).map((key) => writableColumnOf(relation, key));
    if (columns.length === 0) return [];
    return [{ kind: 'update', values: body, columns, where: whereOf(relation, query, 'UPDATE') }];
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
  const resolution = api.preferences.resolution;
  const conflict = resolution && {
    action: resolution,
    columns: (query.onConflict ?? relation.primaryKey).map((key) => columnOf(relation, key)),
  };
  const insert = (groupRows: Record<string, unknown>[], groupColumns: Column[]): InsertWrite =>
    conflict
      ? { kind: 'insert', rows: groupRows, columns: groupColumns, conflict }
      : { kind: 'insert', rows: groupRows, columns: groupColumns };
  if (!api.preferences.missingDefault) return [insert(rows, columns)];
  // Columns a row leaves out take their default, so rows are inserted in groups of the same keys.
  const groups = new Map<string, { rows: Record<string, unknown>[]; columns: Column[] }>();
  for (const row of rows) {
    const present = columns.filter((column) => Object.hasOwn(row, column.name));
    const key = present.map((column) => column.name).join('\u0000');
    const group = groups.get(key) ?? { rows: [], columns: present };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => insert(group.rows, group.columns));
}

// ---------------------------------------------------------------------------------------------
// Functions.

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

async function planCall(api: ApiRequest, name: string, catalog: Catalog): Promise<Plan> {
  const readOnly = api.method !== 'POST';
  let cache = await catalog.get();
  if (!cache.functions.has(name)) cache = await catalog.refresh();
  // On GET and HEAD the arguments come in the query string; its other keys shape the result.
  let argNames = new Set<string>();
  let args: Record<string, unknown>;
  if (readOnly) {
    const names = argumentNames(cache, name);
    const search = [...new URLSearchParams(api.search)];
    args = Object.fromEntries(search.filter(([key, value]) => isArgument(names, key, value)));
    argNames = new Set(Object.keys(args));
  } else {
    const body = api.body ?? {};
    if (!isRecord(body)) throw invalidBody();
    args = body;
  }
  let routine = findRoutine(cache, name, args);
  if (!routine) {
    cache = await catalog.refresh();
    routine = findRoutine(cache, name, args);
  }
  if (!routine) throw routineNotFound(name, args);
  const query = withRange(api, grammarOf(api.search, argNames));
  const relation = await catalog.resultOf(cache, routine);
  const single = wantsSingle(api);
  if (relation) return planRead(cache, relation, query, api, single, { routine, args });
  return { kind: 'call', routine, args, single, readOnly };
}
