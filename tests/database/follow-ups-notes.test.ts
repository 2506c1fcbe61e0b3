import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import {
  addCustomerNote,
  editCustomerNote,
  NoteFixedError,
  readCustomerNotes,
} from '../../src/desk/api/customer-notes.ts';
import {
  completeFollowUp,
  createFollowUp,
  readCustomerFollowUps,
  readFollowUpPage,
} from '../../src/desk/api/follow-ups.ts';
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

// Follow-ups and notes (migration 20261126110000_follow_ups_notes.sql): the callback window in
// Berlin at fixed instants (both changes of the clocks), the automatic follow-up made with a lead
// exactly once, and the desk's calls through the real supabase-js against the gateway. The
// 15-minute rule is tested with a controlled clock: the note's created_at is set back as the
// database owner, as if the author had written it that long ago.

/**
 * The caller's and nobody's open follow-ups due by the end of today in Berlin, the oldest first:
 * the overdue ones, then today's, as the work list and the bell read them (follow_up_list).
 */
async function dueByTonight(client: SupabaseClient<Database>) {
  const page = { assigned: 'mine_or_unassigned', page: 1, size: 1000 } as const;
  const overdue = await readFollowUpPage(client, { ...page, due: 'overdue' });
  const today = await readFollowUpPage(client, { ...page, due: 'today' });
  return [...overdue.rows, ...today.rows];
}

