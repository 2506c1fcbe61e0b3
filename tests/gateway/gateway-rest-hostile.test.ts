import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';

// Malformed and hostile requests to /rest/v1: each is refused with a 4xx in PostgREST's shape,
// never a 500, and nothing in the database changes.

let server: GatewayServer;
let url: string;
let anonKey: string;
let staffToken: string;

const sign = (
  claims: Record<string, unknown>,
  secret = testSecret,
  expires: string | number = '1h',
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(new TextEncoder().encode(secret));

beforeAll(async () => {
  server = await startGatewayServer('pglite');
  url = server.url;
  anonKey = (await apiKeys(testSecret)).anonKey;
  const user = await server.db.query<{ id: string }>(
    "insert into auth.users (email, encrypted_password) values ('desk@example.de', 'x') returning id::text",
  );
  const id = user.rows[0]!.id;
  await server.db.query("update public.staff set role = 'staff' where user_id = $1", [id]);
  staffToken = await sign({ role: 'authenticated', sub: id });
  await server.db.exec(`
    insert into public.users (first_name, last_name, email) values ('Anna', 'Müller', 'anna@example.de');
  `);
});
afterAll(() => server?.close());

const tables = ['forms', 'questions', 'users', 'responses', 'answers', 'staff'];
async function counts(): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of tables) {
    const rows = await server.db.query<{ n: number }>(
      `select count(*)::int as n from public.${table}`,
    );
    result[table] = rows.rows[0]!.n;
  }
  const auth = await server.db.query<{ n: number }>('select count(*)::int as n from auth.users');
  result['auth.users'] = auth.rows[0]!.n;
  const titles = await server.db.query<{ t: string }>(
    "select string_agg(title, ',' order by id) as t from public.forms",
  );
  result[`titles:${titles.rows[0]!.t}`] = 1;
  return result;
}

interface Case {
  method?: string;
  path: string;
  body?: string;
  type?: string;
  headers?: Record<string, string>;
  /** 'staff' (default), 'anon' or a token of its own. */
  as?: 'staff' | 'anon' | (() => Promise<string>);
  status?: number;
  code?: string;
}

const q = (table: string, params: Record<string, string>) =>
  `${table}?${new URLSearchParams(params).toString()}`;
const noneToken = () => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return Promise.resolve(`${part({ alg: 'none' })}.${part({ role: 'service_role' })}.`);
};

