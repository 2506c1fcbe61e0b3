import { describe, expect, it } from 'vitest';
import { apiRequestOf, type HttpRequest, type Target } from './api-request.ts';
import { PostgrestError } from './errors.ts';
import { planOf, type Catalog, type Plan } from './plan.ts';
import { maxEmbedDepth, maxRows } from './read-tree.ts';
import type { RoutineInfo, SchemaCache } from './schema-cache.ts';
import { fakeTable, fakeForeignKey } from './test-catalog.ts';

const users = fakeTable('users', ['id', 'email', 'manager_id']);
const responses = fakeTable('responses', ['id', 'user_id', 'note']);
const answers = fakeTable('answers', ['id', 'response_id', 'value']);
const leads: RoutineInfo = {
  name: 'leads',
  arguments: [{ name: 'since', type: 'date', hasDefault: false }],
  returnsSet: true,
  returns: 'composite',
  volatile: false,
};
const touch: RoutineInfo = {
  name: 'touch',
  arguments: [],
  returnsSet: false,
  returns: 'void',
  volatile: true,
};
const cache: SchemaCache = {
  relations: new Map([users, responses, answers].map((r) => [r.name, r])),
  foreignKeys: [
    fakeForeignKey('responses', 'user_id', 'users'),
    fakeForeignKey('answers', 'response_id', 'responses'),
    fakeForeignKey('users', 'manager_id', 'users'),
  ],
  functions: new Map([
    ['leads', [leads]],
    ['touch', [touch]],
  ]),
};

/** The schema cache above; `leads` returns rows shaped like `responses`. */
const catalog = (): Catalog & { refreshes: number } => {
  const fake = {
    refreshes: 0,
    get: () => Promise.resolve(cache),
    refresh: () => {
      fake.refreshes += 1;
      return Promise.resolve(cache);
    },
    resultOf: (_cache: SchemaCache, routine: RoutineInfo) =>
      Promise.resolve(routine === leads ? responses : undefined),
  };
  return fake;
};

async function plan(
  url: string,
  request: Partial<HttpRequest> = {},
  fake: Catalog = catalog(),
): Promise<Plan> {
  const [path] = url.split('?');
  const [, first, second] = path!.split('/');
  const target: Target =
    first === 'rpc' ? { kind: 'routine', name: second! } : { kind: 'relation', name: first! };
  const api = await apiRequestOf(
    { method: 'GET', url: `/rest/v1${url}`, headers: {}, body: undefined, ...request },
    target,
    { prefix: '/rest/v1', jwtSecret: 'plan-test-secret-long-enough-for-hs256' },
  );
  return planOf(api, fake);
}

async function refusal(...args: Parameters<typeof plan>) {
  const error = await plan(...args).catch((caught: unknown) => caught);
  if (!(error instanceof PostgrestError)) throw new Error('expected a PostgREST refusal');
  return { status: error.statusCode, ...error.body };
}

describe('planning a read', () => {
  it('resolves the select tree: columns, casts, embeddings and each level’s query', async () => {
    const read = await plan(
      '/users?select=id,mail:email::text,responses!inner(note,answers(count))&responses.note=eq.x&responses.order=id.desc&responses.limit=2&order=email&offset=5',
    );
    if (read.kind !== 'read') throw new Error('a read plan');
    const { tree } = read;
    expect(tree.relation).toBe(users);
    expect(tree.fields.map((field) => field.key)).toEqual(['id', 'mail', 'responses']);
    expect(tree.fields[1]).toMatchObject({ column: { name: 'email' }, cast: 'text' });
    expect(tree.order).toEqual([{ column: users.columns[1] }]);
    expect(tree).toMatchObject({ offset: 5, limit: maxRows });
    const embed = tree.fields[2]!;
    if (embed.kind !== 'embed') throw new Error('an embedding');
    expect(embed.relationship).toMatchObject({ target: responses, toOne: false });
    expect(embed.node).toMatchObject({ path: 'responses', limit: 2 });
    expect(embed.node.conditions).toMatchObject([
      { kind: 'filter', column: { name: 'note' }, operator: 'eq', value: 'x' },
    ]);
    expect(embed.node.order).toMatchObject([{ column: { name: 'id' }, direction: 'desc' }]);
    expect(embed.node.fields[1]).toMatchObject({ key: 'answers', countOnly: true });
    expect(tree.inner).toEqual([{ relationship: embed.relationship, node: embed.node }]);
    expect(read).toMatchObject({ offset: 5, single: false, readOnly: true });
  });

  it('caps the rows at max rows and pages by the Range header where the query does not', async () => {
    const capped = await plan('/users?limit=5000');
    expect(capped).toMatchObject({ kind: 'read', limit: 5000, tree: { limit: maxRows } });
    const ranged = await plan('/users', { headers: { range: '10-19' } });
    expect(ranged).toMatchObject({ offset: 10, limit: 10, tree: { offset: 10, limit: 10 } });
    const asked = await plan('/users?limit=3', { headers: { range: '10-19' } });
    expect(asked).toMatchObject({ offset: 0, limit: 3 });
  });

  it('refuses with PostgREST’s errors what the catalog does not have', async () => {
    expect(await refusal('/nobody')).toMatchObject({ status: 404, code: 'PGRST205' });
    expect(await refusal('/users?select=nickname')).toMatchObject({
      status: 400,
      code: '42703',
      message: 'column users.nickname does not exist',
    });
    expect(await refusal('/users?select=id::money')).toMatchObject({ code: '42704' });
    expect(await refusal('/users?select=id,forms(id)')).toMatchObject({ code: 'PGRST200' });
    expect(await refusal('/users?answers.id=eq.1')).toMatchObject({ code: 'PGRST108' });
    const levels = ['responses', 'users', 'responses', 'users', 'responses'];
    expect(levels.length).toBeGreaterThan(maxEmbedDepth);
    const deep = `/users?select=${levels.join('(')}(id${')'.repeat(levels.length)}`;
    expect(await refusal(deep)).toMatchObject({
      status: 400,
      code: 'PGRST100',
      message: `Embedded resources are nested more than ${maxEmbedDepth} levels deep`,
    });
    expect(await refusal('/users', { headers: { accept: 'text/csv' } })).toMatchObject({
      status: 406,
      code: 'PGRST107',
    });
  });

  it('rereads the catalog once for a name it does not know', async () => {
    const fake = catalog();
    await refusal('/nobody', {}, fake);
    expect(fake.refreshes).toBe(1);
  });

  it('answers one object where Accept asks for it', async () => {
    const read = await plan('/users?id=eq.1', {
      headers: { accept: 'application/vnd.pgrst.object+json' },
    });
    expect(read).toMatchObject({ kind: 'read', single: true });
  });
});

