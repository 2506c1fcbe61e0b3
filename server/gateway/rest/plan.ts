import type { ApiRequest, CountKind } from './api-request.ts';
import { grammarOf } from './api-request.ts';
import { PostgrestError, restNotFound } from './errors.ts';
import type {
  Condition,
  Filter,
  OrderTerm,
  ParsedQuery,
  ResourceQuery,
  SelectItem,
} from './query-grammar.ts';
import { findRelationship, type Relationship } from './relationships.ts';
import { argumentNames, findRoutine, routineNotFound } from './routines.ts';
import type { Column, Relation, RoutineInfo, SchemaCache } from './schema-cache.ts';

// Step 2 of the REST path (PostgREST's Plan): the ApiRequest checked against the schema cache.
// Every name from the URL or the body is looked up here, so the SQL step only ever sees the
// catalog's columns, relationships and functions. A refusal is PostgREST's error for it.

/** PostgREST's db-max-rows (Supabase's default `max_rows`): no read answers more rows. */
export const maxRows = 1000;

/**
 * Levels of embedded resources one request may nest. The desk needs two (responses → answers →
 * questions); each level can multiply the rows, so deeper requests are refused before they reach
 * the database, and gateway.spend_row bounds the rows of the levels allowed.
 */
export const maxEmbedDepth = 4;

export type PlannedCondition =
  | {
      kind: 'filter';
      column: Column;
      negated: boolean;
      operator: Filter['operator'];
      value: Filter['value'];
    }
  | { kind: 'logic'; operator: 'and' | 'or'; negated: boolean; conditions: PlannedCondition[] };

