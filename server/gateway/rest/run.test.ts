import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.ts';
import { setupDatabase } from '../../db/setup.ts';
import { apiRequestOf, type ApiRequest, type HttpRequest } from './api-request.ts';
import { PostgrestError } from './errors.ts';
import { planOf } from './plan.ts';
import { resultRelation } from './routines.ts';
import { runQuery } from './run.ts';
import { loadSchemaCache, type SchemaCache } from './schema-cache.ts';
import { queryOf } from './sql-builder.ts';
import type { Columns } from '../../db/table-rows.ts';

let db: Database;
let cache: SchemaCache;
beforeAll(async () => {
  db = await openDatabase({});
  await setupDatabase(db, {
    gateway: true,
    admin: { email: 'a@example.de', password: 'x'.repeat(12) },
  });
  cache = await loadSchemaCache(db);
});
afterAll(() => db.close());

/** Parses, plans and builds `request` to `/rest/v1/forms`, then runs it as `role`. */
async function run(role: ApiRequest['claims']['role'], request: Partial<HttpRequest>) {
  const url = request.url ?? '/rest/v1/forms';
  const name = url.split('?')[0]!.split('/').pop()!;
  const parsed = await apiRequestOf(
    { method: 'GET', headers: {}, body: undefined, ...request, url },
    { kind: 'relation', name },
    { prefix: '/rest/v1', jwtSecret: 'run-test-secret-long-enough-for-hs256' },
  );
  const api = { ...parsed, claims: { role } };
  const plan = await planOf(api, {
    get: () => Promise.resolve(cache),
    refresh: () => Promise.resolve(cache),
    resultOf: (current, routine) => resultRelation(db, current, routine),
  });
  return runQuery(db, api, plan, queryOf(plan));
}

const titles = async () =>
  (
    await db.query<Columns<'forms', 'title'>>('select title from public.forms order by id')
  ).rows.map((row) => row.title);

describe('running a plan as the caller’s role', () => {
  it('reads the rows the role may read, with the exact count asked', async () => {
    const outcome = await run('anon', {
      url: '/rest/v1/forms?select=id,title&order=id',
      headers: { prefer: 'count=exact' },
    });
    expect(outcome.kind).toBe('read');
    if (outcome.kind !== 'read') return;
    const rows = JSON.parse(outcome.body) as Array<{ id: number; title: string }>;
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(outcome).toMatchObject({ n: rows.length, total: rows.length });
    expect(rows.map((row) => row.title)).toEqual(await titles());
  });

  it('turns the database’s refusal into PostgREST’s: anon may not read users', async () => {
    const refusal = await run('anon', { url: '/rest/v1/users?select=id' }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(PostgrestError);
    expect(refusal).toMatchObject({ statusCode: 401, body: { code: '42501' } });
  });

  it('undoes a write that touched other than the one row asked for', async () => {
    const before = await titles();
    const refusal = await run('service_role', {
      method: 'PATCH',
      url: '/rest/v1/forms?id=in.(1,2)',
      headers: {
        prefer: 'return=representation',
        accept: 'application/vnd.pgrst.object+json',
      },
      body: { description: 'changed' },
    }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ statusCode: 406, body: { code: 'PGRST116' } });
    const after = await db.query<{ n: number }>(
      "select count(*)::int as n from public.forms where description = 'changed'",
    );
    expect(after.rows[0]!.n).toBe(0);
    expect(await titles()).toEqual(before);

    const one = await run('service_role', {
      method: 'PATCH',
      url: '/rest/v1/forms?id=eq.1',
      headers: { prefer: 'return=representation' },
      body: { description: 'changed' },
    });
    expect(one).toMatchObject({
      kind: 'mutate',
      n: 1,
      bodies: [{ id: 1, description: 'changed' }],
    });
  });
});
