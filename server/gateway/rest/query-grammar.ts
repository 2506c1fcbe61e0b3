// PostgREST's query grammar (select, filters, logic trees, order, limit, offset), parsed into
// plain data. Nothing here knows the catalog or SQL: names are checked by the plan and quoted by
// the SQL builder, values stay strings until they are bound as parameters.

export class GrammarError extends Error {
  constructor(
    readonly parameter: string,
    readonly value: string,
    readonly details: string,
  ) {
    super(`"failed to parse ${parameter} parameter (${value})"`);
    this.name = 'GrammarError';
  }
}

export const operators = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'in',
  'is',
] as const;
export type Operator = (typeof operators)[number];

export const isValues = ['null', 'not_null', 'true', 'false', 'unknown'] as const;
export type IsValue = (typeof isValues)[number];

export interface Filter {
  kind: 'filter';
  column: string;
  negated: boolean;
  operator: Operator;
  /** One value; a list for `in`. */
  value: string | string[];
}

export interface Logic {
  kind: 'logic';
  operator: 'and' | 'or';
  negated: boolean;
  conditions: Condition[];
}

export type Condition = Filter | Logic;

export interface ColumnItem {
  kind: 'column';
  name: string;
  alias?: string;
  cast?: string;
}

export interface EmbedItem {
  kind: 'embed';
  relation: string;
  alias?: string;
  hint?: string;
  inner: boolean;
  select: SelectItem[];
}

export type SelectItem = { kind: 'star' } | ColumnItem | EmbedItem;

