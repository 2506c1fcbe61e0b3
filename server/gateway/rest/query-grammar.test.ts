import { describe, expect, it } from 'vitest';
import { GrammarError, parseOrder, parseQuery, parseSelect } from './query-grammar.ts';

describe('select', () => {
  it('reads columns, nested embeddings, aliases, hints and casts', () => {
    expect(
      parseSelect(
        'id,first_name,responses(id,created_at,forms(title),answers(answer,questions(question)))',
      ),
    ).toEqual([
      { kind: 'column', name: 'id' },
      { kind: 'column', name: 'first_name' },
      {
        kind: 'embed',
        relation: 'responses',
        inner: false,
        select: [
          { kind: 'column', name: 'id' },
          { kind: 'column', name: 'created_at' },
          {
            kind: 'embed',
            relation: 'forms',
            inner: false,
            select: [{ kind: 'column', name: 'title' }],
          },
          {
            kind: 'embed',
            relation: 'answers',
            inner: false,
            select: [
              { kind: 'column', name: 'answer' },
              {
                kind: 'embed',
                relation: 'questions',
                inner: false,
                select: [{ kind: 'column', name: 'question' }],
              },
            ],
          },
        ],
      },
    ]);
    expect(
      parseSelect('name:first_name, total:id::text, leads:responses!user_id!inner(*)'),
    ).toEqual([
      { kind: 'column', name: 'first_name', alias: 'name' },
      { kind: 'column', name: 'id', alias: 'total', cast: 'text' },
      {
        kind: 'embed',
        relation: 'responses',
        alias: 'leads',
        hint: 'user_id',
        inner: true,
        select: [{ kind: 'star' }],
      },
    ]);
  });

  it('takes quoted names and empty embeddings', () => {
    expect(parseSelect('"multipleAnswers",responses!inner()')).toEqual([
      { kind: 'column', name: 'multipleAnswers' },
      { kind: 'embed', relation: 'responses', inner: true, select: [] },
    ]);
    expect(parseSelect('')).toEqual([{ kind: 'star' }]);
  });

  it.each(['id,', 'responses(id', 'id)', 'a b(c)x', 'x!y!z(id)', 'id::', 'a.b', ':id'])(
    'refuses %j',
    (select) => {
      expect(() => parseSelect(select)).toThrow(GrammarError);
    },
  );
});

