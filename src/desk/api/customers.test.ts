import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import {
  noCustomerFilters,
  orderAnswers,
  readCustomerPage,
  type CustomerAnswer,
} from './customers.ts';

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
const customers = [{ id: 1 }, { id: 2 }];
const statuses = [
  { customer_id: 1, lead_status: 'contacted', last_lead_at: '2026-11-20T09:00:00+00:00' },
];
const filters = noCustomerFilters;
const byStatus = { ...noCustomerFilters, status: 'new' as const };

describe('readCustomerPage without filters', () => {
  it('searches through the logged rpc, one counted range, then the page’s statuses', async () => {
    const { client, chains } = fakeClient([
      { data: customers, count: 42, error: null },
      { data: statuses, count: null, error: null },
    ]);
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
        ['rpc', 'desk_search_customers', { term: 'köln' }, { count: 'exact' }],
        ['order', 'city', { ascending: false }],
        ['order', 'id', { ascending: false }],
        ['range', 40, 59],
      ],
      [['rpc', 'customer_lead_statuses', { customer_ids: [1, 2] }, undefined]],
    ]);
  });

  it('reads the table newest first without a search or order', async () => {
    const { client, chains } = fakeClient([
      { data: customers, count: 2, error: null },
      { data: statuses, count: null, error: null },
    ]);
    await readCustomerPage(client, { search: '', filters, page: 1, size: 10, sort: null });
    expect(chains[0]).toEqual([
      ['from', 'users'],
      ['select', '*', { count: 'exact', head: false }],
      ['order', 'created_at', { ascending: false }],
      ['order', 'id', { ascending: false }],
      ['range', 0, 9],
    ]);
  });

  it('asks for no statuses of an empty page', async () => {
    const { client, chains } = fakeClient([{ data: [], count: 0, error: null }]);
    const page = await readCustomerPage(client, {
      search: 'niemand',
      filters,
      page: 1,
      size: 10,
      sort: null,
    });
    expect(page).toEqual({ rows: [], total: 0 });
    expect(chains).toHaveLength(1);
  });

  it('reports the total for a page past the end (PostgREST answers 416)', async () => {
    const { client, chains } = fakeClient([
      { data: null, count: null, error: { code: 'PGRST103', message: 'Range not satisfiable' } },
      { data: null, count: 7, error: null },
    ]);
    const page = await readCustomerPage(client, {
      search: '',
      filters,
      page: 5,
      size: 10,
      sort: null,
    });
    expect(page).toEqual({ rows: [], total: 7 });
    expect(chains[1]).toEqual([
      ['from', 'users'],
      ['select', '*', { count: 'exact', head: true }],
    ]);
  });

  it('counts a search past the end without logging it again (a HEAD is read only)', async () => {
    const { client, chains } = fakeClient([
      { data: null, count: null, error: { code: 'PGRST103', message: 'Range not satisfiable' } },
      { data: null, count: 3, error: null },
    ]);
    const page = await readCustomerPage(client, {
      search: 'köln',
      filters,
      page: 5,
      size: 10,
      sort: null,
    });
    expect(page).toEqual({ rows: [], total: 3 });
    expect(chains[1]).toEqual([
      ['rpc', 'search_customers', { term: 'köln' }, { count: 'exact', head: true }],
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

describe('readCustomerPage with filters', () => {
  it('reads through desk_customer_list with exactly the filters given, ordered and counted', async () => {
    const { client, chains } = fakeClient([{ data: rows, count: 2, error: null }]);
    const page = await readCustomerPage(client, {
      search: 'meier',
      filters: {
        questionnaireId: 2,
        source: 'fair_tablet',
        status: 'offer_sent',
        receivedFrom: '2026-11-01',
        receivedTo: '2026-11-30',
        openFollowUp: true,
      },
      page: 2,
      size: 5,
      sort: null,
    });
    expect(page).toEqual({ rows, total: 2 });
    expect(chains).toEqual([
      [
        [
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
        ],
        ['order', 'created_at', { ascending: false }],
        ['order', 'id', { ascending: false }],
        ['range', 5, 9],
      ],
    ]);
  });

  it('refuses a status the desk does not know instead of showing it', async () => {
    const { client } = fakeClient([
      { data: [{ id: 1, lead_status: 'lost', last_lead_at: null }], count: 1, error: null },
    ]);
    await expect(
      readCustomerPage(client, { search: '', filters: byStatus, page: 1, size: 10, sort: null }),
    ).rejects.toThrow();
  });

  it('counts a page past the end without logging the search again', async () => {
    const { client, chains } = fakeClient([
      { data: null, count: null, error: { code: 'PGRST103', message: 'Range not satisfiable' } },
      { data: null, count: 3, error: null },
    ]);
    const page = await readCustomerPage(client, {
      search: 'köln',
      filters: byStatus,
      page: 5,
      size: 10,
      sort: null,
    });
    expect(page).toEqual({ rows: [], total: 3 });
    expect(chains[1]).toEqual([
      ['rpc', 'customer_list', { term: 'köln', status: 'new' }, { count: 'exact', head: true }],
    ]);
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
