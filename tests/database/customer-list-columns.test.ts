import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import {
  noCustomerFilters,
  readCustomerPage,
  type CustomerSortColumn,
  type ListedCustomer,
} from '../../src/desk/api/customers.ts';
import type { Database as Db } from '../../server/db/database.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The customer list's columns (migration 20261130120000_customer_list_columns.sql) through the
// real supabase-js as the desk reads them: customer_summary follows every change of a customer's
// leads and follow-ups (triggers), the view customer_list_rows orders by each column with the
// customers without a value last, pages and counts; staff read it, anon and pending accounts
// read nothing and nobody writes the summary through the API; the export takes the list's
// filters and returns each lead's status.

const family = 'Spaltentest';

async function addCustomer(db: Db, first: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into public.users (first_name, last_name, email, city)
     values ($1, $2, $3, 'Köln') returning id`,
    [first, family, `${first.toLowerCase()}.${family.toLowerCase()}@columns.example`],
  );
  return rows[0]!.id;
}

async function addLead(
  db: Db,
  customerId: number,
  lead: {
    form: number;
    source: 'questionnaire' | 'kfz' | 'contact';
    channel?: 'web' | 'fair_tablet';
    status?: string;
    received: string;
  },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into public.responses (client_id, payload_hash, form_id, user_id, source, channel,
       status, first_name, last_name, email, phone, terms_accepted, data_processing_consent,
       create_date, changed_date, received_at)
     select gen_random_uuid(), 'test', $1, u.id, $3, $4, $5, u.first_name, u.last_name, u.email,
            '0171 1234567', true, true, $6, $6, $6
       from public.users u where u.id = $2
     returning id`,
    [
      lead.form,
      customerId,
      lead.source,
      lead.channel ?? 'web',
      lead.status ?? 'new',
      lead.received,
    ],
  );
  return rows[0]!.id;
}

async function addFollowUp(db: Db, customerId: number, due: string, done = false) {
  const { rows } = await db.query<{ id: number }>(
    `insert into public.follow_ups (customer_id, due_at, done_at) values ($1, $2, $3) returning id`,
    [customerId, due, done ? new Date().toISOString() : null],
  );
  return rows[0]!.id;
}

