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

const noLead = {
  lead_status: null,
  last_lead_at: null,
  lead_source: null,
  lead_channel: null,
  questionnaire_title: null,
  next_follow_up_at: null,
};
const rows = [
  {
    id: 1,
    lead_status: 'contacted',
    last_lead_at: '2026-11-20T09:00:00+00:00',
    lead_source: 'questionnaire',
    lead_channel: 'web',
    questionnaire_title: 'PKV',
    next_follow_up_at: '2026-12-01T08:00:00+00:00',
  },
  { id: 2, ...noLead },
];
const filters = noCustomerFilters;
const byStatus = { ...noCustomerFilters, status: 'new' as const };

describe('readCustomerPage without filters', () => {
  it('searches through the logged list function: one counted range', async () => {
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

  it('reads the view newest first without a search or order', async () => {
    const { client, chains } = fakeClient([{ data: rows, count: 2, error: null }]);
    const page = await readCustomerPage(client, {
      search: '',
      filters,
      page: 1,
      size: 10,
      sort: null,
    });
    expect(page).toEqual({ rows, total: 2 });
    expect(chains).toEqual([
      [
        ['from', 'customer_list_rows'],
        ['select', '*', { count: 'exact', head: false }],
        ['order', 'created_at', { ascending: false }],
        ['order', 'id', { ascending: false }],
        ['range', 0, 9],
      ],
    ]);
  });

  it('orders by a lead’s column with the customers without one last, either way', async () => {
    for (const ascending of [true, false]) {
      const { client, chains } = fakeClient([{ data: rows, count: 2, error: null }]);
      await readCustomerPage(client, {
        search: '',
        filters,
        page: 2,
        size: 100,
        sort: { column: 'next_follow_up_at', ascending },
      });
      expect(chains[0]?.slice(2)).toEqual([
        ['order', 'next_follow_up_at', { ascending, nullsFirst: false }],
        ['order', 'id', { ascending }],
        ['range', 100, 199],
      ]);
    }
  });

  it('refuses a source the desk does not know instead of showing it', async () => {
    const { client } = fakeClient([
      { data: [{ ...rows[0], lead_source: 'fax' }], count: 1, error: null },
    ]);
    await expect(
      readCustomerPage(client, { search: '', filters, page: 1, size: 10, sort: null }),
    ).rejects.toThrow();
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
      ['from', 'customer_list_rows'],
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
      ['rpc', 'customer_list', { term: 'köln' }, { count: 'exact', head: true }],
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
      { data: [{ id: 1, ...noLead, lead_status: 'lost' }], count: 1, error: null },
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
