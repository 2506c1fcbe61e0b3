import { describe, expect, it } from 'vitest';
import type { Action, ApiRequest, CountKind } from './api-request.ts';
import { PostgrestError } from './errors.ts';
import { planMutation, planRead } from './plan.ts';
import { parseQuery, type ParsedQuery } from './query-grammar.ts';
import type { Column, Relation, RoutineInfo, SchemaCache } from './schema-cache.ts';
import { callStatement, mutateStatements, readStatements } from './sql-builder.ts';
import { fakeTable } from './test-catalog.ts';

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

const users = fakeTable('users', ['id', 'first_name', 'email']);
const responses = fakeTable('responses', ['id', 'user_id', 'form_id']);
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

  it('renders each part of a plan: counts, to-one embeddings, planned counts and functions', () => {
    const counted = buildRead(cache, responses, parseQuery('select=id,users(id)'), 'planned');
    expect(counted.read.sql).toContain('limit 1)');
    expect(counted.planned?.sql).toMatch(
      /^explain \(format json\) select 1 from public."responses"/,
    );
    const perUser = buildRead(cache, users, parseQuery('select=id,responses(count)'), 'exact');
    expect(perUser.read.sql).toContain('json_build_array(json_build_object(');
    expect(perUser.read.sql).toContain('as total');
    expect(perUser.read.params).toContain('count');

    const leads: RoutineInfo = {
      name: 'leads',
      arguments: [{ name: 'since', type: 'date', hasDefault: false }],
      returnsSet: true,
      returns: 'composite',
      volatile: false,
    };
    const source = { routine: leads, args: { since: hostile } };
    const rows = readStatements(
      planRead(cache, responses, parseQuery(''), api('read'), false, source),
    );
    expect(rows.read.sql).toMatch(
      /^with pgrst_source as \(select f\.\* from json_to_record\(\$1::text::json\) as a\("since" date\) cross join lateral public\."leads"\("since" => a\."since"\) as f\) /,
    );
    expect(rows.read.params[0]).toBe(JSON.stringify({ since: hostile }));
    const plan = { kind: 'call', args: {}, single: false, readOnly: false } as const;
    const touch = { ...leads, name: 'touch', arguments: [], returnsSet: false };
    expect(callStatement({ ...plan, routine: { ...touch, returns: 'void' } }).sql).toBe(
      'select public."touch"()',
    );
    expect(callStatement({ ...plan, routine: { ...touch, returns: 'scalar' } }).sql).toBe(
      'select to_json(public."touch"())::text as body, 1 as n',
    );
  });
});
