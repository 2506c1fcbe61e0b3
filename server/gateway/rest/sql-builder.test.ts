import { describe, expect, it } from 'vitest';
import type { Action, ApiRequest, CountKind } from './api-request.ts';
import { PostgrestError } from './errors.ts';
import { planMutation, planRead } from './plan.ts';
import { parseQuery, type ParsedQuery } from './query-grammar.ts';
import type { Column, Relation, SchemaCache } from './schema-cache.ts';
import { mutateStatements, readStatements } from './sql-builder.ts';

/** A request of `action` on users, as the parse step reads it. */
const api = (
  action: Action,
  extra: { count?: CountKind; representation?: boolean; body?: unknown } = {},
): ApiRequest => ({
  method: ({ read: 'GET', insert: 'POST', update: 'PATCH', delete: 'DELETE' } as const)[
    action as 'read'
  ],
  path: '/users',
  target: { kind: 'relation', name: 'users' },
  action,
  search: '',
  preferences: {
    representation: extra.representation ?? false,
    minimal: false,
    missingDefault: false,
    ...(extra.count ? { count: extra.count } : {}),
  },
  body: extra.body,
  claims: { role: 'anon' },
  headers: {},
});

// The SQL of a request is built from its plan; these build both, as one step did before.
const buildRead = (
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  count: CountKind | undefined,
) => readStatements(planRead(cache, relation, query, api('read', count ? { count } : {}), false));
const mutation = (
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  request: ApiRequest,
) => mutateStatements(planMutation(cache, relation, query, request, false))[0]!;
const buildInsert = (
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  insert: { rows: Record<string, unknown>[]; columns: Column[] },
  options: { representation: boolean },
) => mutation(cache, relation, query, api('insert', { ...options, body: insert.rows }));
const buildUpdate = (
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  values: Record<string, unknown>,
  _columns: Column[],
  options: { representation: boolean },
) => mutation(cache, relation, query, api('update', { ...options, body: values }));
const buildDelete = (
  cache: SchemaCache,
  relation: Relation,
  query: ParsedQuery,
  options: { representation: boolean },
) => mutation(cache, relation, query, api('delete', options));

const relation = (name: string, columns: string[]): Relation => ({
  name,
  kind: 'table',
  columns: columns.map((column) => ({ name: column, type: column === 'id' ? 'integer' : 'text' })),
  primaryKey: ['id'],
  uniqueKeys: [['id']],
});
const users = relation('users', ['id', 'first_name', 'email']);
const responses = relation('responses', ['id', 'user_id', 'form_id']);
const cache: SchemaCache = {
  relations: new Map([
    ['users', users],
    ['responses', responses],
  ]),
  foreignKeys: [
    {
      name: 'responses_user_id_fkey',
      table: 'responses',
      columns: ['user_id'],
      referencedTable: 'users',
      referencedColumns: ['id'],
    },
  ],
  functions: new Map(),
};

const hostile = "x'); drop table users; --";

describe('the SQL of a request', () => {
  it('carries values and output names only as parameters', () => {
    const query = parseQuery(
      new URLSearchParams({
        select: `id,"${hostile}":first_name,r:responses!inner(id)`,
        first_name: `eq.${hostile}`,
        or: `(email.ilike."*${hostile}*",id.in.(1,2))`,
        'r.form_id': `neq.${hostile}`,
        order: 'email.desc.nullslast',
        limit: '10',
      }).toString(),
    );
    const { read } = buildRead(cache, users, query, 'exact');
    expect(read.sql).not.toContain('drop table');
    expect(read.params).toContain(hostile);
    expect(read.params).toContain(`%${hostile}%`);
    expect(read.sql).toContain('exists (select 1 from public."responses"');
    expect(read.sql).toContain('order by t0."email" desc nulls last');

    const insert = buildInsert(
      cache,
      users,
      parseQuery(''),
      { rows: [{ first_name: hostile }], columns: [users.columns[1]!] },
      { representation: true },
    );
    expect(insert.sql).not.toContain('drop table');
    const update = buildUpdate(
      cache,
      users,
      parseQuery(`id=eq.${encodeURIComponent(hostile)}`),
      { email: hostile },
      [users.columns[2]!],
      { representation: false },
    );
    expect(update.sql).not.toContain('drop table');
    expect(update.params.join()).toContain(hostile);
  });

  it('refuses names the catalog does not have, and writes without a filter', () => {
    const read = (search: string) => () => buildRead(cache, users, parseQuery(search), undefined);
    expect(read('select=id,"first name"')).toThrow(PostgrestError);
    expect(read('select=id,forms(id)')).toThrow(/Could not find a relationship/);
    expect(read('responses.id=eq.1')).toThrow(/not an embedded resource/);
    expect(read('order=nickname')).toThrow(/column users.nickname does not exist/);
    expect(() =>
      buildDelete(cache, users, parseQuery('select=id'), { representation: false }),
    ).toThrow(/DELETE requires a WHERE clause/);
  });
});
