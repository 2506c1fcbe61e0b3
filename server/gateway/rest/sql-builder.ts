import { PostgrestError } from './errors.ts';
import type {
  Condition,
  Filter,
  OrderTerm,
  ParsedQuery,
  ResourceQuery,
  SelectItem,
} from './query-grammar.ts';
import { findRelationship } from './relationships.ts';
import type { Column, Relation, SchemaCache } from './schema-cache.ts';

// Turns a parsed request into SQL. Names come from the catalog (a name from the URL is only
// used to look one up), values and output keys are bound parameters. Embedded resources are
// correlated subqueries under the caller's role, so row-level security applies to each of them
// as to the top level (PostgREST builds them the same way).

export interface Statement {
  sql: string;
  params: string[];
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const tableRef = (relation: Relation) => `public.${quoteIdent(relation.name)}`;

/** Collects parameters: every value is sent as text and cast where its type matters. */
export class Params {
  readonly values: string[] = [];
  text(value: string): string {
    this.values.push(value);
    return `$${this.values.length}::text`;
  }
  typed(value: string, type: string): string {
    return type === 'text' ? this.text(value) : `cast(${this.text(value)} as ${type})`;
  }
}

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

const comparisons = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const isTests = {
  null: 'is null',
  not_null: 'is not null',
  true: 'is true',
  false: 'is false',
  unknown: 'is unknown',
} as const;

function filterSql(params: Params, relation: Relation, alias: string, filter: Filter): string {
  const column = columnOf(relation, filter.column);
  const lhs = `${alias}.${quoteIdent(column.name)}`;
  let sql: string;
  switch (filter.operator) {
    case 'like':
    case 'ilike': {
      const text = column.type === 'text' ? lhs : `${lhs}::text`;
      sql = `${text} ${filter.operator} ${params.text(String(filter.value).replaceAll('*', '%'))}`;
      break;
    }
    case 'in': {
      const values = filter.value as string[];
      sql =
        values.length === 0
          ? 'false'
          : `${lhs} in (${values.map((value) => params.typed(value, column.type)).join(', ')})`;
      break;
    }
    case 'is':
      sql = `${lhs} ${isTests[filter.value as keyof typeof isTests]}`;
      break;
    default:
      sql = `${lhs} ${comparisons[filter.operator]} ${params.typed(String(filter.value), column.type)}`;
  }
  return filter.negated ? `not (${sql})` : sql;
}

function conditionSql(
  params: Params,
  relation: Relation,
  alias: string,
  condition: Condition,
): string {
  if (condition.kind === 'filter') return filterSql(params, relation, alias, condition);
  const parts = condition.conditions.map((c) => conditionSql(params, relation, alias, c));
  const joined = `(${parts.join(` ${condition.operator} `)})`;
  return condition.negated ? `not ${joined}` : joined;
}

function orderSql(relation: Relation, alias: string, order: OrderTerm[]): string {
  if (order.length === 0) return '';
  const terms = order.map((term) => {
    const column = columnOf(relation, term.column);
    const nulls = term.nulls ? ` nulls ${term.nulls}` : '';
    return `${alias}.${quoteIdent(column.name)} ${term.direction ?? 'asc'}${nulls}`;
  });
  return ` order by ${terms.join(', ')}`;
}

function pageSql(params: Params, resource: ResourceQuery): string {
  let sql = '';
  if (resource.limit !== undefined)
    sql += ` limit ${params.typed(String(resource.limit), 'bigint')}`;
  if (resource.offset !== undefined) {
    sql += ` offset ${params.typed(String(resource.offset), 'bigint')}`;
  }
  return sql;
}

const noResource: ResourceQuery = { conditions: [], order: [] };

/** PostgREST's db-max-rows (Supabase's default `max_rows`): no read answers more rows. */
export const maxRows = 1000;

/**
 * Levels of embedded resources one request may nest. The desk needs two (responses → answers →
 * questions); each level can multiply the rows, so deeper requests are refused before they reach
 * the database, and gateway.spend_row bounds the rows of the levels allowed.
 */
export const maxEmbedDepth = 4;

function embeddedTooDeep(): PostgrestError {
  return new PostgrestError(
    400,
    'PGRST100',
    `Embedded resources are nested more than ${maxEmbedDepth} levels deep`,
    { hint: `Embed at most ${maxEmbedDepth} levels below the requested resource` },
  );
}

/** Builds the parts of one request: its JSON objects, the WHERE of each level, the aliases. */
class Builder {
  readonly params = new Params();
  private aliasCount = 0;
  /** Paths of the embedded resources the select names, to check the query's embedded filters. */
  readonly embeddedPaths = new Set<string>();

