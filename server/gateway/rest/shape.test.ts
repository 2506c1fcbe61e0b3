import { describe, expect, it } from 'vitest';
import type { ApiRequest } from './api-request.ts';
import type { CallPlan, MutatePlan, ReadPlan } from './plan.ts';
import type { Relation, RoutineInfo } from './schema-cache.ts';
import type { Outcome } from './run.ts';
import { responseOf } from './shape.ts';

const users: Relation = {
  name: 'users',
  kind: 'table',
  columns: [{ name: 'id', type: 'integer' }],
  primaryKey: ['id'],
  uniqueKeys: [['id']],
};

const api = (method: ApiRequest['method'], accept?: string): ApiRequest => ({
  method,
  path: '/users',
  target: { kind: 'relation', name: 'users' },
  action: 'read',
  search: '',
  preferences: { representation: false, minimal: false, missingDefault: false },
  ...(accept
    ? { accept: { raw: accept, types: [], stripNulls: accept.includes('stripped') } }
    : {}),
  body: undefined,
  claims: { role: 'anon' },
  headers: {},
});

const read = (extra: Partial<ReadPlan> = {}): ReadPlan => ({
  kind: 'read',
  tree: { relation: users, path: '', fields: [], inner: [], conditions: [], order: [] },
  offset: 0,
  single: false,
  readOnly: true,
  minimal: false,
  ...extra,
});

const mutate = (extra: Partial<MutatePlan> = {}): MutatePlan => ({
  kind: 'mutate',
  relation: users,
  writes: [],
  representation: false,
  single: false,
  created: true,
  ...extra,
});

const routine = (returns: RoutineInfo['returns'], returnsSet: boolean): CallPlan => ({
  kind: 'call',
  routine: { name: 'f', arguments: [], returns, returnsSet, volatile: false },
  args: {},
  single: false,
  readOnly: true,
});

const json = 'application/json; charset=utf-8';

describe('shaping the response', () => {
  it('answers a read with its Content-Range, 206 when the count shows more rows', () => {
    const body = '[{"id":1},{"id":2}]';
    expect(responseOf(api('GET'), read({ offset: 10 }), { kind: 'read', body, n: 2 })).toEqual({
      status: 200,
      headers: { 'content-range': '10-11/*' },
      contentType: json,
      body,
    });
    const counted = responseOf(api('GET'), read(), { kind: 'read', body, n: 2, total: 5 });
    expect(counted).toMatchObject({ status: 206, headers: { 'content-range': '0-1/5' } });
    const none = responseOf(api('GET'), read(), { kind: 'read', body: '[]', n: 0, total: 0 });
    expect(none).toMatchObject({ status: 200, headers: { 'content-range': '*/0' } });
  });

  it('sends one object, no body for HEAD, and strips nulls where asked', () => {
    const one = responseOf(api('GET'), read({ single: true }), {
      kind: 'read',
      body: '[{"id":1,"note":null}]',
      n: 1,
      total: 3,
    });
    expect(one).toEqual({
      status: 200,
      headers: { 'content-range': '0-0/3' },
      contentType: 'application/vnd.pgrst.object+json; charset=utf-8',
      body: '{"id":1,"note":null}',
    });
    const head = responseOf(api('HEAD'), read(), { kind: 'read', body: '[]', n: 0 });
    expect(head).toEqual({ status: 200, headers: { 'content-range': '*/*' }, contentType: json });
    const stripped = responseOf(api('GET', 'application/json;nulls=stripped'), read(), {
      kind: 'read',
      body: '[{"id":1,"note":null,"more":[{"x":null}]}]',
      n: 1,
    });
    expect(stripped.body).toBe('[{"id":1,"more":[{}]}]');
    const minimal = responseOf(api('POST'), read({ minimal: true }), {
      kind: 'read',
      body: '[{"id":1}]',
      n: 1,
      total: 1,
    });
    expect(minimal).toEqual({ status: 200, headers: { 'content-range': '0-0/1' } });
  });

  it('answers a write 201 or 204 without a representation, 201 or 200 with one', () => {
    const outcome: Outcome = { kind: 'mutate', bodies: [{ id: 1 }], n: 1 };
    expect(responseOf(api('POST'), mutate(), outcome)).toEqual({
      status: 201,
      headers: { 'content-range': '*/*' },
    });
    expect(responseOf(api('PATCH'), mutate({ created: false, count: 'exact' }), outcome)).toEqual({
      status: 204,
      headers: { 'content-range': '*/1' },
    });
    expect(
      responseOf(api('PATCH'), mutate({ created: false, representation: true }), outcome),
    ).toMatchObject({ status: 200, body: '[{"id":1}]', contentType: json });
    expect(
      responseOf(api('POST'), mutate({ representation: true, single: true }), outcome),
    ).toMatchObject({ status: 201, body: '{"id":1}' });
  });

  it('answers a call by what the function returns', () => {
    const ok = (plan: CallPlan, body: string | null) =>
      responseOf(api('POST'), plan, { kind: 'call', body, n: 1 });
    expect(ok(routine('void', false), '')).toEqual({ status: 204, headers: {} });
    expect(ok(routine('scalar', false), '42')).toMatchObject({ status: 200, body: '42' });
    expect(ok(routine('scalar', false), null)).toMatchObject({ body: 'null' });
    expect(ok(routine('composite', false), '[{"a":1}]')).toMatchObject({ body: '{"a":1}' });
    expect(ok(routine('scalar', true), '[1,2]')).toMatchObject({ body: '[1,2]' });
    expect(ok({ ...routine('scalar', true), single: true }, '[7]')).toMatchObject({
      body: '7',
      contentType: 'application/vnd.pgrst.object+json; charset=utf-8',
    });
  });
});
