import { describe, expect, it } from 'vitest';
import { PostgrestError } from './errors.ts';
import { parseQuery } from './query-grammar.ts';
import type { Relation, SchemaCache } from './schema-cache.ts';
import { buildDelete, buildInsert, buildRead, buildUpdate } from './sql-builder.ts';

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