const cases: Case[] = [
  // SQL in identifiers and select lists
  { path: q('users', { select: 'id;drop table users' }), code: '42703' },
  { path: q('users', { select: 'id,first_name)--' }), code: 'PGRST100' },
  { path: q('users', { select: '*,responses(id;delete from answers)' }), code: '42703' },
  { path: q('users', { select: '"id""; drop table users; --"' }), code: 'PGRST100' },
  { path: q('users', { select: 'id::text;drop' }), code: '42704' },
  { path: q('users', { select: 'id::regclass' }), code: '42704' },
  { path: q('users', { select: 'pg_sleep(10)' }), code: 'PGRST200' },
  { path: q('users', { select: 'id,(select 1)' }), code: 'PGRST100' },
  { path: q('users', { select: 'id,pg_user(*)' }), code: 'PGRST200' },
  { path: q('users', { select: 'id,responses!users_pkey(id)' }), code: 'PGRST200' },
  { path: q('users', { select: 'id,responses(nonexistent)' }), code: '42703' },
  {
    path: q('users', { select: 'id,responses(answers(x:questions(question;drop)))' }),
    code: '42703',
  },
  { path: q('users', { select: 'id,responses(' }), code: 'PGRST100' },
  { path: q('users', { select: 'id,,first_name' }), code: 'PGRST100' },
  { path: q('users', { select: 'a:b:c' }), code: 'PGRST100' },
  {
    path: q('users', { select: `${'responses('.repeat(30)}id${')'.repeat(30)}` }),
    code: 'PGRST100',
  },
  { path: q('users', { select: 'id::' }), code: 'PGRST100' },
  // SQL in filter values and operators
  { path: q('users', { id: 'eq.1;drop table users' }), code: '22P02' },
  { path: q('users', { id: "eq.1' or '1'='1" }), code: '22P02' },
  { path: q('users', { id: 'in.(1,2);drop table users' }), code: 'PGRST100' },
  { path: q('users', { id: 'in.(1,"2);drop")' }), code: '22P02' },
  { path: q('users', { id: 'between.1.2' }), code: 'PGRST100' },
  { path: q('users', { id: 'eq' }), code: 'PGRST100' },
  { path: q('users', { id: 'is.nul' }), code: 'PGRST100' },
  { path: q('users', { id: 'is.null;drop' }), code: 'PGRST100' },
  { path: q('users', { created_at: 'gt.gestern' }), code: '22007' },
  { path: q('users', { 'id;drop table users': 'eq.1' }), code: '42703' },
  { path: q('users', { '"id"': 'eq.1' }), code: '42703' },
  { path: q('users', { 'pg_catalog.pg_authid.rolpassword': 'eq.1' }), code: 'PGRST108' },
  { path: q('users', { 'responses.id': 'eq.1' }), code: 'PGRST108' },
  { path: q('users', { id: 'eq.99999999999999999999' }), code: '22003' },
  // logic trees
  { path: q('users', { or: '(id.eq.1,id.eq.2' }), code: 'PGRST100' },
  { path: q('users', { or: '(id.eq.1)))' }), code: 'PGRST100' },
  { path: q('users', { or: 'id.eq.1' }), code: 'PGRST100' },
  { path: q('users', { or: '()' }), code: 'PGRST100' },
  { path: q('users', { or: '(pg_sleep.eq.1)' }), code: '42703' },
  { path: q('users', { or: '(id.sleep.1)' }), code: 'PGRST100' },
  { path: q('users', { or: '(id.eq.1,and(first_name.eq.x)' }), code: 'PGRST100' },
  { path: q('users', { or: '(id.eq.1,xor(id.eq.2))' }), code: 'PGRST100' },
  {
    path: q('users', { or: `(${'and('.repeat(200)}id.eq.1${')'.repeat(200)})` }),
    code: 'PGRST100',
  },
  { path: q('users', { or: '(id.eq.1;drop table users)' }), code: '22P02' },
  { path: q('users', { 'not.or': '(id.eq.x)' }), code: '22P02' },
  // order, limit, offset
  { path: q('users', { order: 'id;drop table users' }), code: '42703' },
  { path: q('users', { order: 'id.asc,(select 1)' }), code: 'PGRST100' },
  { path: q('users', { order: 'nonexistent.desc' }), code: '42703' },
  { path: q('users', { order: 'id.sideways' }), code: 'PGRST100' },
  { path: q('users', { limit: '-1' }), code: 'PGRST100' },
  { path: q('users', { limit: '1e9' }), code: 'PGRST100' },
  { path: q('users', { limit: '99999999999999999999' }), code: 'PGRST100' },
  { path: q('users', { limit: '1;drop table users' }), code: 'PGRST100' },
  { path: q('users', { offset: 'abc' }), code: 'PGRST100' },
  { path: q('users', { 'responses.limit': 'x', select: 'id,responses(id)' }), code: 'PGRST100' },
  // names of tables that are not ours to expose
  { path: 'pg_user', status: 404, code: 'PGRST205' },
  { path: 'pg_catalog.pg_authid', status: 404, code: 'PGRST205' },
  { path: 'auth.users', status: 404, code: 'PGRST205' },
  { path: '..%2Fauth%2Fusers', status: 404 },
  { path: 'users%22%3B%20drop%20table%20users%3B--', status: 404, code: 'PGRST205' },
  { path: 'rpc/pg_sleep', method: 'POST', body: '{"seconds":10}', status: 404, code: 'PGRST202' },
  { path: 'rpc/handle_new_auth_user', method: 'POST', body: '{}', status: 404, code: 'PGRST202' },
  { path: 'rpc/staff_role?x=1', status: 404, code: 'PGRST202' },
  { path: 'rpc/is_staff', method: 'POST', body: '[1]', code: 'PGRST102' },
  // schemas and tokens
  { path: 'users', headers: { 'accept-profile': 'auth' }, status: 406, code: 'PGRST106' },
  {
    path: 'forms',
    method: 'POST',
    body: '{"title":"Neu"}',
    headers: { 'content-profile': 'pg_catalog' },
    status: 406,
    code: 'PGRST106',
  },
  { path: 'users', as: () => Promise.resolve('garbage'), status: 401, code: 'PGRST301' },
  { path: 'users', as: noneToken, status: 401, code: 'PGRST301' },
  {
    path: 'users',
    as: () => sign({ role: 'service_role' }, 'y'.repeat(48)),
    status: 401,
    code: 'PGRST301',
  },
  {
    path: 'users',
    as: () => sign({ role: 'service_role' }, testSecret, Math.floor(Date.now() / 1000) - 300),
    status: 401,
    code: 'PGRST303',
  },
  { path: 'users', as: () => sign({ role: 'hub_service' }), status: 401 },
  { path: 'users', as: () => sign({ role: 'postgres' }), status: 401 },
  { path: 'users', as: () => sign({ role: 'authenticated; drop table users' }), status: 401 },
  { path: 'users', as: 'anon', status: 401, code: '42501' },
  {
    path: 'answers',
    as: 'anon',
    method: 'POST',
    body: '{"answer":"x"}',
    status: 401,
    code: '42501',
  },
  { path: 'staff', method: 'DELETE', code: '21000' },
  // bodies
  { path: 'forms', method: 'POST', body: '{"title": ', code: 'PGRST102' },
  { path: 'forms', method: 'POST', body: 'null', code: 'PGRST102' },
  { path: 'forms', method: 'POST', body: '"Hausrat"', code: 'PGRST102' },
  { path: 'forms', method: 'POST', body: '[1,2]', code: 'PGRST102' },
  { path: 'forms', method: 'POST', body: '', code: 'PGRST102' },
  {
    path: 'forms',
    method: 'POST',
    body: '{"title":"Hausrat","id":"1; drop table forms"}',
    // An id is the database's alone: refused before its value is read.
    status: 403,
    code: '42501',
  },
  { path: 'forms', method: 'POST', body: '{"title; drop table forms --":"x"}', code: 'PGRST204' },
  {
    path: 'forms',
    method: 'POST',
    body: '{"title":"Hausrat","__proto__":{"x":1}}',
    code: 'PGRST102',
  },
  {
    path: 'forms',
    method: 'POST',
    body: 'title=Hausrat',
    type: 'text/plain',
    status: 415,
    code: 'PGRST107',
  },
  {
    path: 'forms',
    method: 'POST',
    body: 'title=Hausrat',
    type: 'application/x-www-form-urlencoded',
    status: 415,
    code: 'PGRST107',
  },
  {
    path: q('forms', { columns: 'title;drop' }),
    method: 'POST',
    body: '{"title":"Hausrat"}',
    code: 'PGRST204',
  },
  {
    path: q('forms', { on_conflict: 'title;drop' }),
    method: 'POST',
    body: '{"title":"Hausrat"}',
    headers: { prefer: 'resolution=merge-duplicates' },
    code: '42703',
  },
  {
    path: 'forms',
    method: 'POST',
    body: '[{"title":"Hausrat"},{"description":"b"}]',
    code: 'PGRST102',
  },
  {
    path: 'forms',
    method: 'POST',
    body: JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }),
    status: 413,
  },
  { path: 'forms', method: 'POST', body: '{"title":"x"}', code: '23514' },
  { path: 'forms', method: 'POST', body: '{"title":"Tabaluga"}', status: 409, code: '23505' },
  {
    path: 'questions',
    method: 'POST',
    body: '{"form_id":999,"question":"x","type":"input","sequence":1}',
    status: 409,
    code: '23503',
  },
  {
    path: 'questions',
    method: 'POST',
    body: '{"form_id":1,"question":"x","type":"input","sequence":1,"options":[1]}',
    code: '23514',
  },
  { path: 'forms', method: 'PATCH', body: '{"title":"Alle gleich"}', code: '21000' },
  { path: q('forms', { title: 'eq.Tabaluga' }), method: 'PATCH', body: '[]', code: 'PGRST102' },
  {
    path: q('forms', { id: 'eq.1' }),
    method: 'PATCH',
    body: '{"nonexistent":1}',
    code: 'PGRST204',
  },
  {
    path: q('forms', { id: 'eq.1' }),
    method: 'PATCH',
    body: '{"created_at":"kein Datum"}',
    // So is a stamp.
    status: 403,
    code: '42501',
  },
  { path: q('forms', { id: 'eq.1' }), method: 'PATCH', body: '{"title":null}', code: '23502' },
  { path: 'forms', method: 'DELETE', code: '21000' },
  { path: q('users', { select: 'id' }), method: 'DELETE', code: '21000' },
  { path: q('users', { or: '()' }), method: 'DELETE', code: 'PGRST100' },
  { path: q('users', { id: 'eq.1;truncate users' }), method: 'DELETE', code: '22P02' },
  { path: q('forms', { id: 'eq.1' }), method: 'DELETE', as: 'anon', status: 401, code: '42501' },
  { path: q('forms', { id: 'eq.1' }), method: 'PUT', body: '{"title":"x"}', status: 404 },
];

