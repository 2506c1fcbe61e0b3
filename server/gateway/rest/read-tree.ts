import { PostgrestError } from './errors.ts';
import type {
  Condition,
  Filter,
  OrderTerm,
  ParsedQuery,
  ResourceQuery,
  SelectItem,
} from './query-grammar.ts';
import { findRelationship, type Relationship } from './relationships.ts';
import type { Column, Relation, SchemaCache } from './schema-cache.ts';

// The part of the plan a read shares with a write's returned rows (PostgREST's ReadPlanTree):
// the select resolved against the catalog, level by level, with each level's filters, order and
// page. Every name is looked up here, so the SQL builder only ever sees the catalog's.

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

export function columnOf(relation: Relation, name: string): Column {
  const column = relation.columns.find((candidate) => candidate.name === name);
  if (!column) {
    throw new PostgrestError(400, '42703', `column ${relation.name}.${name} does not exist`);
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

export function plannedCondition(relation: Relation, condition: Condition): PlannedCondition {
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