  constructor(
    private readonly cache: SchemaCache,
    private readonly query: ParsedQuery,
  ) {}

  nextAlias(): string {
    this.aliasCount += 1;
    return `t${this.aliasCount}`;
  }

  resource(path: string): ResourceQuery {
    return this.query.resources.get(path) ?? noResource;
  }

  /** WHERE terms of one level: its filters plus the `!inner` embeddings' existence tests. */
  whereTerms(relation: Relation, alias: string, path: string, select: SelectItem[]): string[] {
    const terms = this.resource(path).conditions.map((condition) =>
      conditionSql(this.params, relation, alias, condition),
    );
    for (const item of select) {
      if (item.kind !== 'embed' || !item.inner) continue;
      const { relationship, childPath } = this.embedding(relation, path, item);
      const childAlias = this.nextAlias();
      const where = [
        ...joinTerms(relationship.pairs, alias, childAlias),
        ...this.whereTerms(relationship.target, childAlias, childPath, item.select),
      ];
      terms.push(
        `exists (select 1 from ${tableRef(relationship.target)} as ${childAlias} where ${where.join(' and ')})`,
      );
    }
    return terms;
  }

  /** The JSON object of one row of `relation` (as `alias`), with its embedded resources. */
  object(relation: Relation, alias: string, path: string, select: SelectItem[]): string {
    const pairs: Array<[string, string]> = [];
    for (const item of select) {
      if (item.kind === 'star') {
        for (const column of relation.columns) {
          pairs.push([this.params.text(column.name), `${alias}.${quoteIdent(column.name)}`]);
        }
      } else if (item.kind === 'column') {
        const column = columnOf(relation, item.name);
        let value = `${alias}.${quoteIdent(column.name)}`;
        if (item.cast !== undefined) {
          const type = Object.hasOwn(castTypes, item.cast) ? castTypes[item.cast] : undefined;
          if (!type) throw new PostgrestError(400, '42704', `type "${item.cast}" does not exist`);
          value = `cast(${value} as ${type})`;
        }
        pairs.push([this.params.text(item.alias ?? column.name), value]);
      } else if (item.select.length > 0) {
        pairs.push([
          this.params.text(item.alias ?? item.relation),
          this.embedded(relation, alias, path, item),
        ]);
      } else {
        this.embedding(relation, path, item);
      }
    }
    return jsonObject(pairs);
  }

  private embedding(
    relation: Relation,
    path: string,
    item: Extract<SelectItem, { kind: 'embed' }>,
  ) {
    const key = item.alias ?? item.relation;
    const childPath = path === '' ? key : `${path}.${key}`;
    if (childPath.split('.').length > maxEmbedDepth) throw embeddedTooDeep();
    const relationship = findRelationship(this.cache, relation, item.relation, item.hint);
    this.embeddedPaths.add(childPath);
    return { relationship, childPath };
  }

  private embedded(
    parent: Relation,
    parentAlias: string,
    path: string,
    item: Extract<SelectItem, { kind: 'embed' }>,
  ): string {
    const { relationship, childPath } = this.embedding(parent, path, item);
    const { target } = relationship;
    const alias = this.nextAlias();
    if (countsRows(target, item.select)) {
      const where = [
        ...joinTerms(relationship.pairs, parentAlias, alias),
        ...this.whereTerms(target, alias, childPath, []),
      ];
      const count = `json_build_object(${this.params.text('count')}, count(*))`;
      return `(select json_build_array(${count}) from ${tableRef(target)} as ${alias} where ${where.join(' and ')})`;
    }
    const object = this.object(target, alias, childPath, item.select);
    const where = [
      ...joinTerms(relationship.pairs, parentAlias, alias),
      ...this.whereTerms(target, alias, childPath, item.select),
      // Last, so it counts only rows the other terms let through (volatile: once per row).
      'gateway.spend_row()',
    ];
    const resource = this.resource(childPath);
    const from = `from ${tableRef(target)} as ${alias} where ${where.join(' and ')}`;
    const order = orderSql(target, alias, resource.order);
    if (relationship.toOne) return `(select ${object} ${from}${order} limit 1)`;
    const rows = this.nextAlias();
    return `(select coalesce(json_agg(${rows}.r), '[]'::json) from (select ${object} as r ${from}${order}${pageSql(this.params, resource)}) as ${rows})`;
  }

