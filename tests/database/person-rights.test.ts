import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOverview, type AnalysisFilter } from '../../src/desk/api/analysis.ts';
import type { Database } from '../../src/domain/database.types.ts';
import { readNewestLead } from '../../src/desk/api/customer-newest-lead.ts';
import {
  noCustomerFilters,
  readCustomerPage,
  readCustomerResponses,
} from '../../src/desk/api/customers.ts';
import { readCounts, readLeadsPerForm, readNewestLeads } from '../../src/desk/api/dashboard.ts';
import { questionnaireLead, uniqueEmail } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// A person's export, erasure and the access log (migration 20261125180000_person_rights.sql),
// through the real supabase-js as the desk calls it.

const everything: AnalysisFilter = {
  dayFrom: '2000-01-01',
  dayTo: '2999-12-31',
  questionnaireId: null,
  channel: null,
};

async function postLeads(url: string, submissions: unknown[]) {
  const res = await fetch(`${url}/api/responses/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ submissions }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { results: { status: string }[] };
}

describe.each(['pglite', 'postgres'] as const)('a person’s rights on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let admin: SupabaseClient<Database>;
  let staffId: string;
  let adminId: string;
  const email = uniqueEmail('rechte.person');
  const first = questionnaireLead({
    email,
    first_name: 'Wiebke',
    last_name: 'Quandtmeyer',
    phone: '0171 9988776',
    offer_info: true,
  });
  const second = questionnaireLead({
    email,
    first_name: 'Wiebke',
    last_name: 'Quandtmeyer',
    phone: '0171 9988776',
    offer_info: false,
  });
  const other = questionnaireLead({ first_name: 'Otto', last_name: 'Anders' });
  let customerId = 0;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const staffAccount = await createAccount(server.db, `rights-staff-${kind}@example.de`, 'staff');
    staffId = staffAccount.id;
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(server.db, `rights-admin-${kind}@example.de`, 'admin');
    adminId = adminAccount.id;
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    await postLeads(server.url, [first, second, other]);
    const { rows } = await server.db.query<{ id: number }>(
      'select id from public.users where email = $1',
      [email],
    );
    customerId = rows[0]!.id;
    // A support message that names the person, as staff would write to an admin.
    await server.db.query(
      `insert into public.support_messages (name, email, message)
       values ('Team', 'team@example.de', $1)`,
      [`Frau Wiebke Quandtmeyer (${email.toUpperCase()}) bittet um Rückruf.`],
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  async function logOf(customer: number | null, action: string) {
    const { rows } = await server.db.query<{
      user_id: string;
      staff_email: string;
      detail: unknown;
    }>(
      `select user_id::text, staff_email, detail from public.access_log
        where customer_id is not distinct from $1 and action = $2 order by id`,
      [customer, action],
    );
    return rows;
  }

  it('logs opening the details and the answers, once per minute, with the staff account', async () => {
    const opened = await staff.rpc('open_customer', { customer_id: customerId }).maybeSingle();
    expect(opened.error).toBeNull();
    expect(opened.data?.email).toBe(email);
    await staff.rpc('open_customer', { customer_id: customerId }).maybeSingle();
    // The answers screen's own query: the leads with their form and answers embedded.
    const leads = await readCustomerResponses(staff, customerId);
    expect(leads.map((lead) => lead.email)).toEqual([email, email]);
    expect(leads.map((lead) => lead.forms?.title)).toEqual([
      expect.any(String),
      expect.any(String),
    ]);
    expect(leads.flatMap((lead) => lead.answers.map((answer) => answer.answer))).toHaveLength(6);
    expect(leads[0]!.answers[0]!.questions?.sequence).toBe(1);
    expect(await logOf(customerId, 'customer_viewed')).toEqual([
      expect.objectContaining({ user_id: staffId, staff_email: `rights-staff-${kind}@example.de` }),
    ]);
    expect(await logOf(customerId, 'answers_viewed')).toHaveLength(1);
    // A customer that does not exist (a stale link): no row, no error, no entry.
    const missing = await staff.rpc('open_customer', { customer_id: 999_999 }).maybeSingle();
    expect(missing).toMatchObject({ data: null, error: null });
    expect(await logOf(999_999, 'customer_viewed')).toEqual([]);
  });

  it('gives staff no direct read or write of leads and answers: 42501, nothing logged or leaked', async () => {
    const before = await server.db.query('select count(*)::int as n from public.access_log');
    for (const client of [staff, admin]) {
      const leads = await client.from('responses').select('id, email');
      expect(leads.error?.code).toBe('42501');
      expect(leads.data).toBeNull();
      const answers = await client.from('answers').select('id, answer');
      expect(answers.error?.code).toBe('42501');
      // Embedded into the customer list, the leads stay closed as well.
      const embedded = await client.from('users').select('id, responses(id, answers(answer))');
      expect(embedded.error?.code).toBe('42501');
      const changed = await client
        .from('responses')
        .update({ message: 'geändert' })
        .eq('user_id', customerId);
      expect(changed.error?.code).toBe('42501');
      const removed = await client.from('answers').delete().gt('id', 0);
      expect(removed.error?.code).toBe('42501');
      // analysis_leads reads the table as the caller: no longer the API roles'.
      const times = await client.rpc('analysis_leads', {
        day_from: '2000-01-01',
        day_to: '2999-12-31',
        questionnaire_id: 1,
        lead_channel: 'web',
      });
      expect(times.error?.code).toBe('42501');
    }
    const { rows } = await server.db.query<{ answers: number; leads: number }>(
      `select (select count(*)::int from public.answers a
                 join public.responses r on r.id = a.response_id where r.user_id = $1) as answers,
              (select count(*)::int from public.responses where user_id = $1) as leads`,
      [customerId],
    );
    expect(rows[0]).toEqual({ answers: 6, leads: 2 });
    const after = await server.db.query('select count(*)::int as n from public.access_log');
    expect(after.rows).toEqual(before.rows);
  });

  it('serves the desk’s reads of leads through functions: logged per person, counts for the rest', async () => {
    const { rows } = await server.db.query<{ id: number; lead: number }>(
      `select u.id, r.id as lead from public.users u join public.responses r on r.user_id = u.id
        where u.email = $1`,
      [other.email],
    );
    const otto = rows[0]!;
    // The sidebar's notice of differing details: part of opening the details, asked together
    // with the details themselves, and one entry for both.
    const [newest] = await Promise.all([
      readNewestLead(staff, otto.id),
      staff.rpc('open_customer', { customer_id: otto.id }).maybeSingle(),
    ]);
    expect(newest).toMatchObject({ id: otto.lead, first_name: 'Otto', last_name: 'Anders' });
    await readNewestLead(staff, otto.id);
    expect(await logOf(otto.id, 'customer_viewed')).toEqual([
      expect.objectContaining({ user_id: staffId }),
    ]);
    expect(await logOf(otto.id, 'answers_viewed')).toEqual([]);

    // The dashboard: counts, and the newest leads' names as a list shows them, unlogged.
    const logged = await server.db.query('select count(*)::int as n from public.access_log');
    const counts = await readCounts(staff, { today: '2999-12-31', weekStart: '2000-01-01' });
    // Callback wishes whose follow-up is still open (20261126170000_open_callbacks.sql).
    const callbacks = await server.db.query<{ n: number }>(
      `select count(*)::int as n from public.follow_ups where automatic and done_at is null`,
    );
    expect(counts.callbacksWaiting).toBe(callbacks.rows[0]!.n);
    // 'Kunden insgesamt' (customer_count, 20261201130000_desk_counts.sql): every customer.
    const customers = await server.db.query<{ n: number }>(
      'select count(*)::int as n from public.users',
    );
    expect(counts.customers).toBe(customers.rows[0]!.n);
    expect(counts.customers).toBeGreaterThan(0);
    expect(counts.leadsLastWeek).toBeGreaterThanOrEqual(3);
    const perForm = await readLeadsPerForm(staff);
    expect(perForm.find((form) => form.formId === first.form_id)?.leads).toBeGreaterThanOrEqual(2);
    const newestLeads = await readNewestLeads(staff);
    expect(newestLeads.map((lead) => lead.name)).toContain('Otto Anders');
    expect(newestLeads.find((lead) => lead.id === otto.lead)).toMatchObject({
      userId: otto.id,
      formTitle: expect.stringMatching(/\S/),
    });
    const overview = await readOverview(staff, everything);
    expect(overview.leads).toBeGreaterThanOrEqual(3);
    expect(overview.first_lead_at).not.toBeNull();
    expect(overview.data_since).not.toBeNull();
    const unlogged = await server.db.query('select count(*)::int as n from public.access_log');
    expect(unlogged.rows).toEqual(logged.rows);

    // An account without the role: nothing.
    const pending = await createAccount(server.db, `rights-nolead-${kind}@example.de`, 'pending');
    const pendingClient: SupabaseClient<Database> = await supabaseClient(
      server.url,
      testSecret,
      pending.accessToken,
    );
    for (const name of ['customer_leads', 'customer_lead_contacts'] as const) {
      const refused = await pendingClient.rpc(name, { customer_id: otto.id });
      expect(refused.error?.code).toBe('42501');
    }
    expect((await pendingClient.rpc('desk_newest_leads', {})).error?.code).toBe('42501');
    const pendingCallbacks = await pendingClient.rpc('callbacks_waiting', {
      received_since: '2000-01-01T00:00:00Z',
    });
    expect(pendingCallbacks.data).toBe(0);
    expect((await pendingClient.rpc('customer_count')).data).toBe(0);
    const pendingForms = await pendingClient.rpc('questionnaire_lead_counts', {});
    expect(pendingForms.data?.every((form) => form.leads === 0)).toBe(true);
    const pendingOverview = await readOverview(pendingClient, everything);
    expect(pendingOverview).toMatchObject({ leads: 0, first_lead_at: null, data_since: null });
    expect(await logOf(otto.id, 'answers_viewed')).toEqual([]);
  });

  it('logs what a staff token reads through GET /api/responses, per customer', async () => {
    const { rows } = await server.db.query<{ id: number; lead: number }>(
      `select u.id, r.id as lead from public.users u join public.responses r on r.user_id = u.id
        where u.email = $1`,
      [other.email],
    );
    const otto = rows[0]!;
    const token = (await createAccount(server.db, `rights-api-${kind}@example.de`, 'staff'))
      .accessToken;
    const apiStaff = await server.db.query<{ user_id: string }>(
      'select user_id::text from public.staff where email = $1',
      [`rights-api-${kind}@example.de`],
    );
    // Staff read leads through the hub while an admin allows staff to export, as in the desk.
    await server.db.query('update public.desk_settings set staff_can_export = true');
    const read = await fetch(`${server.url}/api/responses/${otto.lead}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.status).toBe(200);
    expect(await logOf(otto.id, 'answers_viewed')).toEqual([
      {
        user_id: apiStaff.rows[0]!.user_id,
        staff_email: `rights-api-${kind}@example.de`,
        detail: { via: 'api', leads: [otto.lead] },
      },
    ]);
    const list = await fetch(`${server.url}/api/responses?limit=500`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.status).toBe(200);
    const served = (await list.json()) as { id: number }[];
    const entries = await server.db.query<{ customer_id: number | null; leads: number[] }>(
      `select customer_id, detail -> 'leads' as leads from public.access_log
        where action = 'answers_viewed' and user_id = $1::uuid and detail -> 'leads' @> '[]'
          and id > (select min(id) from public.access_log
                     where action = 'answers_viewed' and user_id = $1::uuid)`,
      [apiStaff.rows[0]!.user_id],
    );
    expect(entries.rows.flatMap((entry) => entry.leads).sort((a, b) => a - b)).toEqual(
      served.map((lead) => lead.id).sort((a, b) => a - b),
    );
    expect(entries.rows.map((entry) => entry.customer_id)).toContain(customerId);
    await server.db.query('update public.desk_settings set staff_can_export = false');
  });

  it('logs a search by its term only, not once per page, and never an empty one', async () => {
    const request = {
      search: 'quandtmeyer',
      filters: noCustomerFilters,
      page: 1,
      size: 5,
      sort: null,
    };
    const page = await readCustomerPage(staff, request);
    expect(page.rows.map((row) => row.email)).toEqual([email]);
    await readCustomerPage(staff, { ...request, sort: { column: 'city', ascending: true } });
    await readCustomerPage(staff, { ...request, search: '' });
    // Two letters of the name: a search, but one that names nobody (kept after the erasure).
    await readCustomerPage(staff, { ...request, search: 'qu' });
    const searches = await logOf(null, 'customer_searched');
    expect(searches).toEqual([
      expect.objectContaining({ user_id: staffId, detail: { term: 'quandtmeyer' } }),
      expect.objectContaining({ user_id: staffId, detail: { term: 'qu' } }),
    ]);
  });

  it('logs the changed columns of a customer, not their values', async () => {
    const changed = await staff.from('users').update({ city: 'Potsdam' }).eq('id', customerId);
    expect(changed.error).toBeNull();
    expect(await logOf(customerId, 'customer_changed')).toEqual([
      expect.objectContaining({ user_id: staffId, detail: { columns: ['city'] } }),
    ]);
  });

  it('refuses the functions to accounts without the role', async () => {
    const anon: SupabaseClient<Database> = await supabaseClient(server.url, testSecret);
    const pending = await createAccount(server.db, `rights-pending-${kind}@example.de`, 'pending');
    const pendingClient: SupabaseClient<Database> = await supabaseClient(
      server.url,
      testSecret,
      pending.accessToken,
    );
    for (const client of [anon, pendingClient]) {
      expect((await client.rpc('open_customer', { customer_id: customerId })).error).not.toBeNull();
      expect(
        (await client.rpc('customer_data_export', { customer_id: customerId })).error,
      ).not.toBeNull();
    }
    // Only admins preview and erase.
    const preview = await staff.rpc('customer_erasure_preview', { customer_id: customerId });
    expect(preview.error?.code).toBe('42501');
    const erased = await staff.rpc('erase_customer', { customer_id: customerId });
    expect(erased.error?.code).toBe('42501');
    const { rows } = await server.db.query('select 1 from public.users where id = $1', [
      customerId,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('exports everything stored about the person for who may export, and logs it', async () => {
    // Staff export only while an admin allows it, as every export.
    const refused = await staff.rpc('customer_data_export', { customer_id: customerId });
    expect(refused.error?.code).toBe('42501');
    expect(await logOf(customerId, 'customer_exported')).toEqual([]);
    await server.db.query('update public.desk_settings set staff_can_export = true');
    const { data, error } = await staff.rpc('customer_data_export', { customer_id: customerId });
    expect(error).toBeNull();
    const text = JSON.stringify(data);
    const exported = JSON.parse(text) as {
      customer: { email: string; city: string };
      leads: { client_id: string; offer_info: boolean; answers: { answer: string }[] }[];
      support_messages: { message: string }[];
      access_log: { action: string }[];
    };
    expect(exported.customer).toMatchObject({ email, city: 'Potsdam' });
    expect(exported.leads.map((lead) => lead.client_id).sort()).toEqual(
      [first.client_id, second.client_id].sort(),
    );
    expect(exported.leads.flatMap((lead) => lead.answers.map((a) => a.answer))).toContain('50 €');
    expect(exported.leads.some((lead) => lead.offer_info)).toBe(true);
    expect(exported.support_messages).toHaveLength(1);
    expect(exported.access_log.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['customer_viewed', 'answers_viewed', 'customer_changed']),
    );
    // Nothing of the other customer.
    expect(text).not.toContain(other.email);
    expect(await logOf(customerId, 'customer_exported')).toEqual([
      expect.objectContaining({ user_id: staffId }),
    ]);
  });

  it('erases the person: nothing with the address is left but the hashed proof', async () => {
    const before = await readOverview(admin, everything);
    const preview = await admin.rpc('customer_erasure_preview', { customer_id: customerId });
    expect(preview.error).toBeNull();
    expect(preview.data).toMatchObject({
      leads: 2,
      answers: 6,
      files: 0,
      mails_waiting: 0,
      support_messages: 1,
      consent_records_kept: 1,
    });

    const erased = await admin.rpc('erase_customer', { customer_id: customerId });
    expect(erased.error).toBeNull();
    expect(erased.data).toMatchObject({ leads: 2, answers: 6, support_messages_redacted: 1 });

    // Every text of every public table, searched for the address, phone number and name.
    const { rows: tables } = await server.db.query<{ name: string }>(
      `select quote_ident(table_name) as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    for (const { name } of tables) {
      const { rows } = await server.db.query<{ row: string }>(
        `select t::text as row from public.${name} t
          where lower(t::text) like any ($1)`,
        [[`%${email}%`, '%quandtmeyer%', '%9988776%']],
      );
      expect({ table: name, rows }).toEqual({ table: name, rows: [] });
    }
    const proof = await server.db.query<{ n: number }>(
      `select count(*)::integer as n from public.consent_records
        where email_sha256 = public.contact_sha256($1)`,
      [email],
    );
    expect(proof.rows[0]?.n).toBe(1);
    const record = await server.db.query<{ customer_id: number; user_id: string }>(
      'select customer_id, user_id::text from public.erasures',
    );
    expect(record.rows).toEqual([{ customer_id: customerId, user_id: adminId }]);
    expect(await logOf(customerId, 'customer_erased')).toEqual([
      expect.objectContaining({ user_id: adminId }),
    ]);
    // The search for the name stays logged, without the term.
    expect(await logOf(null, 'customer_searched')).toEqual([
      expect.objectContaining({ detail: { term_redacted: true } }),
      expect.objectContaining({ detail: { term: 'qu' } }),
    ]);
    const counts = (overview: typeof before) => ({
      leads: overview.leads,
      questionnaire_leads: overview.questionnaire_leads,
      offer_requests: overview.offer_requests,
    });
    expect(counts(await readOverview(admin, everything))).toEqual(counts(before));
    // The other customer is untouched.
    const left = await server.db.query('select 1 from public.users where email = $1', [
      other.email,
    ]);
    expect(left.rows).toHaveLength(1);
  });

  it('lets nobody change or delete the log and the erasure record', async () => {
    expect((await staff.from('erasures').select('id')).data).toEqual([]);
    expect((await admin.from('erasures').select('customer_id')).data).toEqual([
      { customer_id: customerId },
    ]);
    for (const client of [staff, admin]) {
      expect(
        (await client.from('access_log').update({ detail: {} }).eq('customer_id', customerId))
          .error,
      ).not.toBeNull();
      expect(
        (await client.from('access_log').delete().eq('customer_id', customerId)).error,
      ).not.toBeNull();
      expect(
        (await client.from('erasures').delete().eq('customer_id', customerId)).error,
      ).not.toBeNull();
    }
    const { rows } = await server.db.query<{ n: number }>(
      'select count(*)::integer as n from public.access_log where customer_id = $1',
      [customerId],
    );
    expect(rows[0]?.n).toBeGreaterThanOrEqual(5);
  });

  it('stores a lead of the erased person sent again later as a new lead of a new customer', async () => {
    const answer = await postLeads(server.url, [first]);
    expect(answer.results[0]?.status).toBe('created');
    const { rows } = await server.db.query<{ id: number; city: string | null }>(
      'select id, city from public.users where email = $1',
      [email],
    );
    expect(rows).toHaveLength(1);
    // A new customer: a new number, the lead's own details, not the erased record's edit.
    expect(rows[0]!.id).not.toBe(customerId);
    expect(rows[0]!.city).toBe('Berlin');
    const leads = await server.db.query<{ client_id: string }>(
      'select client_id from public.responses where user_id = $1',
      [rows[0]!.id],
    );
    expect(leads.rows).toEqual([{ client_id: first.client_id }]);
  });
});
