import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { apiRequestOf, type HttpRequest, type Target } from './api-request.ts';
import { PostgrestError } from './errors.ts';

const secret = 'api-request-test-secret-long-enough-for-hs256';
const context = { prefix: '/rest/v1', jwtSecret: secret };
const users: Target = { kind: 'relation', name: 'users' };

const sign = (claims: Record<string, unknown>, key = secret) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(key));

const http = (request: Partial<HttpRequest>): HttpRequest => ({
  method: 'GET',
  url: '/rest/v1/users',
  headers: {},
  body: undefined,
  ...request,
});

async function refusal(request: HttpRequest, target = users): Promise<PostgrestError> {
  const error = await apiRequestOf(request, target, context).catch((caught: unknown) => caught);
  if (!(error instanceof PostgrestError)) throw new Error('expected a PostgREST refusal');
  return error;
}

describe('reading a request once', () => {
  it('reads path, grammar, Prefer, Range, Accept and the body into one value', async () => {
    const api = await apiRequestOf(
      http({
        method: 'POST',
        url: '/rest/v1/users?select=id,email&id=eq.1&on_conflict=email',
        headers: {
          prefer: ['return=representation', 'count=exact,resolution=merge-duplicates'],
          range: '10-19',
          accept: 'application/vnd.pgrst.object+json;nulls=stripped',
          'x-client-info': 'supabase-js',
        },
        body: [{ email: 'a@example.org' }],
      }),
      users,
      context,
    );
    expect(api).toMatchObject({
      method: 'POST',
      path: '/users',
      target: users,
      action: 'upsert',
      search: 'select=id,email&id=eq.1&on_conflict=email',
      preferences: {
        representation: true,
        minimal: false,
        count: 'exact',
        resolution: 'merge',
        missingDefault: false,
      },
      range: { from: 10, to: 19 },
      accept: { types: ['application/vnd.pgrst.object+json'], stripNulls: true },
      body: [{ email: 'a@example.org' }],
      claims: { role: 'anon' },
      headers: { range: '10-19', 'x-client-info': 'supabase-js' },
    });
    expect(api.query?.onConflict).toEqual(['email']);
    expect(api.query?.select).toHaveLength(2);
    expect(api.query?.resources.get('')?.conditions).toHaveLength(1);
  });

  it('names the action by method and target', async () => {
    const action = async (method: string, target: Target = users) =>
      (await apiRequestOf(http({ method }), target, context)).action;
    expect(await action('GET')).toBe('read');
    expect(await action('HEAD')).toBe('read');
    expect(await action('POST')).toBe('insert');
    expect(await action('PATCH')).toBe('update');
    expect(await action('DELETE')).toBe('delete');
    expect(await action('GET', { kind: 'routine', name: 'f' })).toBe('call');
  });

  it('leaves a function’s query string to the plan, which knows its arguments', async () => {
    const api = await apiRequestOf(
      http({ url: '/rest/v1/rpc/f?name=anything' }),
      { kind: 'routine', name: 'f' },
      context,
    );
    expect(api.query).toBeUndefined();
    expect(api.search).toBe('name=anything');
  });

  it('takes the token’s claims, and refuses a bad token with a challenge', async () => {
    const token = await sign({ role: 'authenticated', sub: 'u1' });
    const api = await apiRequestOf(
      http({ headers: { authorization: `Bearer ${token}` } }),
      users,
      context,
    );
    expect(api.claims).toMatchObject({ role: 'authenticated', sub: 'u1' });

    const forged = await refusal(
      http({
        headers: { authorization: `Bearer ${await sign({ role: 'anon' }, 'x'.repeat(40))}` },
      }),
    );
    expect(forged.statusCode).toBe(401);
    expect(forged.body.code).toBe('PGRST301');
    expect(forged.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    const stranger = await refusal(
      http({ headers: { authorization: `Bearer ${await sign({ role: 'postgres' })}` } }),
    );
    expect(stranger.body).toMatchObject({
      code: '22023',
      message: 'role "postgres" does not exist',
    });
  });

  it('refuses, in PostgREST’s order, a bad token, another schema, then a broken query', async () => {
    const bad = { authorization: 'Bearer nonsense', 'accept-profile': 'auth' };
    expect((await refusal(http({ url: '/rest/v1/users?select=(', headers: bad }))).statusCode).toBe(
      401,
    );
    const schema = await refusal(
      http({ url: '/rest/v1/users?select=(', headers: { 'content-profile': 'auth' } }),
    );
    expect(schema.body).toMatchObject({ code: 'PGRST106', message: 'Invalid schema: auth' });
    const grammar = await refusal(http({ url: '/rest/v1/users?id=eq' }));
    expect(grammar.statusCode).toBe(400);
    expect(grammar.body.code).toBe('PGRST100');
  });

  it('ignores a Range it cannot read, and an empty Accept', async () => {
    const api = await apiRequestOf(
      http({ headers: { range: 'items=0-9', accept: ' ' } }),
      users,
      context,
    );
    expect(api.range).toBeUndefined();
    expect(api.accept).toBeUndefined();
    const open = await apiRequestOf(http({ headers: { range: '5-' } }), users, context);
    expect(open.range).toEqual({ from: 5 });
  });
});
