import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import {
  noCustomerFilters,
  readCustomerPage,
  type CustomerFilters,
} from '../../src/desk/api/customers.ts';
import type { Database as Db } from '../../server/db/database.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The customer list's filters (migration 20261126140000_customer_filters.sql) through the real
// supabase-js as the desk calls them: the lead filters hold for one and the same lead, periods
// are Berlin days of arrival, the status is the newest matching lead's, and PostgREST's order,
// range and exact count work on the function's rows.

interface Lead {
  form: number;
  source: 'questionnaire' | 'kfz' | 'contact';
  channel: 'web' | 'fair_tablet';
  status: string;
  /** An instant (UTC). */
  received: string;
}

// Berlin is UTC+1 in November: 2026-10-31T23:30Z is 1 November 00:30 there, 2026-11-30T23:00Z
// is 1 December 00:00.
const people: { first: string; last: string; leads: Lead[]; followUp?: 'open' | 'done' }[] = [
  {
    first: 'Anna',
    last: 'Alpha',
    leads: [
      {
        form: 1,
        source: 'questionnaire',
        channel: 'web',
        status: 'contacted',
        received: '2026-11-10T09:00:00Z',
      },
      {
        form: 1,
        source: 'kfz',
        channel: 'fair_tablet',
        status: 'new',
        received: '2026-11-20T09:00:00Z',
      },
    ],
  },
  {
    first: 'Bernd',
    last: 'Beta',
    leads: [
      {
        form: 2,
        source: 'questionnaire',
        channel: 'fair_tablet',
        status: 'closed',
        received: '2026-10-31T23:30:00Z',
      },
    ],
  },
  {
    first: 'Carla',
    last: 'Gamma',
    leads: [
      {
        form: 1,
        source: 'contact',
        channel: 'web',
        status: 'new',
        received: '2026-11-30T22:59:59Z',
      },
    ],
    followUp: 'open',
  },
  { first: 'Dora', last: 'Delta', leads: [], followUp: 'done' },
  {
    first: 'Emil',
    last: 'Epsilon',
    leads: [
      {
        form: 1,
        source: 'questionnaire',
        channel: 'web',
        status: 'new',
        received: '2026-11-30T23:00:00Z',
      },
    ],
  },
];

async function seed(db: Db) {
  for (const [index, person] of people.entries()) {
    const email = `${person.first.toLowerCase()}.${person.last.toLowerCase()}@filter.example`;
    const { rows } = await db.query<{ id: number }>(
      `insert into public.users (first_name, last_name, email, city, created_at)
       values ($1, $2, $3, 'Köln', $4) returning id`,
      [person.first, person.last, email, new Date(Date.UTC(2026, 0, 1 + index)).toISOString()],
    );
    const customerId = rows[0]!.id;
    for (const lead of person.leads) {
      await db.query(
        `insert into public.responses (client_id, payload_hash, form_id, user_id, source, channel,
           status, first_name, last_name, email, phone, terms_accepted, data_processing_consent,
           create_date, changed_date, received_at)
         values (gen_random_uuid(), 'test', $1, $2, $3, $4, $5, $6, $7, $8, '0171 1234567', true,
                 true, $9, $9, $9)`,
        [
          lead.form,
          customerId,
          lead.source,
          lead.channel,
          lead.status,
          person.first,
          person.last,
          email,
          lead.received,
        ],
      );
    }
    if (person.followUp) {
      await db.query(
        `insert into public.follow_ups (customer_id, due_at, done_at)
         values ($1, now(), $2)`,
        [customerId, person.followUp === 'done' ? new Date().toISOString() : null],
      );
    }
  }
}

