import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { readNewestLeads } from '../../src/desk/api/dashboard.ts';
import {
  assignFollowUps,
  completeFollowUps,
  readFollowUpCounts,
  readFollowUpPage,
  type FollowUpAssignedFilter,
  type FollowUpDueFilter,
} from '../../src/desk/api/follow-ups.ts';
import { kfzLead, questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The dashboard's work list and the follow-up list (20261130110000_follow_up_work_list.sql,
// paged in the database since 20261201110000_desk_volume.sql):
// counts, filters, paging, bulk 'Erledigt' and 'Zuweisen' through the desk's own calls and the
// real supabase-js against the gateway; and 'Neueste Leads' naming a KFZ lead's source.

describe.each(['pglite', 'postgres'] as const)('the follow-up work list on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let admin: SupabaseClient<Database>;
  let pending: SupabaseClient<Database>;
  let staffId = '';
  let adminId = '';
  let pendingId = '';
  let customer = 0;
  /** On a Sunday in Berlin, Sunday's follow-up is today's too. */
  let sunday = false;
  const ids = {} as Record<
    'overdueOpen' | 'overdueMine' | 'overdueAdmin' | 'today' | 'sunday' | 'later' | 'laterAdmin',
    number
  >;

  async function postLead(lead: unknown) {
    const res = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
    expect(res.status).toBe(201);
  }

  /** A follow-up stored as the database owner, due at an SQL expression. */
  async function followUp(body: string, due: string, assignee: string | null): Promise<number> {
    const { rows } = await server.db.query<{ id: number }>(
      `insert into public.follow_ups (customer_id, due_at, body, assignee)
       values ($1, ${due}, $2, $3) returning id`,
      [customer, body, assignee],
    );
    return Number(rows[0]!.id);
  }

  const berlinToday = `(now() at time zone 'Europe/Berlin')::date`;
  const todayEnd = `((${berlinToday} + 1)::timestamp at time zone 'Europe/Berlin')`;
  const sundayEnd = `((${berlinToday} - extract(isodow from ${berlinToday})::integer + 8)::timestamp
                      at time zone 'Europe/Berlin')`;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const staffAccount = await createAccount(server.db, `wl-staff-${kind}@example.de`, 'staff');
    staffId = staffAccount.id;
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(server.db, `wl-admin-${kind}@example.de`, 'admin');
    adminId = adminAccount.id;
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    const pendingAccount = await createAccount(
      server.db,
      `wl-pending-${kind}@example.de`,
      'pending',
    );
    pendingId = pendingAccount.id;
    pending = await supabaseClient(server.url, testSecret, pendingAccount.accessToken);
    await server.db.query(
      `update public.staff set display_name = 'Anna Admin' where user_id = $1`,
      [adminId],
    );
    const lead = questionnaireLead({ first_name: 'Wilma', last_name: 'Liste' });
    await postLead(lead);
    const { rows } = await server.db.query<{ id: number }>(
      'select id from public.users where email = $1',
      [lead.email],
    );
    customer = rows[0]!.id;
    const day = await server.db.query<{ sunday: boolean }>(
      `select extract(isodow from ${berlinToday}) = 7 as sunday`,
    );
    sunday = day.rows[0]!.sunday;
    ids.overdueOpen = await followUp('Seit Juli offen', `now() - interval '120 days'`, null);
    ids.overdueMine = await followUp('Gestern meine', `now() - interval '1 day'`, staffId);
    ids.overdueAdmin = await followUp('Annas überfällige', `now() - interval '2 days'`, adminId);
    // Halfway between now and midnight in Berlin: due for the rest of today.
    ids.today = await followUp('Heute noch', `now() + (${todayEnd} - now()) / 2`, null);
    // Sunday 23:59 in Berlin: this week, whatever day it is (today, on a Sunday).
    ids.sunday = await followUp('Bis Sonntag', `${sundayEnd} - interval '1 minute'`, staffId);
    ids.later = await followUp('In einem Monat', `now() + interval '30 days'`, null);
    ids.laterAdmin = await followUp('Annas später', `now() + interval '40 days'`, adminId);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  const listed = async (
    client: SupabaseClient<Database>,
    assigned: FollowUpAssignedFilter,
    due: FollowUpDueFilter,
  ) => (await readFollowUpPage(client, { assigned, due, page: 1, size: 50 })).rows;

  it('counts the caller’s and nobody’s overdue, today’s and this week’s, and all unassigned', async () => {
    expect(await readFollowUpCounts(staff)).toEqual({
      overdue: 2,
      today: sunday ? 2 : 1,
      thisWeek: 2,
      unassigned: 3,
    });
    // Anna's are hers, not the colleague's; the unassigned ones are everyone's.
    expect(await readFollowUpCounts(admin)).toMatchObject({ overdue: 2, unassigned: 3 });
  });

  it('lists by assignee and by when, the earliest due first, with the names shown', async () => {
    const open = await listed(staff, 'mine_or_unassigned', 'open');
    expect(open.map((item) => item.id)).toEqual([
      ids.overdueOpen,
      ids.overdueMine,
      ids.today,
      ids.sunday,
      ids.later,
    ]);
    expect(open[0]).toMatchObject({
      customer_id: customer,
      customer_name: 'Wilma Liste',
      body: 'Seit Juli offen',
      assignee: null,
      assignee_name: null,
      overdue: true,
      done_at: null,
    });
    expect((await listed(staff, 'mine', 'open')).map((item) => item.id)).toEqual([
      ids.overdueMine,
      ids.sunday,
    ]);
    expect((await listed(staff, 'unassigned', 'open')).map((item) => item.id)).toEqual([
      ids.overdueOpen,
      ids.today,
      ids.later,
    ]);
    const all = await listed(staff, 'all', 'overdue');
    expect(all.map((item) => [item.id, item.assignee_name])).toEqual([
      [ids.overdueOpen, null],
      [ids.overdueAdmin, 'Anna Admin'],
      [ids.overdueMine, `wl-staff-${kind}@example.de`],
    ]);
    expect((await listed(staff, 'mine_or_unassigned', 'today')).map((item) => item.id)).toEqual(
      sunday ? [ids.today, ids.sunday] : [ids.today],
    );
    const week = (await listed(staff, 'all', 'week')).map((item) => item.id);
    expect(week).toEqual([ids.today, ids.sunday]);
  });

  it('pages in the database and counts all that match', async () => {
    const request = { assigned: 'all', due: 'open', size: 3 } as const;
    const first = await readFollowUpPage(staff, { ...request, page: 1 });
    const second = await readFollowUpPage(staff, { ...request, page: 2 });
    expect(first.total).toBe(7);
    expect(second.total).toBe(7);
    expect(first.rows.map((item) => item.id)).toEqual([
      ids.overdueOpen,
      ids.overdueAdmin,
      ids.overdueMine,
    ]);
    expect(second.rows.map((item) => item.id)).toEqual([ids.today, ids.sunday, ids.later]);
    // A page past the end (an old link): no rows, and the total to move back with.
    expect(await readFollowUpPage(staff, { ...request, page: 9 })).toEqual({ rows: [], total: 7 });
  });

  it('orders, pages and counts inside the function, each row with the number of all that match', async () => {
    // 20261201110000_desk_volume.sql: no PostgREST count or range over the whole set.
    const page = await staff.rpc('follow_up_list', {
      assigned: 'all',
      due: 'open',
      page_size: 2,
      page_offset: 3,
    });
    expect(page.error).toBeNull();
    expect(page.data?.map((row) => [row.id, row.total])).toEqual([
      [ids.today, 7],
      [ids.sunday, 7],
    ]);
    for (const bounds of [{ page_size: 0 }, { page_size: 1001 }, { page_offset: -1 }]) {
      const refused = await staff.rpc('follow_up_list', {
        assigned: 'all',
        due: 'open',
        ...bounds,
      });
      expect(refused.error?.code, JSON.stringify(bounds)).toBe('22023');
    }
  });

  it('refuses an unknown filter, and every caller without the role', async () => {
    const unknown = await staff.rpc('follow_up_list', { assigned: 'everybody', due: 'open' });
    expect(unknown.error?.code).toBe('22023');
    for (const client of [pending, await supabaseClient(server.url, testSecret)]) {
      expect((await client.rpc('follow_up_counts')).error?.code).toBe('42501');
      expect((await client.rpc('follow_up_list', {})).error?.code).toBe('42501');
      const done = await client.rpc('complete_follow_ups', { follow_up_ids: [ids.later] });
      expect(done.error?.code).toBe('42501');
    }
  });

  it('gives several follow-ups to a colleague or to nobody, never to a pending account', async () => {
    expect(
      await assignFollowUps(staff, { ids: [ids.later, ids.overdueOpen], assignee: adminId }),
    ).toBe(2);
    expect((await listed(admin, 'mine', 'open')).map((item) => item.id)).toEqual([
      ids.overdueOpen,
      ids.overdueAdmin,
      ids.later,
      ids.laterAdmin,
    ]);
    await expect(
      assignFollowUps(staff, { ids: [ids.later], assignee: pendingId }),
    ).rejects.toMatchObject({ code: '23514' });
    expect(
      await assignFollowUps(admin, { ids: [ids.later, ids.overdueOpen], assignee: null }),
    ).toBe(2);
    expect((await readFollowUpCounts(staff)).unassigned).toBe(3);
    const changes = await server.db.query<{ n: number }>(
      `select count(*)::integer as n from public.follow_up_changes
        where follow_up_id = $1 and 'assignee' = any (changed_fields)`,
      [ids.later],
    );
    expect(changes.rows[0]!.n).toBe(2);
  });

  it('marks several done at once, who did it recorded, and lists them as done', async () => {
    expect(await completeFollowUps(staff, [ids.overdueOpen, ids.overdueMine])).toBe(2);
    // Done already: nothing more to mark.
    expect(await completeFollowUps(admin, [ids.overdueOpen])).toBe(0);
    expect(await readFollowUpCounts(staff)).toMatchObject({ overdue: 0, unassigned: 2 });
    const done = await listed(staff, 'all', 'done');
    expect(done.map((item) => [item.id, item.done_by_name, item.overdue])).toEqual([
      [ids.overdueMine, `wl-staff-${kind}@example.de`, false],
      [ids.overdueOpen, `wl-staff-${kind}@example.de`, false],
    ]);
    expect(done[0]!.done_at).not.toBeNull();
  });

  it('names a KFZ lead’s source among the newest leads, a questionnaire lead its title', async () => {
    await postLead(kfzLead({ first_name: 'Karl', last_name: 'Kfz', call_time: '' }));
    const newest = await readNewestLeads(staff);
    expect(newest.slice(0, 2).map((lead) => [lead.name, lead.source, lead.formTitle])).toEqual([
      ['Karl Kfz', 'kfz', null],
      ['Wilma Liste', 'questionnaire', 'Tabaluga'],
    ]);
  });
});