describe.each(['pglite', 'postgres'] as const)('follow-ups and notes on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let admin: SupabaseClient<Database>;
  let staffId = '';
  let adminId = '';
  let pendingId = '';

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const staffAccount = await createAccount(server.db, `wv-staff-${kind}@example.de`, 'staff');
    staffId = staffAccount.id;
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(server.db, `wv-admin-${kind}@example.de`, 'admin');
    adminId = adminAccount.id;
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    pendingId = (await createAccount(server.db, `wv-pending-${kind}@example.de`, 'pending')).id;
    await server.db.query(
      `update public.staff set display_name = 'Anna Admin' where user_id = $1`,
      [adminId],
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  async function dueAt(callTime: string | null, storedAt: string): Promise<string | null> {
    const { rows } = await server.db.query<{ due: string | null }>(
      `select to_char(public.callback_due_at($1, $2::timestamptz) at time zone 'UTC',
                      'YYYY-MM-DD"T"HH24:MI:SS"Z"') as due`,
      [callTime, storedAt],
    );
    return rows[0]!.due;
  }

  async function postBatch(submissions: unknown[]) {
    const res = await fetch(`${server.url}/api/responses/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submissions }),
    });
    expect(res.status).toBe(200);
  }

  async function customerOf(email: string): Promise<number> {
    const { rows } = await server.db.query<{ id: number }>(
      'select id from public.users where email = $1',
      [email],
    );
    return rows[0]!.id;
  }

  describe('the callback window in Berlin', () => {
    it('is the start of the next window on a working day, or the arrival inside one', async () => {
      // Wednesday 25.11.2026, winter time (UTC+1).
      expect(await dueAt('Nachmittags', '2026-11-25T08:00:00Z')).toBe('2026-11-25T13:00:00Z');
      expect(await dueAt('Nachmittags', '2026-11-25T14:10:00Z')).toBe('2026-11-25T14:10:00Z');
      // At 17:00 the afternoon has ended: the next afternoon.
      expect(await dueAt('Nachmittags', '2026-11-25T16:00:00Z')).toBe('2026-11-26T13:00:00Z');
      expect(await dueAt('Morgens', '2026-11-25T06:59:00Z')).toBe('2026-11-25T07:00:00Z');
      expect(await dueAt('Mittags', '2026-11-25T12:30:00Z')).toBe('2026-11-25T12:30:00Z');
      expect(await dueAt('Abends', '2026-11-25T19:30:00Z')).toBe('2026-11-26T16:00:00Z');
      // Summer time (UTC+2).
      expect(await dueAt('Morgens', '2026-07-14T05:00:00Z')).toBe('2026-07-14T06:00:00Z');
    });

    it('skips the weekend and stays right across both changes of the clocks', async () => {
      // Friday 27.03.2026 21:00 CET; the clocks go forward on Sunday: Monday 08:00 CEST.
      expect(await dueAt('Morgens', '2026-03-27T20:00:00Z')).toBe('2026-03-30T06:00:00Z');
      // Saturday 28.03.2026: Monday evening in summer time.
      expect(await dueAt('Abends', '2026-03-28T10:00:00Z')).toBe('2026-03-30T15:00:00Z');
      // Friday 23.10.2026 18:30 CEST; the clocks go back on Sunday: Monday 14:00 CET.
      expect(await dueAt('Nachmittags', '2026-10-23T16:30:00Z')).toBe('2026-10-26T13:00:00Z');
      // Sunday 25.10.2026, the day of the change itself: Monday morning in winter time.
      expect(await dueAt('Morgens', '2026-10-25T01:30:00Z')).toBe('2026-10-26T07:00:00Z');
    });

    it('has no time for no or an unknown wish, and names the window in the text', async () => {
      expect(await dueAt(null, '2026-11-25T08:00:00Z')).toBeNull();
      expect(await dueAt('Nachts', '2026-11-25T08:00:00Z')).toBeNull();
      const { rows } = await server.db.query<{ body: string }>(
        `select public.callback_follow_up_body('Nachmittags') as body`,
      );
      expect(rows[0]!.body).toBe('Rückruf gewünscht: Nachmittags (14–17 Uhr)');
    });
  });

  describe('the automatic follow-up', () => {
    it('comes once with a KFZ or contact lead with a callback wish, even when sent again', async () => {
      const kfz = kfzLead({ call_time: 'Nachmittags' });
      const contact = contactLead({ call_time: 'Morgens' });
      const noWish = kfzLead({ call_time: '' });
      const questionnaire = questionnaireLead();
      await postBatch([kfz, contact, noWish, questionnaire]);
      await postBatch([kfz, contact]);
      const { rows } = await server.db.query<{
        email: string;
        body: string;
        automatic: boolean;
        assignee: string | null;
        created_by: string | null;
        on_time: boolean;
      }>(
        `select r.email, f.body, f.automatic, f.assignee::text, f.created_by::text,
                f.due_at = public.callback_due_at(r.call_time, r.received_at) as on_time
           from public.follow_ups f join public.responses r on r.id = f.response_id
          where r.email = any($1) order by r.email`,
        [[kfz.email, contact.email, noWish.email, questionnaire.email]],
      );
      expect(rows).toEqual(
        [
          {
            email: kfz.email,
            body: 'Rückruf gewünscht: Nachmittags (14–17 Uhr)',
            automatic: true,
            assignee: null,
            created_by: null,
            on_time: true,
          },
          {
            email: contact.email,
            body: 'Rückruf gewünscht: Morgens (8–12 Uhr)',
            automatic: true,
            assignee: null,
            created_by: null,
            on_time: true,
          },
        ].sort((a, b) => a.email.localeCompare(b.email)),
      );
    });

    it('stays one per lead: a second automatic one for the same lead is refused', async () => {
      const lead = kfzLead({ call_time: 'Abends' });
      await postBatch([lead]);
      const customer = await customerOf(lead.email);
      const stored = await server.db.query<{ id: number }>(
        'select id from public.responses where email = $1',
        [lead.email],
      );
      await expect(
        server.db.query(
          `insert into public.follow_ups (customer_id, response_id, due_at, automatic)
           values ($1, $2, now(), true)`,
          [customer, stored.rows[0]!.id],
        ),
      ).rejects.toThrow(/follow_ups_one_automatic_per_lead/);
    });
  });

  describe('through supabase-js as the desk calls it', () => {
    it('creates one as the caller, lists it as due and marks it done by the caller', async () => {
      const lead = questionnaireLead({ first_name: 'Fenja', last_name: 'Wiedemann' });
      await postBatch([lead]);
      const customer = await customerOf(lead.email);
      const now = Date.now();
      const overdueId = await createFollowUp(staff, {
        customerId: customer,
        responseId: null,
        dueAt: new Date(now - 3600_000).toISOString(),
        assignee: staffId,
        body: 'Angebot nachfassen',
      });
      const laterId = await createFollowUp(staff, {
        customerId: customer,
        responseId: null,
        dueAt: new Date(now + 3 * 86_400_000).toISOString(),
        assignee: null,
        body: 'In drei Tagen',
      });
      const forAdminId = await createFollowUp(staff, {
        customerId: customer,
        responseId: null,
        dueAt: new Date(now - 60_000).toISOString(),
        assignee: adminId,
        body: 'Für Anna',
      });
      const row = await server.db.query<{ created_by: string; done_at: string | null }>(
        'select created_by::text, done_at from public.follow_ups where id = $1',
        [overdueId],
      );
      expect(row.rows[0]).toEqual({ created_by: staffId, done_at: null });

      const due = await dueByTonight(staff);
      const mine = due.filter((item) => item.customer_id === customer);
      expect(mine).toEqual([
        expect.objectContaining({
          id: overdueId,
          customer_name: 'Fenja Wiedemann',
          body: 'Angebot nachfassen',
          assignee: staffId,
          assignee_name: `wv-staff-${kind}@example.de`,
          overdue: true,
        }),
      ]);
      const adminDue = (await dueByTonight(admin)).filter((i) => i.customer_id === customer);
      expect(adminDue.map((item) => [item.id, item.assignee_name])).toEqual([
        [forAdminId, 'Anna Admin'],
      ]);
      const open = await readCustomerFollowUps(staff, customer);
      expect(open.map((item) => item.id)).toEqual([overdueId, forAdminId, laterId]);

      expect(await completeFollowUp(staff, overdueId)).toBe(true);
      expect(await completeFollowUp(admin, overdueId)).toBe(false);
      const done = await server.db.query<{ done_by: string; done: boolean }>(
        'select done_by::text, done_at is not null as done from public.follow_ups where id = $1',
        [overdueId],
      );
      expect(done.rows[0]).toEqual({ done_by: staffId, done: true });
      expect((await dueByTonight(staff)).map((item) => item.id)).not.toContain(overdueId);
      const reopened = await staff.rpc('reopen_follow_up', { follow_up_id: overdueId });
      expect(reopened).toMatchObject({ data: true, error: null });
      expect((await dueByTonight(staff)).map((item) => item.id)).toContain(overdueId);
    });

    it('refuses an assignee who is not enabled, a foreign lead, and a forged author', async () => {
      const lead = questionnaireLead();
      const other = kfzLead({ call_time: 'Morgens' });
      await postBatch([lead, other]);
      const customer = await customerOf(lead.email);
      const otherLead = await server.db.query<{ id: number }>(
        'select id from public.responses where email = $1',
        [other.email],
      );
      const base = { customerId: customer, responseId: null, dueAt: new Date().toISOString() };
      await expect(
        createFollowUp(staff, { ...base, assignee: pendingId, body: 'x' }),
      ).rejects.toMatchObject({ message: 'Zuständig kann nur ein freigeschaltetes Konto sein.' });
      await expect(
        createFollowUp(staff, {
          ...base,
          responseId: otherLead.rows[0]!.id,
          assignee: null,
          body: '',
        }),
      ).rejects.toMatchObject({ message: 'Der Lead gehört nicht zu diesem Kunden.' });
      await expect(
        createFollowUp(staff, { ...base, assignee: null, body: 'x'.repeat(501) }),
      ).rejects.toMatchObject({ code: '23514' });
      const forged = await staff.from('follow_ups').insert({
        customer_id: customer,
        due_at: new Date().toISOString(),
        created_by: adminId,
      });
      expect(forged.error?.code).toBe('42501');
      const forgedDone = await staff
        .from('follow_ups')
        .update({ done_at: new Date().toISOString() })
        .eq('customer_id', customer);
      expect(forgedDone.error?.code).toBe('42501');
    });

    it('lists the enabled accounts to assign, with their names', async () => {
      const accounts = await readStaffDirectory(staff);
      const names = accounts.map((account) => account.name);
      expect(names).toContain('Anna Admin');
      expect(names).toContain(`wv-staff-${kind}@example.de`);
      expect(names).not.toContain(`wv-pending-${kind}@example.de`);
    });
  });

  describe('notes', () => {
    it('lists newest first with author, lets the author edit for 15 minutes, then not', async () => {
      const email = uniqueEmail('notiz');
      await postBatch([questionnaireLead({ email })]);
      const customer = await customerOf(email);
      await addCustomerNote(admin, customer, 'Erste Notiz');
      await addCustomerNote(staff, customer, '  Ruft morgen zurück  ');
      let notes = await readCustomerNotes(staff, customer);
      expect(notes.map((n) => [n.body, n.author_name, n.mine, n.updated_at])).toEqual([
        ['Ruft morgen zurück', `wv-staff-${kind}@example.de`, true, null],
        ['Erste Notiz', 'Anna Admin', false, null],
      ]);
      const own = notes[0]!;
      await editCustomerNote(staff, own.id, 'Ruft übermorgen zurück');
      // Somebody else's note: no row matches, the same German message.
      await expect(editCustomerNote(staff, notes[1]!.id, 'fremd')).rejects.toThrow(NoteFixedError);
      notes = await readCustomerNotes(staff, customer);
      expect(notes[0]).toMatchObject({
        body: 'Ruft übermorgen zurück',
        updated_at: expect.any(String),
      });

      // 14 minutes on: still the author's to change.
      await server.db.query(
        `update public.customer_notes set created_at = now() - interval '14 minutes' where id = $1`,
        [own.id],
      );
      await editCustomerNote(staff, own.id, 'Ruft Freitag zurück');
      // 16 minutes on: fixed, for editing and deleting.
      await server.db.query(
        `update public.customer_notes set created_at = now() - interval '16 minutes' where id = $1`,
        [own.id],
      );
      await expect(editCustomerNote(staff, own.id, 'zu spät')).rejects.toThrow(
        'Notizen sind nach 15 Minuten fest.',
      );
      const removed = await staff.from('customer_notes').delete().eq('id', own.id).select('id');
      expect(removed.data).toEqual([]);
      const kept = await server.db.query<{ body: string }>(
        'select body from public.customer_notes where id = $1',
        [own.id],
      );
      expect(kept.rows[0]!.body).toBe('Ruft Freitag zurück');
    });

    it('keeps a note’s customer, author and time, and refuses an empty note', async () => {
      const email = uniqueEmail('notiz.fest');
      await postBatch([questionnaireLead({ email })]);
      const customer = await customerOf(email);
      await addCustomerNote(staff, customer, 'Notiz');
      const [own] = await readCustomerNotes(staff, customer);
      const moved = await staff
        .from('customer_notes')
        .update({ author: adminId })
        .eq('id', own!.id);
      expect(moved.error?.code).toBe('42501');
      await expect(addCustomerNote(staff, customer, '   ')).rejects.toMatchObject({
        code: '23514',
      });
    });
  });
});