describe.each(['pglite', 'postgres'] as const)('customer list filters on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let staffId: string;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    await seed(server.db);
    const account = await createAccount(server.db, `filter-staff-${kind}@example.de`, 'staff');
    staffId = account.id;
    staff = await supabaseClient(server.url, testSecret, account.accessToken);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  /** Last names of the customers the filters find, by last name, and the exact count. */
  async function find(filters: Partial<CustomerFilters>, search = '') {
    const page = await readCustomerPage(staff, {
      search,
      filters: { ...noCustomerFilters, ...filters },
      page: 1,
      size: 20,
      sort: { column: 'last_name', ascending: true },
    });
    expect(page.total).toBe(page.rows.length);
    return page.rows.map((row) => row.last_name);
  }

  it('lists every customer with the status and arrival of the newest lead', async () => {
    const page = await readCustomerPage(staff, {
      search: '',
      filters: noCustomerFilters,
      page: 1,
      size: 20,
      sort: null,
    });
    expect(page.total).toBe(5);
    // Newest customer first, as the list has always shown it.
    expect(page.rows.map((row) => [row.last_name, row.lead_status])).toEqual([
      ['Epsilon', 'new'],
      ['Delta', null],
      ['Gamma', 'new'],
      ['Beta', 'closed'],
      ['Alpha', 'new'],
    ]);
    const alpha = page.rows.find((row) => row.last_name === 'Alpha');
    expect(new Date(alpha!.last_lead_at!).toISOString()).toBe('2026-11-20T09:00:00.000Z');
    expect(page.rows.find((row) => row.last_name === 'Delta')?.last_lead_at).toBeNull();
  });

  it('filters by status and shows the matching lead’s status', async () => {
    expect(await find({ status: 'closed' })).toEqual(['Beta']);
    expect(await find({ status: 'appointment' })).toEqual([]);
    // Anna's newest lead is new; her contacted one is found, and the row says so.
    const contacted = await readCustomerPage(staff, {
      search: '',
      filters: { ...noCustomerFilters, status: 'contacted' },
      page: 1,
      size: 10,
      sort: null,
    });
    expect(contacted.rows.map((row) => [row.last_name, row.lead_status])).toEqual([
      ['Alpha', 'contacted'],
    ]);
  });

  it('holds the lead filters for one and the same lead', async () => {
    // Anna's questionnaire lead was contacted, her KFZ lead (no questionnaire) is new.
    expect(await find({ questionnaireId: 1, status: 'new' })).toEqual(['Epsilon']);
    expect(await find({ questionnaireId: 1, status: 'contacted' })).toEqual(['Alpha']);
    expect(await find({ source: 'fair_tablet', status: 'contacted' })).toEqual([]);
    expect(await find({ source: 'kfz', status: 'new' })).toEqual(['Alpha']);
    expect(
      await find({ status: 'contacted', receivedFrom: '2026-11-15', receivedTo: '2026-11-30' }),
    ).toEqual([]);
  });

  it('filters by questionnaire and by source', async () => {
    expect(await find({ questionnaireId: 1 })).toEqual(['Alpha', 'Epsilon']);
    expect(await find({ questionnaireId: 2 })).toEqual(['Beta']);
    expect(await find({ source: 'web' })).toEqual(['Alpha', 'Epsilon', 'Gamma']);
    expect(await find({ source: 'fair_tablet' })).toEqual(['Alpha', 'Beta']);
    expect(await find({ source: 'kfz' })).toEqual(['Alpha']);
    expect(await find({ source: 'contact' })).toEqual(['Gamma']);
  });

  it('counts a period in Berlin days of arrival, both ends included', async () => {
    expect(await find({ receivedFrom: '2026-11-01', receivedTo: '2026-11-01' })).toEqual(['Beta']);
    expect(await find({ receivedFrom: '2026-10-31', receivedTo: '2026-10-31' })).toEqual([]);
    expect(await find({ receivedFrom: '2026-11-30', receivedTo: '2026-11-30' })).toEqual(['Gamma']);
    expect(await find({ receivedFrom: '2026-12-01' })).toEqual(['Epsilon']);
    expect(await find({ receivedTo: '2026-11-10' })).toEqual(['Alpha', 'Beta']);
    expect(await find({ receivedFrom: '2026-11-20', receivedTo: '2026-11-10' })).toEqual([]);
  });

  it('filters by an open follow-up, not a done one', async () => {
    expect(await find({ openFollowUp: true })).toEqual(['Gamma']);
    const { data, error } = await staff
      .rpc('customer_list', { open_follow_up: false })
      .select('last_name')
      .order('last_name');
    expect(error).toBeNull();
    expect(data?.map((row) => row.last_name)).toEqual(['Alpha', 'Beta', 'Delta', 'Epsilon']);
  });

  it('combines the filters with the search', async () => {
    expect(await find({ status: 'new' }, 'alpha')).toEqual(['Alpha']);
    expect(await find({ status: 'closed' }, 'alpha')).toEqual([]);
    expect(await find({ source: 'web' }, 'a')).toEqual(['Alpha', 'Epsilon', 'Gamma']);
  });

  it('orders, pages and counts exactly through PostgREST', async () => {
    const { data, count, error } = await staff
      .rpc('desk_customer_list', { source: 'web' }, { count: 'exact' })
      .select('last_name, lead_status')
      .order('last_name', { ascending: false })
      .range(1, 2);
    expect(error).toBeNull();
    expect(count).toBe(3);
    // Anna's web lead is her contacted one (her new KFZ lead came from the tablet).
    expect(data).toEqual([
      { last_name: 'Epsilon', lead_status: 'new' },
      { last_name: 'Alpha', lead_status: 'contacted' },
    ]);
    const head = await staff.rpc(
      'customer_list',
      { status: 'new' },
      { count: 'exact', head: true },
    );
    expect(head.error).toBeNull();
    expect(head.count).toBe(3);
  });

  it('reports the exact total for a page past the end', async () => {
    const page = await readCustomerPage(staff, {
      search: '',
      filters: { ...noCustomerFilters, source: 'fair_tablet' },
      page: 4,
      size: 5,
      sort: null,
    });
    expect(page).toEqual({ rows: [], total: 2 });
  });

  it('logs a search term once, and neither the filters nor the count', async () => {
    const logged = async () =>
      (
        await server.db.query<{ detail: { term: string } }>(
          `select detail from public.access_log
            where user_id = $1 and action = 'customer_searched' order by id`,
          [staffId],
        )
      ).rows.map((row) => row.detail.term);
    const before = await logged();
    await find({ status: 'closed' });
    expect(await logged()).toEqual(before);
    await find({ status: 'new' }, 'epsilon');
    await find({ status: 'closed' }, 'epsilon');
    await staff.rpc('customer_list', { term: 'gamma' }, { count: 'exact', head: true });
    expect(await logged()).toEqual([...before, 'epsilon']);
  });

  it('refuses a source or status it does not know', async () => {
    const source = await staff.rpc('desk_customer_list', { source: 'website' });
    expect(source.error?.code).toBe('22023');
    const status = await staff.rpc('customer_list', { status: 'Neu' });
    expect(status.error?.code).toBe('22023');
  });
});