  /** Every embedded filter, order or limit must belong to an embedding of the select. */
  checkEmbeddedPaths(): void {
    for (const path of this.query.resources.keys()) {
      if (path !== '' && !this.embeddedPaths.has(path)) {
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
  }
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

function joinTerms(pairs: Array<[string, string]>, parentAlias: string, childAlias: string) {
  return pairs.map(
    ([parentColumn, childColumn]) =>
      `${childAlias}.${quoteIdent(childColumn)} = ${parentAlias}.${quoteIdent(parentColumn)}`,
  );
}

/** json_build_object takes at most 100 arguments; wider rows are joined as jsonb. */
function jsonObject(pairs: Array<[string, string]>): string {
  const flat = (chunk: Array<[string, string]>) => chunk.map(([key, value]) => `${key}, ${value}`);
  if (pairs.length <= 50) return `json_build_object(${flat(pairs).join(', ')})`;
  const chunks: string[] = [];
  for (let i = 0; i < pairs.length; i += 50) {
    chunks.push(`jsonb_build_object(${flat(pairs.slice(i, i + 50)).join(', ')})`);
  }
  return `(${chunks.join(' || ')})::json`;
}

const where = (terms: string[]) => (terms.length > 0 ? ` where ${terms.join(' and ')}` : '');

export type CountKind = 'exact' | 'planned' | 'estimated';

/**
 * A read: one row `{body, n}` (the JSON array as text and its length), plus `total` when an
 * exact count is asked. `planned` gets a separate statement (EXPLAIN).
 */
export function buildRead(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  count: CountKind | undefined,
): { read: Statement; planned?: Statement } {
  return readOf(cache, relation, query, count, () => ({ head: '', from: tableRef(relation) }));
}

/**
 * A read of rows a statement yields (a set-returning function's), shaped like a table read:
 * `relation` describes its columns. `source` adds its parameters to `params` and answers the
 * statement; it becomes a common table expression, so with a count the function runs once.
 */
export function buildSourceRead(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  count: CountKind | undefined,
  source: (params: Params) => string,
): { read: Statement; planned?: Statement } {
  return readOf(cache, relation, query, count, (params) => ({
    head: `with pgrst_source as (${source(params)}) `,
    from: 'pgrst_source',
  }));
}

function readOf(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  count: CountKind | undefined,
  sourceOf: (params: Params) => { head: string; from: string },
): { read: Statement; planned?: Statement } {
  const builder = new Builder(cache, query);
  const source = sourceOf(builder.params);
  const object = builder.object(relation, 't0', '', query.select);
  const terms = builder.whereTerms(relation, 't0', '', query.select);
  const top = builder.resource('');
  const order = orderSql(relation, 't0', top.order);
  const page = pageSql(builder.params, { ...top, limit: Math.min(top.limit ?? maxRows, maxRows) });
  builder.checkEmbeddedPaths();
  const from = `from ${source.from} as t0${where(terms)}`;
  const total =
    count === 'exact' || count === 'estimated'
      ? `, (select count(*) ${from})::bigint as total`
      : '';
  const read = {
    sql: `${source.head}select coalesce(json_agg(p.r), '[]'::json)::text as body, count(*)::int as n${total} from (select ${object} as r ${from}${order}${page}) as p`,
    params: builder.params.values,
  };
  if (count !== 'planned') return { read };
  const counter = new Builder(cache, query);
  const countSource = sourceOf(counter.params);
  const countTerms = counter.whereTerms(relation, 't0', '', query.select);
  return {
    read,
    planned: {
      sql: `explain (format json) ${countSource.head}select 1 from ${countSource.from} as t0${where(countTerms)}`,
      params: counter.params.values,
    },
  };
}

export interface WriteOptions {
  /** Representation wanted: the statement then answers `{body, n}`; otherwise it returns nothing. */
  representation: boolean;
}

/** Wraps a data-changing statement so that it answers like a read of the rows it touched. */
function withRepresentation(
  builder: Builder,
  relation: Relation,
  query: ParsedQuery,
  write: string,
  options: WriteOptions,
): Statement {
  if (!options.representation) return { sql: write, params: builder.params.values };
  const object = builder.object(relation, 't0', '', query.select);
  builder.checkEmbeddedPaths();
  return {
    sql: `with w as (${write} returning t0.*) select coalesce(json_agg(p.r), '[]'::json)::text as body, count(*)::int as n from (select ${object} as r from w as t0) as p`,
    params: builder.params.values,
  };
}

/** A JSON record of the given columns, typed by the catalog: `_r("a" integer, "b" text)`. */
function recordDefinition(columns: Column[]): string {
  return columns.map((column) => `${quoteIdent(column.name)} ${column.type}`).join(', ');
}

export interface InsertPlan {
  rows: Record<string, unknown>[];
  columns: Column[];
  conflict?: { columns: Column[]; action: 'merge' | 'ignore' };
}

/** One INSERT of rows that share their columns; values travel as one JSON parameter. */
export function buildInsert(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  plan: InsertPlan,
  options: WriteOptions,
): Statement {
  const builder = new Builder(cache, query);
  const target = `${tableRef(relation)} as t0`;
  let write: string;
  if (plan.columns.length === 0) {
    // Rows without keys (`[{}, {}]`): a zero-column SELECT leaves every column to its default.
    const json = builder.params.text(JSON.stringify(plan.rows));
    write = `insert into ${target} select from json_array_elements(${json}::json)`;
  } else {
    const names = plan.columns.map((column) => quoteIdent(column.name)).join(', ');
    const json = builder.params.text(JSON.stringify(plan.rows));
    write = `insert into ${target} (${names}) select ${names} from json_to_recordset(${json}::json) as r(${recordDefinition(plan.columns)})`;
  }
  if (plan.conflict) {
    const keys = plan.conflict.columns.map((column) => quoteIdent(column.name)).join(', ');
    const target = keys ? ` (${keys})` : '';
    const updates = plan.columns.map(
      (column) => `${quoteIdent(column.name)} = excluded.${quoteIdent(column.name)}`,
    );
    write +=
      plan.conflict.action === 'ignore' || updates.length === 0
        ? ` on conflict${target} do nothing`
        : ` on conflict${target} do update set ${updates.join(', ')}`;
  }
  return withRepresentation(builder, relation, query, write, options);
}

/** The WHERE of a PATCH or DELETE; PostgREST refuses both without any filter (21000). */
function writeWhere(builder: Builder, relation: Relation, verb: 'UPDATE' | 'DELETE'): string {
  const terms = builder.whereTerms(relation, 't0', '', []);
  if (terms.length === 0) {
    throw new PostgrestError(400, '21000', `${verb} requires a WHERE clause`);
  }
  return where(terms);
}

export function buildUpdate(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  values: Record<string, unknown>,
  columns: Column[],
  options: WriteOptions,
): Statement {
  const builder = new Builder(cache, query);
  const json = builder.params.text(JSON.stringify(values));
  const assignments = columns
    .map((column) => `${quoteIdent(column.name)} = r.${quoteIdent(column.name)}`)
    .join(', ');
  const filter = writeWhere(builder, relation, 'UPDATE');
  const write = `update ${tableRef(relation)} as t0 set ${assignments} from json_to_record(${json}::json) as r(${recordDefinition(columns)})${filter}`;
  return withRepresentation(builder, relation, query, write, options);
}

export function buildDelete(
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  options: WriteOptions,
): Statement {
  const builder = new Builder(cache, query);
  const filter = writeWhere(builder, relation, 'DELETE');
  const write = `delete from ${tableRef(relation)} as t0${filter}`;
  return withRepresentation(builder, relation, query, write, options);
}