export interface PlannedOrder {
  column: Column;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** One output key of a row: a column (cast to an SQL type), or an embedded resource. */
export type Field =
  | { kind: 'column'; key: string; column: Column; cast?: string }
  | {
      kind: 'embed';
      key: string;
      relationship: Relationship;
      node: ReadNode;
      /** `responses(count)`: the embedded rows are only counted. */
      countOnly: boolean;
    };

/** One level of a read (PostgREST's ReadPlanTree): the top relation or an embedded one. */
export interface ReadNode {
  relation: Relation;
  /** '' at the top, `responses.answers` below. */
  path: string;
  fields: Field[];
  /** `!inner` embeddings: a row is kept only where each of them has a row. */
  inner: Array<{ relationship: Relationship; node: ReadNode }>;
  conditions: PlannedCondition[];
  order: PlannedOrder[];
  limit?: number;
  offset?: number;
}

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
  if (api.action === 'read')
    return planRead(cache, relation, withRange(api, api.query!), api, single);
  return planMutation(cache, relation, api.query!, api, single);
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

// ---------------------------------------------------------------------------------------------
// Reads: the select tree resolved against the catalog.

/** The media types a JSON answer satisfies; `.csv()` and the like are PostgREST's 406. */
const singleObject = 'application/vnd.pgrst.object+json';
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

export function columnOf(relation: Relation, name: string): Column {
  const column = relation.columns.find((candidate) => candidate.name === name);
  if (!column) {
    throw new PostgrestError(400, '42703', `column ${relation.name}.${name} does not exist`);
  }
  return column;
}

/** A column named in a write's body or `columns=`: PostgREST's PGRST204. */
export function writableColumnOf(relation: Relation, name: string): Column {
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

/** The casts `select=col::type` may ask for, and the SQL type each names. */
const castTypes: Record<string, string> = {
  text: 'text',
  varchar: 'text',
  int: 'integer',
  int4: 'integer',
  integer: 'integer',
  int8: 'bigint',
  bigint: 'bigint',
  int2: 'smallint',
  smallint: 'smallint',
  numeric: 'numeric',
  float4: 'real',
  real: 'real',
  float8: 'double precision',
  bool: 'boolean',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamp with time zone',
  json: 'json',
  jsonb: 'jsonb',
  uuid: 'uuid',
};

function embeddedTooDeep(): PostgrestError {
  return new PostgrestError(
    400,
    'PGRST100',
    `Embedded resources are nested more than ${maxEmbedDepth} levels deep`,
    { hint: `Embed at most ${maxEmbedDepth} levels below the requested resource` },
  );
}

const noResource: ResourceQuery = { conditions: [], order: [] };

/**
 * The select tree of `relation` with the query's filters, order and pages at each level.
 * `rows`: the top level's rows are read (its conditions and order apply); a write's returned
 * rows are only selected. `capped`: the top level answers at most `maxRows`.
 */
export function readTree(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  top: { rows: boolean; capped: boolean },
): ReadNode {
  const embedded = new Set<string>();
  // A write's returned rows are those it touched: the top level's filters chose them already.
  const resource = (path: string) =>
    path === '' && !top.rows ? noResource : (query.resources.get(path) ?? noResource);

  function embedding(parent: Relation, path: string, item: Extract<SelectItem, { kind: 'embed' }>) {
    const key = item.alias ?? item.relation;
    const childPath = path === '' ? key : `${path}.${key}`;
    if (childPath.split('.').length > maxEmbedDepth) throw embeddedTooDeep();
    const relationship = findRelationship(cache, parent, item.relation, item.hint);
    embedded.add(childPath);
    return { key, relationship, childPath };
  }

  /** One level: `rows` when its rows are read (not only tested for existence or counted). */
  function node(relation: Relation, path: string, select: SelectItem[], rows: boolean): ReadNode {
    const level: ReadNode = { relation, path, fields: [], inner: [], conditions: [], order: [] };
    for (const item of select) {
      if (item.kind === 'star') {
        for (const column of relation.columns) {
          level.fields.push({ kind: 'column', key: column.name, column });
        }
      } else if (item.kind === 'column') {
        const column = columnOf(relation, item.name);
        const field: Field = { kind: 'column', key: item.alias ?? column.name, column };
        if (item.cast !== undefined) {
          const type = Object.hasOwn(castTypes, item.cast) ? castTypes[item.cast] : undefined;
          if (!type) throw new PostgrestError(400, '42704', `type "${item.cast}" does not exist`);
          field.cast = type;
        }
        level.fields.push(field);
      } else {
        const { key, relationship, childPath } = embedding(relation, path, item);
        const countOnly = countsRows(relationship.target, item.select);
        const child = countOnly
          ? node(relationship.target, childPath, [], false)
          : node(relationship.target, childPath, item.select, item.select.length > 0);
        if (item.select.length > 0) {
          level.fields.push({ kind: 'embed', key, relationship, node: child, countOnly });
        }
        if (item.inner) level.inner.push({ relationship, node: child });
      }
    }
    const asked = resource(path);
    level.conditions = asked.conditions.map((condition) => plannedCondition(relation, condition));
    if (rows) {
      level.order = asked.order.map((term) => plannedOrder(relation, term));
      if (asked.limit !== undefined) level.limit = asked.limit;
      if (asked.offset !== undefined) level.offset = asked.offset;
    }
    return level;
  }

  const tree = node(relation, '', query.select, top.rows);
  // Nor do its `!inner` embeddings filter them.
  if (!top.rows) tree.inner = [];
  if (top.capped) tree.limit = Math.min(tree.limit ?? maxRows, maxRows);
  // Every embedded filter, order or limit must belong to an embedding of the select.
  for (const path of query.resources.keys()) {
    if (path !== '' && !embedded.has(path)) {
      throw new PostgrestError(
        400,
        'PGRST108',
        `'${path}' is not an embedded resource in this request`,
        {
          hint: `Verify that '${path}' is included in the 'select' query parameter.`,
        },
      );
    }
  }
  return tree;
}

/** `responses(count)`: PostgREST answers `[{"count": n}]` for a table without a column `count`. */
function countsRows(target: Relation, select: SelectItem[]): boolean {
  const [only] = select;
  return (
    select.length === 1 &&
    only?.kind === 'column' &&
    only.name === 'count' &&
    only.alias === undefined &&
    !target.columns.some((column) => column.name === 'count')
  );
}

function plannedCondition(relation: Relation, condition: Condition): PlannedCondition {
  if (condition.kind === 'filter') {
    const { negated, operator, value } = condition;
    return {
      kind: 'filter',
      column: columnOf(relation, condition.column),
      negated,
      operator,
      value,
    };
  }
  return {
    kind: 'logic',
    operator: condition.operator,
    negated: condition.negated,
    conditions: condition.conditions.map((inner) => plannedCondition(relation, inner)),
  };
}

function plannedOrder(relation: Relation, term: OrderTerm): PlannedOrder {
  const order: PlannedOrder = { column: columnOf(relation, term.column) };
  if (term.direction) order.direction = term.direction;
  if (term.nulls) order.nulls = term.nulls;
  return order;
}

// ---------------------------------------------------------------------------------------------
// Writes.

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