export interface OrderTerm {
  column: string;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** What a query string asks of one resource: the top level, or an embedded one by its path. */
export interface ResourceQuery {
  conditions: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}

export interface ParsedQuery {
  select: SelectItem[];
  /** Keyed by the embedding path, '' for the top level, 'responses.answers' for nested. */
  resources: Map<string, ResourceQuery>;
  /** `columns=` of an insert. */
  columns?: string[];
  /** `on_conflict=` of an upsert. */
  onConflict?: string[];
}

const reservedKeys = new Set(['select', 'columns', 'on_conflict']);

/**
 * Reads a query string as PostgREST does. `search` is the raw part after `?`; URLSearchParams
 * decodes `+` as a space, as PostgREST does for supabase-js's queries.
 * `extraKeys` are parameters that are not filters (an RPC's arguments on GET).
 */
export function parseQuery(
  search: string,
  extraKeys: ReadonlySet<string> = new Set(),
): ParsedQuery {
  const params = new URLSearchParams(search);
  const parsed: ParsedQuery = { select: [{ kind: 'star' }], resources: new Map() };
  const resource = (path: string) => {
    let found = parsed.resources.get(path);
    if (!found) {
      found = { conditions: [], order: [] };
      parsed.resources.set(path, found);
    }
    return found;
  };
  resource('');
  for (const [key, value] of params) {
    if (key === 'select') parsed.select = parseSelect(value);
    else if (key === 'columns') parsed.columns = parseColumnList('columns', value);
    else if (key === 'on_conflict') parsed.onConflict = parseColumnList('on_conflict', value);
    else if (extraKeys.has(key)) continue;
    else addParameter(key, value, resource);
  }
  return parsed;
}

function addParameter(key: string, value: string, resource: (path: string) => ResourceQuery): void {
  const parts = key.split('.');
  const last = parts[parts.length - 1]!;
  const logicNegated = parts.length >= 2 && parts[parts.length - 2] === 'not';
  if (last === 'or' || last === 'and') {
    const path = parts.slice(0, logicNegated ? -2 : -1).join('.');
    const conditions = parseLogicBody(key, value);
    resource(path).conditions.push({
      kind: 'logic',
      operator: last,
      negated: logicNegated,
      conditions,
    });
    return;
  }
  const path = parts.slice(0, -1).join('.');
  if (last === 'order') resource(path).order = parseOrder(value);
  else if (last === 'limit') resource(path).limit = parseCount(key, value);
  else if (last === 'offset') resource(path).offset = parseCount(key, value);
  else if (last === '' || reservedKeys.has(last)) {
    throw new GrammarError('filter', key, `unexpected parameter "${key}"`);
  } else resource(path).conditions.push(parseFilter(last, value));
}

function parseCount(parameter: string, value: string): number {
  if (!/^\d{1,15}$/.test(value)) {
    throw new GrammarError(parameter, value, `expecting a non-negative integer, got "${value}"`);
  }
  return Number(value);
}

/** `col=[not.]op.value` */
export function parseFilter(column: string, expression: string): Filter {
  let rest = expression;
  let negated = false;
  if (rest.startsWith('not.')) {
    negated = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const operator = dot < 0 ? rest : rest.slice(0, dot);
  if (!(operators as readonly string[]).includes(operator) || dot < 0) {
    throw new GrammarError('filter', expression, `unknown operator in "${expression}"`);
  }
  const raw = rest.slice(dot + 1);
  const op = operator as Operator;
  if (op === 'in') return { kind: 'filter', column, negated, operator: op, value: parseList(raw) };
  if (op === 'is') {
    const lowered = raw.toLowerCase();
    if (!(isValues as readonly string[]).includes(lowered)) {
      throw new GrammarError(
        'filter',
        expression,
        'is expects null, not_null, true, false or unknown',
      );
    }
    return { kind: 'filter', column, negated, operator: op, value: lowered };
  }
  return { kind: 'filter', column, negated, operator: op, value: unquote(raw) };
}

/** `(1,2,"a,b")` -> ['1', '2', 'a,b'] */
function parseList(raw: string): string[] {
  if (!raw.startsWith('(') || !raw.endsWith(')')) {
    throw new GrammarError('filter', raw, 'in expects a list in parentheses: (a,b)');
  }
  const inner = raw.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner, 'filter').map((item) => unquote(item));
}

/** Double quotes protect commas, dots and parentheses; `\"` and `\\` escape inside them. */
function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

/** Deeper nesting than any real query needs would only cost the database its stack. */
const maxDepth = 16;

/** Splits at commas outside quotes and parentheses. */
function splitTopLevel(text: string, parameter: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      current += char;
      if (char === '\\' && i + 1 < text.length) current += text[++i];
      else if (char === '"') quoted = false;
      continue;
    }
    if (char === '"') quoted = true;
    else if (char === '(') {
      depth += 1;
      if (depth > maxDepth) throw new GrammarError(parameter, text, 'nested too deeply');
    } else if (char === ')') {
      depth -= 1;
      if (depth < 0) throw new GrammarError(parameter, text, 'unexpected ")"');
    } else if (char === ',' && depth === 0) {
      items.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  if (quoted) throw new GrammarError(parameter, text, 'unterminated quote');
  if (depth !== 0) throw new GrammarError(parameter, text, 'expecting ")"');
  items.push(current);
  return items;
}

/** The value of `or=` / `and=`: `(a.eq.1,b.gt.2,and(c.is.null,d.neq.x))`. */
export function parseLogicBody(parameter: string, value: string): Condition[] {
  if (!value.startsWith('(') || !value.endsWith(')')) {
    throw new GrammarError(parameter, value, 'expecting a list in parentheses: (a.eq.1,b.eq.2)');
  }
  const inner = value.slice(1, -1);
  splitTopLevel(value, parameter); // checks the balance of the whole
  if (inner.trim() === '')
    throw new GrammarError(parameter, value, 'expecting at least one condition');
  return splitTopLevel(inner, parameter).map((item) => parseLogicItem(parameter, item));
}

function parseLogicItem(parameter: string, item: string): Condition {
  let rest = item;
  let negated = false;
  if (rest.startsWith('not.')) {
    negated = true;
    rest = rest.slice(4);
  }
  const group = /^(and|or)\(/.exec(rest);
  if (group) {
    return {
      kind: 'logic',
      operator: group[1] as 'and' | 'or',
      negated,
      conditions: parseLogicBody(parameter, rest.slice(group[1]!.length)),
    };
  }
  const dot = item.indexOf('.');
  if (dot <= 0 || /[()]/.test(item.slice(0, dot)))
    throw new GrammarError(parameter, item, `expecting "column.operator.value" in "${item}"`);
  try {
    return parseFilter(item.slice(0, dot), item.slice(dot + 1));
  } catch (error) {
    if (error instanceof GrammarError) throw new GrammarError(parameter, item, error.details);
    throw error;
  }
}

/** `a.asc,b.desc.nullsfirst` */
export function parseOrder(value: string): OrderTerm[] {
  return splitTopLevel(value, 'order').map((term) => {
    const [column, ...modifiers] = term.split('.');
    if (!column || /[()]/.test(column))
      throw new GrammarError('order', value, 'expecting a column name');
    const parsed: OrderTerm = { column };
    for (const modifier of modifiers) {
      if ((modifier === 'asc' || modifier === 'desc') && !parsed.direction)
        parsed.direction = modifier;
      else if ((modifier === 'nullsfirst' || modifier === 'nullslast') && !parsed.nulls) {
        parsed.nulls = modifier === 'nullsfirst' ? 'first' : 'last';
      } else throw new GrammarError('order', value, `unexpected "${modifier}" in "${term}"`);
    }
    return parsed;
  });
}

/** `"a","b"` or `a,b` */
function parseColumnList(parameter: string, value: string): string[] {
  const names = splitTopLevel(value.replace(/\s+/g, ''), parameter).map(unquote);
  if (names.some((name) => name === ''))
    throw new GrammarError(parameter, value, 'empty column name');
  return names;
}

/** The select list: `id,first_name,alias:responses!hint!inner(id,forms(title)),total:amount::text`. */
export function parseSelect(value: string): SelectItem[] {
  const compact = stripWhitespace(value);
  if (compact === '') return [{ kind: 'star' }];
  return parseSelectList(compact, value);
}

function stripWhitespace(value: string): string {
  let out = '';
  let quoted = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    if (!quoted && /\s/.test(char)) continue;
    out += char;
  }
  return out;
}

function parseSelectList(text: string, original: string): SelectItem[] {
  return splitTopLevel(text, 'select').map((item) => parseSelectItem(item, original));
}

const namePattern = /^(?:"(?:[^"\\]|\\.)+"|[^\s"():!,.]+)$/;