describe('hostile and malformed requests to /rest/v1', () => {
  it(`refuses all ${cases.length} with a 4xx in PostgREST's shape and changes nothing`, async () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    const before = await counts();
    const failures: string[] = [];
    for (const testCase of cases) {
      const token =
        testCase.as === 'anon'
          ? anonKey
          : typeof testCase.as === 'function'
            ? await testCase.as()
            : staffToken;
      const headers: Record<string, string> = {
        apikey: anonKey,
        authorization: `Bearer ${token}`,
        ...testCase.headers,
      };
      if (testCase.body !== undefined)
        headers['content-type'] = testCase.type ?? 'application/json';
      const method = testCase.method ?? 'GET';
      const response = await fetch(`${url}/rest/v1/${testCase.path}`, {
        method,
        headers,
        ...(testCase.body !== undefined ? { body: testCase.body } : {}),
      });
      const text = await response.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // judged below
      }
      const label = `${method} ${testCase.path.slice(0, 80)} -> ${response.status} ${text.slice(0, 160)}`;
      const shapeOk = ['code', 'details', 'hint', 'message'].every((key) => key in body);
      if (
        response.status < 400 ||
        response.status >= 500 ||
        !shapeOk ||
        (testCase.status !== undefined && response.status !== testCase.status) ||
        (testCase.status === undefined && response.status !== 400) ||
        (testCase.code !== undefined && body.code !== testCase.code)
      ) {
        failures.push(label);
      }
    }
    expect(failures).toEqual([]);
    expect(await counts()).toEqual(before);
  });
});
