import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { readConversion, type AnalysisFilter } from '../../src/desk/api/analysis.ts';
import { readCustomerResponses } from '../../src/desk/api/customers.ts';
import {
  readLeadStatusCounts,
  readLeadStatusHistory,
  setLeadStatus,
} from '../../src/desk/api/lead-status.ts';
import { readStaffDirectory } from '../../src/desk/api/staff-directory.ts';
import {
  contactLead,
  kfzLead,
  questionnaireLead,
  uniqueEmail,
} from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// A lead's status, its history, the counts per status and Analyse's conversion (migration
// 20261126100000_lead_status.sql), on both databases, through the real supabase-js as the desk
// calls them.

// Every fixture lead is captured on 2026-11-22 (Berlin).
const captureDay: AnalysisFilter = {
  dayFrom: '2026-11-22',
  dayTo: '2026-11-22',
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
  const body = (await res.json()) as { results: { status: string }[] };
  expect(body.results.map((result) => result.status)).toEqual(submissions.map(() => 'created'));
}

describe.each(['pglite', 'postgres'] as const)('lead status on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let admin: SupabaseClient<Database>;
  let staffId: string;
  const email = uniqueEmail('status.person');
  const leads = [
    questionnaireLead({ email, first_name: 'Svenja', last_name: 'Statusberg' }),
    kfzLead({ email, first_name: 'Svenja', last_name: 'Statusberg' }),
  ];
  const others = [
    questionnaireLead({ channel: 'fair_tablet' }),
    contactLead(),
    questionnaireLead({ form_id: 2, answers: [] }),
  ];
  let customerId = 0;
  let questionnaireLeadId = 0;
  let kfzLeadId = 0;

  async function leadId(clientId: string) {
    const { rows } = await server.db.query<{ id: number }>(
      'select id from public.responses where client_id = $1',
      [clientId],
    );
    return rows[0]!.id;
  }

  async function logOf(action: string) {
    const { rows } = await server.db.query<{
      user_id: string;
      customer_id: number;
      detail: object;
    }>(
      `select user_id::text, customer_id, detail from public.access_log
        where action = $1 order by id`,
      [action],
    );
    return rows;
  }

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const staffAccount = await createAccount(server.db, `status-staff-${kind}@example.de`, 'staff');
    staffId = staffAccount.id;
    await server.db.query(
      `update public.staff set display_name = 'Paula Puls' where user_id = $1`,
      [staffId],
    );
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(server.db, `status-admin-${kind}@example.de`, 'admin');
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    await createAccount(server.db, `status-pending-${kind}@example.de`, 'pending');
    await postLeads(server.url, [...leads, ...others]);
    questionnaireLeadId = await leadId(leads[0]!.client_id);
    kfzLeadId = await leadId(leads[1]!.client_id);
    const { rows } = await server.db.query<{ id: number }>(
      'select id from public.users where email = $1',
      [email],
    );
    customerId = rows[0]!.id;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('names staff and admins by display name, else by address, and leaves pending accounts out', async () => {
    const directory = await readStaffDirectory(admin);
    expect(directory).toEqual(
      expect.arrayContaining([
        { user_id: staffId, name: 'Paula Puls', role: 'staff' },
        expect.objectContaining({ name: `status-admin-${kind}@example.de`, role: 'admin' }),
      ]),
    );
    expect(directory.some((entry) => entry.name.startsWith('status-pending'))).toBe(false);
    expect(await readStaffDirectory(staff)).toEqual(directory);
  });

  it('shows every lead as new with no history at first', async () => {
    const shown = await readCustomerResponses(staff, customerId);
    expect(shown.map((lead) => lead.status)).toEqual(['new', 'new']);
    expect(await readLeadStatusHistory(staff, customerId)).toEqual([]);
  });

  it('sets a status with a note: the lead, a history row with who and when, the log without the note', async () => {
    const before = Date.now();
    await setLeadStatus(staff, {
      responseId: questionnaireLeadId,
      status: 'contacted',
      note: '  Rückruf am Dienstag vereinbart  ',
    });
    const shown = await readCustomerResponses(staff, customerId);
    expect(shown.find((lead) => lead.id === questionnaireLeadId)?.status).toBe('contacted');
    expect(shown.find((lead) => lead.id === kfzLeadId)?.status).toBe('new');
    const history = await readLeadStatusHistory(admin, customerId);
    expect(history).toEqual([
      {
        id: expect.any(Number),
        response_id: questionnaireLeadId,
        status: 'contacted',
        note: 'Rückruf am Dienstag vereinbart',
        changed_at: expect.any(String),
        changed_by_name: 'Paula Puls',
      },
    ]);
    expect(Date.parse(history[0]!.changed_at)).toBeGreaterThanOrEqual(before - 5_000);
    const logged = await logOf('lead_status_changed');
    expect(logged).toEqual([
      {
        user_id: staffId,
        customer_id: customerId,
        detail: { response_id: questionnaireLeadId, status: 'contacted' },
      },
    ]);
    const { rows } = await server.db.query(
      `select 1 from public.access_log where detail::text like '%Dienstag%'`,
    );
    expect(rows).toEqual([]);
  });

  it('keeps a note on the same status as a history row, and ignores the same status without one', async () => {
    await setLeadStatus(staff, {
      responseId: questionnaireLeadId,
      status: 'contacted',
      note: 'Nicht erreicht, Mailbox',
    });
    const repeated = await staff.rpc('set_lead_status', {
      response_id: questionnaireLeadId,
      status: 'contacted',
      note: '   ',
    });
    expect(repeated).toMatchObject({ error: null, data: [] });
    await setLeadStatus(admin, { responseId: kfzLeadId, status: 'closed', note: '' });
    const history = await readLeadStatusHistory(staff, customerId);
    // Per lead, oldest first; an empty note is none.
    expect(history.map((change) => [change.response_id, change.status, change.note])).toEqual(
      [
        [questionnaireLeadId, 'contacted', 'Rückruf am Dienstag vereinbart'],
        [questionnaireLeadId, 'contacted', 'Nicht erreicht, Mailbox'],
        [kfzLeadId, 'closed', null],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    expect(await logOf('lead_status_changed')).toHaveLength(3);
  });

  it('refuses an unknown status, a note over 1000 characters and an unknown lead, changing nothing', async () => {
    const unknown = await staff.rpc('set_lead_status', {
      response_id: kfzLeadId,
      status: 'won',
    });
    expect(unknown.error).toMatchObject({ code: '22023' });
    expect(unknown.error?.message).toContain('Unbekannter Status');
    const long = await staff.rpc('set_lead_status', {
      response_id: kfzLeadId,
      status: 'contacted',
      note: 'x'.repeat(1001),
    });
    expect(long.error).toMatchObject({ code: '22023' });
    expect(long.error?.message).toContain('1000 Zeichen');
    const fits = await staff.rpc('set_lead_status', {
      response_id: kfzLeadId,
      status: 'closed',
      note: ` ${'y'.repeat(1000)} `,
    });
    expect(fits.error).toBeNull();
    const missing = await staff.rpc('set_lead_status', {
      response_id: 999_999,
      status: 'contacted',
    });
    expect(missing.error).toMatchObject({ code: 'P0002' });
    const shown = await readCustomerResponses(staff, customerId);
    expect(shown.find((lead) => lead.id === kfzLeadId)?.status).toBe('closed');
    expect(await readLeadStatusHistory(staff, customerId)).toHaveLength(4);
  });

  it('counts the leads per status, all six in order, zeros included', async () => {
    expect(await readLeadStatusCounts(staff)).toEqual({
      new: 3,
      contacted: 1,
      appointment: 0,
      offer_sent: 0,
      closed: 1,
      no_interest: 0,
    });
    const { data } = await staff.rpc('lead_status_counts');
    expect(data?.map((row) => row.status)).toEqual([
      'new',
      'contacted',
      'appointment',
      'offer_sent',
      'closed',
      'no_interest',
    ]);
  });

  it('gives Analyse the closed share per form and per channel for the filter', async () => {
    const tablet = await leadId(others[0]!.client_id);
    await setLeadStatus(staff, { responseId: tablet, status: 'closed', note: '' });
    const rows = await readConversion(staff, captureDay);
    const byForm = rows.filter((row) => row.dimension === 'form');
    expect(byForm).toEqual([
      {
        dimension: 'form',
        source: 'questionnaire',
        form_id: 1,
        form_title: expect.any(String),
        channel: null,
        leads: 2,
        closed: 1,
        rate: 0.5,
      },
      expect.objectContaining({
        source: 'questionnaire',
        form_id: 2,
        leads: 1,
        closed: 0,
        rate: 0,
      }),
      expect.objectContaining({ source: 'contact', form_id: null, leads: 1, closed: 0 }),
      expect.objectContaining({ source: 'kfz', form_id: null, leads: 1, closed: 1, rate: 1 }),
    ]);
    const byChannel = rows.filter((row) => row.dimension === 'channel');
    expect(byChannel).toEqual([
      expect.objectContaining({ channel: 'fair_tablet', source: null, leads: 1, closed: 1 }),
      expect.objectContaining({ channel: 'web', leads: 4, closed: 1, rate: 0.25 }),
    ]);
    // The filter narrows as everywhere in Analyse; another period has no rows at all.
    const tabletOnly = await readConversion(staff, { ...captureDay, channel: 'fair_tablet' });
    expect(tabletOnly.filter((row) => row.dimension === 'channel')).toHaveLength(1);
    const pkv = await readConversion(staff, { ...captureDay, questionnaireId: 2 });
    expect(pkv.filter((row) => row.dimension === 'form')).toEqual([
      expect.objectContaining({ form_id: 2, leads: 1 }),
    ]);
    expect(
      await readConversion(staff, { ...captureDay, dayFrom: '2026-11-23', dayTo: '2026-11-30' }),
    ).toEqual([]);
  });

  it('takes the history with the lead when the lead is deleted', async () => {
    await server.db.query('delete from public.responses where id = $1', [kfzLeadId]);
    const history = await readLeadStatusHistory(staff, customerId);
    expect(history.every((change) => change.response_id === questionnaireLeadId)).toBe(true);
    const { rows } = await server.db.query(
      'select 1 from public.lead_status_changes where response_id = $1',
      [kfzLeadId],
    );
    expect(rows).toEqual([]);
  });
});