describe.each(['pglite', 'postgres'] as const)('customer list columns on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let admin: SupabaseClient<Database>;
  let anon: SupabaseClient<Database>;
  let pending: SupabaseClient<Database>;
  const ids: Record<string, number> = {};
  const leads: Record<string, number> = {};

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const db = server.db;
    // Anna: a questionnaire lead (PKV, tablet), then a newer KFZ lead; two open follow-ups.
    ids.Anna = await addCustomer(db, 'Anna');
    leads.annaPkv = await addLead(db, ids.Anna, {
      form: 2,
      source: 'questionnaire',
      channel: 'fair_tablet',
      status: 'contacted',
      received: '2026-11-10T09:00:00Z',
    });
    leads.annaKfz = await addLead(db, ids.Anna, {
      form: 1,
      source: 'kfz',
      received: '2026-11-20T09:00:00Z',
    });
    await addFollowUp(db, ids.Anna, '2026-12-05T08:00:00Z');
    await addFollowUp(db, ids.Anna, '2026-12-03T08:00:00Z');
    // Bernd: a Tabaluga lead, closed; a done follow-up only.
    ids.Bernd = await addCustomer(db, 'Bernd');
    leads.bernd = await addLead(db, ids.Bernd, {
      form: 1,
      source: 'questionnaire',
      status: 'closed',
      received: '2026-11-01T09:00:00Z',
    });
    await addFollowUp(db, ids.Bernd, '2026-11-02T08:00:00Z', true);
    // Carla: a contact request, and a follow-up due soonest.
    ids.Carla = await addCustomer(db, 'Carla');
    await addLead(db, ids.Carla, { form: 1, source: 'contact', received: '2026-11-15T09:00:00Z' });
    await addFollowUp(db, ids.Carla, '2026-11-29T08:00:00Z');
    // Dora: made in the desk, nothing else.
    ids.Dora = await addCustomer(db, 'Dora');

    const staffAccount = await createAccount(db, `columns-staff-${kind}@example.de`, 'staff');
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(db, `columns-admin-${kind}@example.de`, 'admin');
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    const pendingAccount = await createAccount(db, `columns-wait-${kind}@example.de`, 'pending');
    pending = await supabaseClient(server.url, testSecret, pendingAccount.accessToken);
    anon = await supabaseClient(server.url, testSecret);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  const row = (rows: ListedCustomer[], first: string) =>
    rows.find((customer) => customer.first_name === first);

  async function listed(sort: { column: CustomerSortColumn; ascending: boolean } | null) {
    const page = await readCustomerPage(staff, {
      search: '',
      filters: noCustomerFilters,
      page: 1,
      size: 100,
      sort,
    });
    return page.rows.filter((customer) => customer.last_name === family);
  }

  it('shows the newest lead’s arrival, source, questionnaire and status and the next follow-up', async () => {
    const rows = await listed(null);
    expect(rows.map((customer) => customer.first_name)).toEqual(['Dora', 'Carla', 'Bernd', 'Anna']);
    const anna = row(rows, 'Anna')!;
    expect(new Date(anna.last_lead_at!).toISOString()).toBe('2026-11-20T09:00:00.000Z');
    expect(anna).toMatchObject({
      lead_source: 'kfz',
      lead_channel: 'web',
      questionnaire_title: null,
      lead_status: 'new',
    });
    expect(new Date(anna.next_follow_up_at!).toISOString()).toBe('2026-12-03T08:00:00.000Z');
    expect(row(rows, 'Bernd')).toMatchObject({
      lead_source: 'questionnaire',
      questionnaire_title: 'Tabaluga',
      lead_status: 'closed',
      next_follow_up_at: null,
    });
    expect(row(rows, 'Carla')).toMatchObject({ lead_source: 'contact', lead_status: 'new' });
    expect(row(rows, 'Dora')).toMatchObject({
      last_lead_at: null,
      lead_source: null,
      lead_status: null,
      next_follow_up_at: null,
    });
  });

  it('orders by each new column on the server, customers without a value last both ways', async () => {
    const order = async (column: CustomerSortColumn, ascending: boolean) =>
      (await listed({ column, ascending })).map((customer) => customer.first_name);
    expect(await order('last_lead_at', true)).toEqual(['Bernd', 'Carla', 'Anna', 'Dora']);
    expect(await order('last_lead_at', false)).toEqual(['Anna', 'Carla', 'Bernd', 'Dora']);
    // The enum's order: questionnaire, kfz, contact.
    expect(await order('lead_source', true)).toEqual(['Bernd', 'Anna', 'Carla', 'Dora']);
    expect(await order('lead_source', false)).toEqual(['Carla', 'Anna', 'Bernd', 'Dora']);
    expect((await order('questionnaire_title', true))[0]).toBe('Bernd');
    expect((await order('questionnaire_title', false))[0]).toBe('Bernd');
    // The status's order is the office's workflow: new before closed.
    expect((await order('lead_status', true)).at(-1)).toBe('Dora');
    expect((await order('lead_status', false)).slice(0, 1)).toEqual(['Bernd']);
    expect(await order('next_follow_up_at', true)).toEqual(['Carla', 'Anna', 'Bernd', 'Dora']);
    expect(await order('next_follow_up_at', false)).toEqual(['Anna', 'Carla', 'Dora', 'Bernd']);
  });

  it('pages and counts the view exactly through PostgREST', async () => {
    const { data, count, error } = await staff
      .from('customer_list_rows')
      .select('first_name, lead_status', { count: 'exact' })
      .eq('last_name', family)
      .order('last_lead_at', { ascending: false, nullsFirst: false })
      .range(1, 2);
    expect(error).toBeNull();
    expect(count).toBe(4);
    expect(data).toEqual([
      { first_name: 'Carla', lead_status: 'new' },
      { first_name: 'Bernd', lead_status: 'closed' },
    ]);
  });

  it('gives the filtered list the same columns, of the newest matching lead', async () => {
    const page = await readCustomerPage(staff, {
      search: family.toLowerCase(),
      filters: { ...noCustomerFilters, questionnaireId: 2 },
      page: 1,
      size: 10,
      sort: { column: 'last_lead_at', ascending: true },
    });
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({
      first_name: 'Anna',
      lead_source: 'questionnaire',
      lead_channel: 'fair_tablet',
      questionnaire_title: 'PKV',
      lead_status: 'contacted',
    });
    expect(new Date(page.rows[0]!.next_follow_up_at!).toISOString()).toBe(
      '2026-12-03T08:00:00.000Z',
    );
  });

  it('follows every change of the leads and follow-ups', async () => {
    const db = server.db;
    const summary = async (customerId: number) =>
      (
        await db.query<{
          lead_status: string | null;
          lead_source: string | null;
          next_follow_up_at: Date | null;
        }>(
          `select lead_status::text, lead_source::text, next_follow_up_at
             from public.customer_summary where customer_id = $1`,
          [customerId],
        )
      ).rows[0];

    // A status change through the desk's function.
    const changed = await staff.rpc('set_lead_status', {
      response_id: leads.annaKfz!,
      status: 'appointment',
    });
    expect(changed.error).toBeNull();
    expect((await summary(ids.Anna!))?.lead_status).toBe('appointment');

    // The newest lead deleted: the one before is the newest again.
    await db.query('delete from public.responses where id = $1', [leads.annaKfz]);
    expect(await summary(ids.Anna!)).toMatchObject({
      lead_status: 'contacted',
      lead_source: 'questionnaire',
    });

    // The soonest follow-up done (as the desk does it): the next one counts.
    const { rows } = await db.query<{ id: number }>(
      `select id from public.follow_ups where customer_id = $1 order by due_at limit 1`,
      [ids.Anna],
    );
    const done = await staff.rpc('complete_follow_up', { follow_up_id: rows[0]!.id });
    expect(done.error).toBeNull();
    expect((await summary(ids.Anna!))?.next_follow_up_at?.toISOString()).toBe(
      '2026-12-05T08:00:00.000Z',
    );

    // A new lead of a customer made in the desk.
    await addLead(db, ids.Dora!, { form: 1, source: 'kfz', received: '2026-11-25T09:00:00Z' });
    expect(await summary(ids.Dora!)).toMatchObject({ lead_status: 'new', lead_source: 'kfz' });

    // The customer deleted: their summary goes with them.
    const bernd = ids.Bernd!;
    await db.query('delete from public.users where id = $1', [bernd]);
    expect(await summary(bernd)).toBeUndefined();
  });

  it('lets staff read and nobody else, and nobody write the summary', async () => {
    for (const client of [anon, pending]) {
      const view = await client.from('customer_list_rows').select('id').eq('last_name', family);
      expect(view.data ?? []).toEqual([]);
      const table = await client.from('customer_summary').select('customer_id');
      expect(table.data ?? []).toEqual([]);
    }
    const read = await staff.from('customer_summary').select('customer_id');
    expect(read.error).toBeNull();
    expect(read.data?.length).toBeGreaterThan(0);
    const written = await staff
      .from('customer_summary')
      .update({ lead_status: 'closed' })
      .eq('customer_id', ids.Carla!)
      .select();
    expect(written.error?.code).toBe('42501');
    const inserted = await staff.from('customer_summary').insert({ customer_id: ids.Dora! });
    expect(inserted.error?.code).toBe('42501');
  });

  it('exports the leads the list’s filters select, each with its status', async () => {
    const begun = await admin
      .rpc('begin_export', {
        export_scope: 'customers',
        export_format: 'csv',
        customer_search: family.toLowerCase(),
        lead_status: 'new',
        lead_source: 'contact',
        received_from: '2026-11-15',
        received_to: '2026-11-15',
        open_follow_up: true,
      })
      .single();
    expect(begun.error).toBeNull();
    expect(begun.data?.row_count).toBe(1);
    const rows = await admin.rpc('export_responses', {
      export_id: begun.data!.export_id,
      page_size: 100,
    });
    expect(rows.error).toBeNull();
    expect(rows.data?.map((lead) => [lead.first_name, lead.source, lead.status])).toEqual([
      ['Carla', 'contact', 'new'],
    ]);
    await admin.rpc('finish_export', { export_id: begun.data!.export_id, was_cancelled: false });

    const none = await admin
      .rpc('begin_export', {
        export_scope: 'customers',
        export_format: 'csv',
        customer_search: family.toLowerCase(),
        lead_status: 'closed',
        received_from: '2026-11-16',
      })
      .single();
    expect(none.data?.row_count).toBe(0);
    await admin.rpc('finish_export', { export_id: none.data!.export_id, was_cancelled: true });

    const unknown = await admin.rpc('begin_export', {
      export_scope: 'customers',
      export_format: 'csv',
      lead_status: 'Neu',
    });
    expect(unknown.error?.code).toBe('22023');
  });
});