describe('filters', () => {
  it('reads every operator, not., repeated filters and + as a space', () => {
    const { resources } = parseQuery(
      'age=gte.18&age=lt.65&name=ilike.*m%C3%BCller+x*&id=in.(1,2,"a,b")&deleted=is.null&city=not.eq.Berlin&x=neq.1&y=gt.2&z=lte.3&w=like.a*',
    );
    expect(resources.get('')!.conditions).toEqual([
      { kind: 'filter', column: 'age', negated: false, operator: 'gte', value: '18' },
      { kind: 'filter', column: 'age', negated: false, operator: 'lt', value: '65' },
      { kind: 'filter', column: 'name', negated: false, operator: 'ilike', value: '*müller x*' },
      { kind: 'filter', column: 'id', negated: false, operator: 'in', value: ['1', '2', 'a,b'] },
      { kind: 'filter', column: 'deleted', negated: false, operator: 'is', value: 'null' },
      { kind: 'filter', column: 'city', negated: true, operator: 'eq', value: 'Berlin' },
      { kind: 'filter', column: 'x', negated: false, operator: 'neq', value: '1' },
      { kind: 'filter', column: 'y', negated: false, operator: 'gt', value: '2' },
      { kind: 'filter', column: 'z', negated: false, operator: 'lte', value: '3' },
      { kind: 'filter', column: 'w', negated: false, operator: 'like', value: 'a*' },
    ]);
  });

  it('keeps a value with dots whole', () => {
    const { resources } = parseQuery('email=eq.a.b@example.de');
    expect(resources.get('')!.conditions[0]).toMatchObject({ value: 'a.b@example.de' });
  });

  it('reads or/and trees with nesting, quoting and not', () => {
    const search = new URLSearchParams({
      or: '(a.eq.1,b.gt.2,and(c.is.null,d.neq.x),name.ilike."*a,b*")',
      'not.and': '(e.eq.1,f.in.(1,2))',
    }).toString();
    const conditions = parseQuery(search).resources.get('')!.conditions;
    expect(conditions).toEqual([
      {
        kind: 'logic',
        operator: 'or',
        negated: false,
        conditions: [
          { kind: 'filter', column: 'a', negated: false, operator: 'eq', value: '1' },
          { kind: 'filter', column: 'b', negated: false, operator: 'gt', value: '2' },
          {
            kind: 'logic',
            operator: 'and',
            negated: false,
            conditions: [
              { kind: 'filter', column: 'c', negated: false, operator: 'is', value: 'null' },
              { kind: 'filter', column: 'd', negated: false, operator: 'neq', value: 'x' },
            ],
          },
          { kind: 'filter', column: 'name', negated: false, operator: 'ilike', value: '*a,b*' },
        ],
      },
      {
        kind: 'logic',
        operator: 'and',
        negated: true,
        conditions: [
          { kind: 'filter', column: 'e', negated: false, operator: 'eq', value: '1' },
          { kind: 'filter', column: 'f', negated: false, operator: 'in', value: ['1', '2'] },
        ],
      },
    ]);
  });

  it('puts filters, order, limit and offset of embedded resources under their path', () => {
    const parsed = parseQuery(
      'select=*,responses(*,answers(*))&responses.form_id=eq.1&responses.order=id.desc&responses.limit=5&responses.answers.offset=2&responses.or=(a.eq.1)&order=created_at.desc&limit=10&offset=20',
    );
    expect(parsed.resources.get('')).toEqual({
      conditions: [],
      order: [{ column: 'created_at', direction: 'desc' }],
      limit: 10,
      offset: 20,
    });
    expect(parsed.resources.get('responses')).toEqual({
      conditions: [
        { kind: 'filter', column: 'form_id', negated: false, operator: 'eq', value: '1' },
        {
          kind: 'logic',
          operator: 'or',
          negated: false,
          conditions: [{ kind: 'filter', column: 'a', negated: false, operator: 'eq', value: '1' }],
        },
      ],
      order: [{ column: 'id', direction: 'desc' }],
      limit: 5,
    });
    expect(parsed.resources.get('responses.answers')).toMatchObject({ offset: 2 });
  });

  it('reads columns and on_conflict', () => {
    const parsed = parseQuery('columns=%22title%22,%22description%22&on_conflict=title');
    expect(parsed.columns).toEqual(['title', 'description']);
    expect(parsed.onConflict).toEqual(['title']);
  });

  it.each([
    'id=equals.1',
    'id=eq',
    'id=in.1,2',
    'id=in.(1,2',
    'id=is.maybe',
    'or=(a.eq.1',
    'or=a.eq.1',
    'or=(a.eq.1,and(b.eq.2)',
    'or=()',
    'or=(a)',
    'or=(a.foo.1)',
    'limit=-1',
    'limit=ten',
    'limit=99999999999999999999',
    'offset=1.5',
    'order=a.up',
    'order=a.asc.desc',
    'id.=eq.1',
  ])('refuses %j', (search) => {
    expect(() => parseQuery(search)).toThrow(GrammarError);
  });
});

describe('order', () => {
  it('reads directions and null placement', () => {
    expect(parseOrder('a.asc,b.desc.nullsfirst,c,d.nullslast')).toEqual([
      { column: 'a', direction: 'asc' },
      { column: 'b', direction: 'desc', nulls: 'first' },
      { column: 'c' },
      { column: 'd', nulls: 'last' },
    ]);
  });
});

describe('nesting', () => {
  it('refuses nesting deeper than any screen needs', () => {
    const deep = `${'and('.repeat(40)}a.eq.1${')'.repeat(40)}`;
    expect(() => parseQuery(new URLSearchParams({ or: `(${deep})` }).toString())).toThrow(
      GrammarError,
    );
    expect(() => parseSelect(`${'a('.repeat(40)}id${')'.repeat(40)}`)).toThrow(GrammarError);
  });
});