function parseName(text: string, original: string): string {
  if (!namePattern.test(text)) {
    throw new GrammarError('select', original, `unexpected "${text}" where a name was expected`);
  }
  return unquote(text);
}

function parseSelectItem(item: string, original: string): SelectItem {
  if (item === '') throw new GrammarError('select', original, 'empty item in the select list');
  if (item === '*') return { kind: 'star' };
  const open = item.indexOf('(');
  if (open >= 0) {
    if (!item.endsWith(')'))
      throw new GrammarError('select', original, `expecting ")" after "${item}"`);
    const head = item.slice(0, open);
    const body = item.slice(open + 1, -1);
    const { alias, rest } = splitAlias(head, original);
    const [relation, ...hints] = rest.split('!');
    const embed: EmbedItem = {
      kind: 'embed',
      relation: parseName(relation ?? '', original),
      inner: false,
      select: body === '' ? [] : parseSelectList(body, original),
    };
    if (alias !== undefined) embed.alias = alias;
    for (const hint of hints) {
      if (hint === 'inner') embed.inner = true;
      else if (hint === 'left') embed.inner = false;
      else if (embed.hint === undefined) embed.hint = parseName(hint, original);
      else throw new GrammarError('select', original, `unexpected "!${hint}"`);
    }
    return embed;
  }
  const { alias, rest } = splitAlias(item, original);
  const castAt = rest.indexOf('::');
  const name = parseName(castAt < 0 ? rest : rest.slice(0, castAt), original);
  const column: ColumnItem = { kind: 'column', name };
  if (alias !== undefined) column.alias = alias;
  if (castAt >= 0) column.cast = parseName(rest.slice(castAt + 2), original).toLowerCase();
  return column;
}

/** `alias:rest`, where the colon is not the first of a `::` cast. */
function splitAlias(text: string, original: string): { alias?: string; rest: string } {
  const match = /^((?:"(?:[^"\\]|\\.)+"|[^:"]+)):(?!:)(.*)$/.exec(text);
  if (!match) return { rest: text };
  return { alias: parseName(match[1]!, original), rest: match[2]! };
}
