import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import {
  noCustomerFilters,
  orderAnswers,
  readCustomerPage,
  type CustomerAnswer,
} from './desk-customers.ts';

type Answer = { data: unknown; count: number | null; error: unknown };

/** A stand-in for supabase-js that records the calls of each query chain and answers in turn. */
function fakeClient(answers: Answer[]) {
  const chains: unknown[][][] = [];
  const chain = (first: unknown[]) => {
    const calls = [first];
    chains.push(calls);
    const builder: Record<string, unknown> = {
      then: (resolve: (answer: Answer) => unknown) => resolve(answers.shift()!),
    };
    for (const method of ['select', 'order', 'range']) {
      builder[method] = (...args: unknown[]) => {
        calls.push([method, ...args]);
        return builder;
      };
    }
    return builder;
  };
  const client = {
    from: (table: string) => chain(['from', table]),
    rpc: (name: string, args: unknown, options: unknown) => chain(['rpc', name, args, options]),
  };
  return { client: client as unknown as SupabaseClient, chains };
}

const rows = [
  { id: 1, lead_status: 'contacted', last_lead_at: '2026-11-20T09:00:00+00:00' },
  { id: 2, lead_status: null, last_lead_at: null },
];
const filters = noCustomerFilters;

describe('readCustomerPage', () => {
  it('searches through the logged rpc, ordered on the column with id as tiebreak, one counted range', async () => {
    const { client, chains } = fakeClient([{ data: rows, count: 42, error: null }]);
    const page = await readCustomerPage(client, {
      search: 'köln',
      filters,
      page: 3,
      size: 20,
      sort: { column: 'city', ascending: false },
    });
    expect(page).toEqual({ rows, total: 42 });
    expect(chains).toEqual([
      [
        ['rpc', 'desk_customer_list', { term: 'köln' }, { count: 'exact' }],
        ['order', 'city', { ascending: false }],
        ['order', 'id', { ascending: false }],
        ['range', 40, 59],
      ],
    ]);
  });

  it('reads every customer newest first through the same function without a search or order', async () => {
    const { client, chains } = fakeClient([{ data: rows, count: 2, error: null }]);
    await readCustomerPage(client, { search: '', filters, page: 1, size: 10, sort: null });
    expect(chains[0]).toEqual([
      ['rpc', 'desk_customer_list', { term: '' }, { count: 'exact' }],
      ['order', 'created_at', { ascending: false }],
      ['order', 'id', { ascending: false }],
      ['range', 0, 9],
    ]);
  });

  it('passes exactly the filters given, with the database’s names and codes', async () => {
    const { client, chains } = fakeClient([{ data: [], count: 0, error: null }]);
    await readCustomerPage(client, {
      search: 'meier',
      filters: {
        questionnaireId: 2,
        source: 'fair_tablet',
        status: 'offer_sent',
        receivedFrom: '2026-11-01',
        receivedTo: '2026-11-30',
        openFollowUp: true,
      },
      page: 1,
      size: 10,
      sort: null,
    });
    expect(chains[0]?.[0]).toEqual([
      'rpc',
      'desk_customer_list',
      {
        term: 'meier',
        form_id: 2,
        source: 'fair_tablet',
        status: 'offer_sent',
        received_from: '2026-11-01',
        received_to: '2026-11-30',
        open_follow_up: true,
      },
      { count: 'exact' },
    ]);
  });

  it('refuses a status the desk does not know instead of showing it', async () => {
    const { client } = fakeClient([
      { data: [{ id: 1, lead_status: 'lost', last_lead_at: null }], count: 1, error: null },
    ]);
    await expect(
      readCustomerPage(client, { search: '', filters, page: 1, size: 10, sort: null }),
    ).rejects.toThrow();
  });

  it('counts a page past the end without logging the search again (a HEAD is read only)', async () => {
    const { client, chains } = fakeClient([
      { data: null, count: null, error: { code: 'PGRST103', message: 'Range not satisfiable' } },
      { data: null, count: 3, error: null },
    ]);
    const page = await readCustomerPage(client, {
      search: 'köln',
      filters: { ...filters, status: 'new' },
      page: 5,
      size: 10,
      sort: null,
    });
    expect(page).toEqual({ rows: [], total: 3 });
    expect(chains[0]?.[0]).toEqual([
      'rpc',
      'desk_customer_list',
      { term: 'köln', status: 'new' },
      { count: 'exact' },
    ]);
    expect(chains[1]).toEqual([
      ['rpc', 'customer_list', { term: 'köln', status: 'new' }, { count: 'exact', head: true }],
    ]);
  });

  it('passes any other failure on', async () => {
    const failure = { code: '42501', message: 'permission denied' };
    const { client } = fakeClient([{ data: null, count: null, error: failure }]);
    await expect(
      readCustomerPage(client, { search: '', filters, page: 1, size: 10, sort: null }),
    ).rejects.toBe(failure);
  });
});

const answer = (id: number, sequence: number | null): CustomerAnswer => ({
  id,
  answer: `Antwort ${id}`,
  question_text: `Frage ${id}`,
  question_id: sequence === null ? null : id,
  questions: sequence === null ? null : { question: `Frage ${id}`, sequence },
});

describe('orderAnswers', () => {
  it('orders by the questions’ current sequence, deleted questions last by answer id', () => {
    const ordered = orderAnswers([
      answer(5, null),
      answer(1, 3),
      answer(2, 1),
      answer(4, null),
      answer(3, 2),
    ]);
    expect(ordered.map((a) => a.id)).toEqual([2, 3, 1, 4, 5]);
  });

  it('leaves the given list unchanged', () => {
    const given = [answer(1, 2), answer(2, 1)];
    orderAnswers(given);
    expect(given.map((a) => a.id)).toEqual([1, 2]);
  });
});
