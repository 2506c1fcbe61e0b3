import { describe, expect, it } from 'vitest';
import { PostgrestError } from './errors.ts';
import { parseQuery } from './query-grammar.ts';
import { maxRows, readTree } from './read-tree.ts';
import type { SchemaCache } from './schema-cache.ts';
import { fakeTable, fakeForeignKey } from './test-catalog.ts';

const forms = fakeTable('forms', ['id', 'title']);
// One profile per user: the foreign key's column is unique, so the embedding is to-one.
const users = fakeTable('users', ['id', 'email']);
const profiles = fakeTable('profiles', ['id', 'user_id', 'bio'], [['id'], ['user_id']]);
const responses = fakeTable('responses', ['id', 'user_id', 'form_id', 'note']);
const cache: SchemaCache = {
  relations: new Map([forms, users, profiles, responses].map((r) => [r.name, r])),
  foreignKeys: [
    fakeForeignKey('responses', 'user_id', 'users'),
    fakeForeignKey('responses', 'form_id', 'forms'),
    fakeForeignKey('profiles', 'user_id', 'users'),
  ],
  functions: new Map(),
};

const read = (search: string) =>
  readTree(cache, users, parseQuery(search), { rows: true, capped: true });
const returned = (search: string) =>
  readTree(cache, users, parseQuery(search), { rows: false, capped: false });

describe('the read tree of a select', () => {
  it('finds each embedding’s relationship and direction through the foreign keys', () => {
    const tree = read('select=*,profiles(bio),responses(note,form:forms(title))');
    expect(tree.fields.map((field) => field.key)).toEqual(['id', 'email', 'profiles', 'responses']);
    const [, , profile, answers] = tree.fields;
    expect(profile).toMatchObject({ relationship: { target: profiles, toOne: true } });
    expect(answers).toMatchObject({
      relationship: { target: responses, toOne: false, pairs: [['id', 'user_id']] },
      node: {
        path: 'responses',
        fields: [
          { key: 'note' },
          { key: 'form', relationship: { target: forms, toOne: true, pairs: [['form_id', 'id']] } },
        ],
      },
    });
  });

  it('counts rows for `(count)` and tests existence for `!inner`, with their filters', () => {
    const tree = read('select=id,responses(count),profiles!inner()&profiles.bio=is.null');
    expect(tree.fields[1]).toMatchObject({ key: 'responses', countOnly: true });
    expect(tree.fields).toHaveLength(2);
    expect(tree.inner).toMatchObject([
      { relationship: { target: profiles }, node: { conditions: [{ operator: 'is' }] } },
    ]);
  });

  it('caps the top level of a read at max rows, and pages each level as asked', () => {
    expect(read('').limit).toBe(maxRows);
    expect(read('limit=10&offset=20')).toMatchObject({ limit: 10, offset: 20 });
    const tree = read('select=responses(id)&responses.limit=3&responses.order=id.desc');
    expect(tree.fields[0]).toMatchObject({
      node: { limit: 3, order: [{ column: { name: 'id' }, direction: 'desc' }] },
    });
  });

  it('selects a write’s returned rows without its filters, inner tests or page', () => {
    const tree = returned('select=id,profiles!inner(bio)&id=eq.1&order=email&limit=1');
    expect(tree).toMatchObject({ conditions: [], inner: [], order: [] });
    expect(tree.limit).toBeUndefined();
    expect(tree.fields.map((field) => field.key)).toEqual(['id', 'profiles']);
  });

  it('refuses what the catalog does not have, in PostgREST’s words', () => {
    const refusal = (search: string) => {
      try {
        read(search);
      } catch (error) {
        if (error instanceof PostgrestError) return { status: error.statusCode, ...error.body };
      }
      throw new Error('expected a PostgREST refusal');
    };
    expect(refusal('select=nickname')).toMatchObject({ status: 400, code: '42703' });
    expect(refusal('order=nickname')).toMatchObject({ code: '42703' });
    expect(refusal('responses.nickname=eq.1&select=responses(id)')).toMatchObject({
      code: '42703',
      message: 'column responses.nickname does not exist',
    });
    expect(refusal('select=id::money')).toMatchObject({ code: '42704' });
    expect(refusal('select=forms(id)')).toMatchObject({ status: 400, code: 'PGRST200' });
    expect(refusal('responses.id=eq.1')).toMatchObject({ status: 400, code: 'PGRST108' });
  });
});
