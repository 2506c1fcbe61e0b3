import type { CallPlan, MutatePlan, Plan, ReadPlan, Write } from './plan.ts';
import type { Field, PlannedCondition, PlannedOrder, ReadNode } from './read-tree.ts';
import type { Relationship } from './relationships.ts';
import type { Column, Relation, RoutineInfo } from './schema-cache.ts';

// Step 3 of the REST path (PostgREST's Query): the SQL of a plan. Every name comes from the
// catalog (the plan looked each one up), values and output keys are bound parameters. Embedded
// resources are correlated subqueries under the caller's role, so row-level security applies to
// each of them as to the top level (PostgREST builds them the same way).

export interface Statement {
  sql: string;
  params: string[];
}

/** The statements of a plan, by the plan's kind. */
export type Query =
  /** One row `{body, n, total?}`; `planned` is the EXPLAIN for `count=planned`. */
  | { kind: 'read'; read: Statement; planned?: Statement }
  /** Run in order; each answers `{body, n}` with a representation, nothing without. */
  | { kind: 'mutate'; statements: Statement[] }
  /** One row `{body, n}`, or nothing for a function returning void. */
  | { kind: 'call'; statement: Statement };

export function queryOf(plan: Plan): Query {
  if (plan.kind === 'read') return { kind: 'read', ...readStatements(plan) };
  if (plan.kind === 'mutate') return { kind: 'mutate', statements: mutateStatements(plan) };
  return { kind: 'call', statement: callStatement(plan) };
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const tableRef = (relation: Relation) => `public.${quoteIdent(relation.name)}`;
const columnRef = (alias: string, column: Column) => `${alias}.${quoteIdent(column.name)}`;

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

const comparisons = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const isTests = {
  null: 'is null',
  not_null: 'is not null',
  true: 'is true',
  false: 'is false',
  unknown: 'is unknown',
} as const;

function conditionSql(params: Params, alias: string, condition: PlannedCondition): string {
  if (condition.kind === 'logic') {
    const parts = condition.conditions.map((inner) => conditionSql(params, alias, inner));
    const joined = `(${parts.join(` ${condition.operator} `)})`;
    return condition.negated ? `not ${joined}` : joined;
  }
  const { column } = condition;
  const lhs = columnRef(alias, column);
  let sql: string;
  switch (condition.operator) {
    case 'like':
    case 'ilike': {
      const text = column.type === 'text' ? lhs : `${lhs}::text`;
      sql = `${text} ${condition.operator} ${params.text(String(condition.value).replaceAll('*', '%'))}`;
      break;
    }
    case 'in': {
      const values = condition.value as string[];
      sql =
        values.length === 0
          ? 'false'
          : `${lhs} in (${values.map((value) => params.typed(value, column.type)).join(', ')})`;
      break;
    }
    case 'is':
      sql = `${lhs} ${isTests[condition.value as keyof typeof isTests]}`;
      break;
    default:
      sql = `${lhs} ${comparisons[condition.operator]} ${params.typed(String(condition.value), column.type)}`;
  }
  return condition.negated ? `not (${sql})` : sql;
}

function orderSql(alias: string, order: PlannedOrder[]): string {
  if (order.length === 0) return '';
  const terms = order.map((term) => {
    const nulls = term.nulls ? ` nulls ${term.nulls}` : '';
    return `${columnRef(alias, term.column)} ${term.direction ?? 'asc'}${nulls}`;
  });
  return ` order by ${terms.join(', ')}`;
}

function pageSql(params: Params, page: { limit?: number; offset?: number }): string {
  let sql = '';
  if (page.limit !== undefined) sql += ` limit ${params.typed(String(page.limit), 'bigint')}`;
  if (page.offset !== undefined) sql += ` offset ${params.typed(String(page.offset), 'bigint')}`;
  return sql;
}

function joinTerms(relationship: Relationship, parentAlias: string, childAlias: string) {
  return relationship.pairs.map(
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

/** Renders the levels of a read tree: their JSON objects, their WHERE terms, the aliases. */
class Renderer {
  readonly params = new Params();
  private aliasCount = 0;

  nextAlias(): string {
    this.aliasCount += 1;
    return `t${this.aliasCount}`;
  }

  /** The JSON object of one row of `node` (as `alias`), with its embedded resources. */
  object(node: ReadNode, alias: string): string {
    return jsonObject(
      node.fields.map((field): [string, string] => [
        this.params.text(field.key),
        field.kind === 'column'
          ? field.cast === undefined
            ? columnRef(alias, field.column)
            : `cast(${columnRef(alias, field.column)} as ${field.cast})`
          : this.embedded(field, alias),
      ]),
    );
  }

  /** WHERE terms of one level: its filters plus the `!inner` embeddings' existence tests. */
  whereTerms(node: ReadNode, alias: string): string[] {
    const terms = node.conditions.map((condition) => conditionSql(this.params, alias, condition));
    for (const { relationship, node: child } of node.inner) {
      const childAlias = this.nextAlias();
      const childWhere = [
        ...joinTerms(relationship, alias, childAlias),
        ...this.whereTerms(child, childAlias),
      ];
      terms.push(
        `exists (select 1 from ${tableRef(relationship.target)} as ${childAlias} where ${childWhere.join(' and ')})`,
      );
    }
    return terms;
  }

  private embedded(field: Extract<Field, { kind: 'embed' }>, parentAlias: string): string {
    const { relationship, node } = field;
    const target = tableRef(relationship.target);
    const alias = this.nextAlias();
    if (field.countOnly) {
      const terms = [
        ...joinTerms(relationship, parentAlias, alias),
        ...this.whereTerms(node, alias),
      ];
      const count = `json_build_object(${this.params.text('count')}, count(*))`;
      return `(select json_build_array(${count}) from ${target} as ${alias} where ${terms.join(' and ')})`;
    }
    const object = this.object(node, alias);
    const terms = [
      ...joinTerms(relationship, parentAlias, alias),
      ...this.whereTerms(node, alias),
      // Last, so it counts only rows the other terms let through (volatile: once per row).
      'gateway.spend_row()',
    ];
    const from = `from ${target} as ${alias} where ${terms.join(' and ')}`;
    const order = orderSql(alias, node.order);
    if (relationship.toOne) return `(select ${object} ${from}${order} limit 1)`;
    const rows = this.nextAlias();
    return `(select coalesce(json_agg(${rows}.r), '[]'::json) from (select ${object} as r ${from}${order}${pageSql(this.params, node)}) as ${rows})`;
  }
}

/**
 * The call of `routine` with the arguments as one JSON parameter typed by the catalog, as a
 * FROM item whose rows are `f`.
 */
function callSource(params: Params, routine: RoutineInfo, args: Record<string, unknown>) {
  const given = routine.arguments.filter((argument) => Object.hasOwn(args, argument.name));
  const fn = `public.${quoteIdent(routine.name)}`;
  const call = `${fn}(${given.map((argument) => `${quoteIdent(argument.name)} => a.${quoteIdent(argument.name)}`).join(', ')})`;
  const from =
    given.length === 0
      ? ''
      : ` from json_to_record(${params.text(JSON.stringify(args))}::json) as a(${given
          .map((argument) => `${quoteIdent(argument.name)} ${argument.type}`)
          .join(', ')})`;
  const rows = from === '' ? ` from ${call} as f` : `${from} cross join lateral ${call} as f`;
  return { call, from, rows };
}

/**
 * A read: one row `{body, n}` (the JSON array as text and its length), plus `total` when an
 * exact count is asked; `planned` gets a separate statement (EXPLAIN). A function's rows are a
 * common table expression, so with a count the function runs once.
 */
export function readStatements(plan: ReadPlan): { read: Statement; planned?: Statement } {
  const { tree, count } = plan;
  const sourceOf = (params: Params) => {
    if (!plan.source) return { head: '', from: tableRef(tree.relation) };
    const { rows } = callSource(params, plan.source.routine, plan.source.args);
    return { head: `with pgrst_source as (select f.*${rows}) `, from: 'pgrst_source' };
  };
  const renderer = new Renderer();
  const source = sourceOf(renderer.params);
  const object = renderer.object(tree, 't0');
  const terms = renderer.whereTerms(tree, 't0');
  const order = orderSql('t0', tree.order);
  const page = pageSql(renderer.params, tree);
  const from = `from ${source.from} as t0${where(terms)}`;
  const total =
    count === 'exact' || count === 'estimated'
      ? `, (select count(*) ${from})::bigint as total`
      : '';
  const read = {
    sql: `${source.head}select coalesce(json_agg(p.r), '[]'::json)::text as body, count(*)::int as n${total} from (select ${object} as r ${from}${order}${page}) as p`,
    params: renderer.params.values,
  };
  if (count !== 'planned') return { read };
  const counter = new Renderer();
  const countSource = sourceOf(counter.params);
  const countTerms = counter.whereTerms(tree, 't0');
  return {
    read,
    planned: {
      sql: `explain (format json) ${countSource.head}select 1 from ${countSource.from} as t0${where(countTerms)}`,
      params: counter.params.values,
    },
  };
}

/** A JSON record of the given columns, typed by the catalog: `_r("a" integer, "b" text)`. */
function recordDefinition(columns: Column[]): string {
  return columns.map((column) => `${quoteIdent(column.name)} ${column.type}`).join(', ');
}

export function mutateStatements(plan: MutatePlan): Statement[] {
  return plan.writes.map((write) => writeStatement(plan.relation, write, plan.returning));
}

/** One data-changing statement; with `returning`, it answers like a read of the rows touched. */
function writeStatement(relation: Relation, write: Write, returning?: ReadNode): Statement {
  const renderer = new Renderer();
  const { params } = renderer;
  const table = `${tableRef(relation)} as t0`;
  const filter = (conditions: PlannedCondition[]) =>
    where(conditions.map((condition) => conditionSql(params, 't0', condition)));
  let sql: string;
  if (write.kind === 'delete') {
    sql = `delete from ${table}${filter(write.where)}`;
  } else if (write.kind === 'update') {
    const json = params.text(JSON.stringify(write.values));
    const assignments = write.columns
      .map((column) => `${quoteIdent(column.name)} = r.${quoteIdent(column.name)}`)
      .join(', ');
    sql = `update ${table} set ${assignments} from json_to_record(${json}::json) as r(${recordDefinition(write.columns)})${filter(write.where)}`;
  } else {
    const json = params.text(JSON.stringify(write.rows));
    const names = write.columns.map((column) => quoteIdent(column.name)).join(', ');
    // Rows without keys (`[{}, {}]`): a zero-column SELECT leaves every column to its default.
    sql =
      write.columns.length === 0
        ? `insert into ${table} select from json_array_elements(${json}::json)`
        : `insert into ${table} (${names}) select ${names} from json_to_recordset(${json}::json) as r(${recordDefinition(write.columns)})`;
    if (write.conflict) {
      const keys = write.conflict.columns.map((column) => quoteIdent(column.name)).join(', ');
      const target = keys ? ` (${keys})` : '';
      const updates = write.columns.map(
        (column) => `${quoteIdent(column.name)} = excluded.${quoteIdent(column.name)}`,
      );
      sql +=
        write.conflict.action === 'ignore' || updates.length === 0
          ? ` on conflict${target} do nothing`
          : ` on conflict${target} do update set ${updates.join(', ')}`;
    }
  }
  if (!returning) return { sql, params: params.values };
  const object = renderer.object(returning, 't0');
  return {
    sql: `with w as (${sql} returning t0.*) select coalesce(json_agg(p.r), '[]'::json)::text as body, count(*)::int as n from (select ${object} as r from w as t0) as p`,
    params: params.values,
  };
}

/**
 * A function called for its result. Answers `{body, n}`: the JSON result as text (an array for
 * set-returning functions and rows) and the number of rows; nothing for a function of void.
 */
export function callStatement(plan: CallPlan): Statement {
  const { routine, args } = plan;
  const params = new Params();
  const { call, from, rows } = callSource(params, routine, args);
  if (routine.returns === 'void' && !routine.returnsSet) {
    return { sql: `select ${call}${from}`, params: params.values };
  }
  if (routine.returnsSet || routine.returns === 'composite') {
    return {
      sql: `select coalesce(json_agg(f), '[]'::json)::text as body, count(*)::int as n${rows}`,
      params: params.values,
    };
  }
  return { sql: `select to_json(${call})::text as body, 1 as n${from}`, params: params.values };
}