describe('planning a write', () => {
  it('checks the body’s columns and plans an upsert on the conflict columns', async () => {
    const write = await plan('/users?on_conflict=email&select=id', {
      method: 'POST',
      headers: { prefer: 'return=representation,resolution=merge-duplicates' },
      body: [{ email: 'a@example.org' }, { email: 'b@example.org' }],
    });
    expect(write).toMatchObject({
      kind: 'mutate',
      created: true,
      representation: true,
      writes: [
        {
          kind: 'insert',
          rows: [{ email: 'a@example.org' }, { email: 'b@example.org' }],
          columns: [{ name: 'email' }],
          conflict: { action: 'merge', columns: [{ name: 'email' }] },
        },
      ],
      returning: { fields: [{ key: 'id' }] },
    });
  });

  it('groups rows by their keys with missing=default', async () => {
    const write = await plan('/users?columns=id,email', {
      method: 'POST',
      headers: { prefer: 'missing=default' },
      body: [{ id: 1, email: 'a' }, { id: 2 }, { id: 3, email: 'c' }],
    });
    if (write.kind !== 'mutate') throw new Error('a mutate plan');
    expect(write.writes.map((w) => (w.kind === 'insert' ? w.rows.length : 0))).toEqual([2, 1]);
    expect(write.returning).toBeUndefined();
  });

  it('refuses bodies and filters PostgREST refuses', async () => {
    const post = { method: 'POST' };
    expect(await refusal('/users', { ...post, body: [{ nickname: 'x' }] })).toMatchObject({
      code: 'PGRST204',
    });
    expect(await refusal('/users', { ...post, body: [{ id: 1 }, { email: 'x' }] })).toMatchObject({
      code: 'PGRST102',
      message: 'All object keys must match',
    });
    expect(await refusal('/users', { ...post, body: ['x'] })).toMatchObject({ code: 'PGRST102' });
    expect(await refusal('/users', { method: 'DELETE' })).toMatchObject({
      code: '21000',
      message: 'DELETE requires a WHERE clause',
    });
    expect(await refusal('/users', { method: 'PATCH', body: { email: 'x' } })).toMatchObject({
      code: '21000',
    });
  });

  it('plans nothing for an empty PATCH or insert, and filters for a delete', async () => {
    expect(await plan('/users', { method: 'PATCH', body: {} })).toMatchObject({ writes: [] });
    expect(await plan('/users', { method: 'POST', body: [] })).toMatchObject({ writes: [] });
    const remove = await plan('/users?id=in.(1,2)', { method: 'DELETE' });
    expect(remove).toMatchObject({
      created: false,
      writes: [{ kind: 'delete', where: [{ column: { name: 'id' }, value: ['1', '2'] }] }],
    });
  });
});

describe('planning a call', () => {
  it('reads a function’s rows like a table’s, its arguments from the query string', async () => {
    const call = await plan('/rpc/leads?since=2026-01-01&select=note&note=eq.x');
    expect(call).toMatchObject({
      kind: 'read',
      source: { routine: leads, args: { since: '2026-01-01' } },
      tree: { relation: responses, fields: [{ key: 'note' }], conditions: [{ value: 'x' }] },
      readOnly: true,
    });
  });

  it('calls a function without a row shape as such, in a writing transaction on POST', async () => {
    const call = await plan('/rpc/touch', { method: 'POST' });
    expect(call).toMatchObject({ kind: 'call', routine: touch, args: {}, readOnly: false });
  });

  it('refuses an argument the function lacks, and a body that is no object', async () => {
    expect(await refusal('/rpc/leads?since=2026-01-01&extra=1')).toMatchObject({
      status: 404,
      code: 'PGRST202',
    });
    expect(await refusal('/rpc/touch', { method: 'POST', body: [1] })).toMatchObject({
      code: 'PGRST102',
    });
  });
});
