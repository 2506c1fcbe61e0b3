import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import {
  createAccount,
  startGatewayServer,
  type Account,
  type AccountRole,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The database side of Survey Desk's core (supabase/migrations/20261123120000_desk_core.sql):
// staff approval through staff_accounts() and set_staff_role(), the last admin kept by a trigger,
// and the support form's messages. Driven through the real supabase-js over HTTP, so that the
// grants, policies and SQLSTATEs are exactly what the desk gets.

const lastAdminMessage = 'Der letzte Admin kann nicht entfernt oder herabgestuft werden.';

// Defined only where it can run, instead of reported as skipped on PGlite.
const onPostgres = (kind: 'pglite' | 'postgres') =>
  kind === 'postgres' ? it : (..._notDefined: Parameters<typeof it>) => undefined;

describe.each(['pglite', 'postgres'] as const)('Survey Desk database on %s', (kind) => {
  let server: GatewayServer;
  let db: Database;
  let anon: SupabaseClient;
  let counter = 0;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    db = server.db;
    anon = await supabaseClient(server.url, testSecret);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  /** A fresh account and a supabase-js client signed in as it. */
  async function signedIn(role: AccountRole, name: string = role) {
    counter += 1;
    const account = await createAccount(db, `${name}-${counter}-${kind}@example.de`, role);
    const client = await supabaseClient(server.url, testSecret, account.accessToken);
    return { account, client };
  }

  async function roleOf(account: Account): Promise<string | undefined> {
    const { rows } = await db.query<{ role: string }>(
      'select role from public.staff where user_id = $1',
      [account.id],
    );
    return rows[0]?.role;
  }

  async function admins(): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      `select user_id::text from public.staff where role = 'admin' order by 1`,
    );
    return rows.map((row) => row.user_id);
  }

  /** Leaves `accounts` as the only admins (as the database owner; the trigger allows it). */
  async function onlyAdmins(...accounts: Account[]) {
    const ids = accounts.map((account) => account.id);
    await db.query(`update public.staff set role = 'admin' where user_id = any($1::uuid[])`, [ids]);
    await db.query(
      `update public.staff set role = 'staff' where role = 'admin' and user_id <> all($1::uuid[])`,
      [ids],
    );
    expect(await admins()).toEqual([...ids].sort());
  }

  describe('staff_accounts()', () => {
    it('lists every account for an admin, with e-mail, registration, confirmation and role', async () => {
      const { client } = await signedIn('admin');
      const { account: pending } = await signedIn('pending');
      const { account: staff } = await signedIn('staff');
      const unconfirmed = await db.query<{ id: string; created_at: Date }>(
        `insert into auth.users (email, encrypted_password)
         values ($1, 'not-used') returning id::text, created_at`,
        [`unbestaetigt-${kind}@example.de`],
      );

      const { data, error } = await client.rpc('staff_accounts');
      expect(error).toBeNull();
      const rows = data as Array<Record<string, unknown>>;
      const row = (id: string) => rows.find((candidate) => candidate.user_id === id);
      expect(row(pending.id)).toEqual({
        user_id: pending.id,
        email: pending.email,
        registered_at: expect.any(String),
        confirmed_at: expect.any(String),
        role: 'pending',
      });
      expect(row(staff.id)).toMatchObject({ email: staff.email, role: 'staff' });
      expect(row(unconfirmed.rows[0]!.id)).toMatchObject({ role: 'pending', confirmed_at: null });
      expect(new Date(row(unconfirmed.rows[0]!.id)!.registered_at as string).getTime()).toBe(
        unconfirmed.rows[0]!.created_at.getTime(),
      );
      // The seeded admin is an account too.
      expect(rows.map((r) => r.email)).toContain('admin@example.de');
    });

    it('gives the dashboard the accounts awaiting approval', async () => {
      const { client } = await signedIn('admin');
      const { account: pending } = await signedIn('pending');
      const { data, error } = await client.rpc('staff_accounts').eq('role', 'pending');
      expect(error).toBeNull();
      const rows = data as Array<{ user_id: string; role: string }>;
      expect(rows.map((r) => r.user_id)).toContain(pending.id);
      expect(rows.every((r) => r.role === 'pending')).toBe(true);
    });

    it.each(['pending', 'staff'] as const)('refuses a %s account', async (role) => {
      const { client } = await signedIn(role);
      const { data, error, status } = await client.rpc('staff_accounts');
      expect(data).toBeNull();
      expect(status).toBe(403);
      expect(error).toMatchObject({
        code: '42501',
        message: 'Nur Admins dürfen die Mitarbeiterkonten sehen.',
      });
    });

    it('refuses an anonymous caller', async () => {
      const { data, error, status } = await anon.rpc('staff_accounts');
      expect(data).toBeNull();
      expect(status).toBe(401);
      expect(error).toMatchObject({ code: '42501' });
    });
  });

  describe('set_staff_role()', () => {
    it('lets an admin enable a pending account, which then reads customers', async () => {
      const { client } = await signedIn('admin');
      const { account: pending, client: pendingClient } = await signedIn('pending');
      const before = await pendingClient.from('users').select('id');
      expect(before).toMatchObject({ error: null, data: [] });
      await db.query(
        `insert into public.users (first_name, last_name, email) values ('Erna', 'Kunde', $1)`,
        [`kundin-${kind}@example.de`],
      );

      const { error } = await client.rpc('set_staff_role', { user_id: pending.id, role: 'staff' });
      expect(error).toBeNull();
      expect(await roleOf(pending)).toBe('staff');
      const after = await pendingClient.from('users').select('id');
      expect(after.error).toBeNull();
      expect(after.data!.length).toBeGreaterThan(0);
    });

    it('lets an admin set a role with a plain update of staff too', async () => {
      const { client } = await signedIn('admin');
      const { account: pending } = await signedIn('pending');
      const { data, error } = await client
        .from('staff')
        .update({ role: 'admin' })
        .eq('user_id', pending.id)
        .select('role');
      expect(error).toBeNull();
      expect(data).toEqual([{ role: 'admin' }]);
    });

    it.each(['pending', 'staff'] as const)('refuses a %s account', async (role) => {
      const { account: self, client } = await signedIn(role);
      const { error, status } = await client.rpc('set_staff_role', {
        user_id: self.id,
        role: 'admin',
      });
      expect(status).toBe(403);
      expect(error).toMatchObject({ code: '42501', message: 'Nur Admins dürfen Rollen vergeben.' });
      expect(await roleOf(self)).toBe(role);
    });

    it('refuses an unknown role and an unknown account', async () => {
      const { client } = await signedIn('admin');
      const { account: pending } = await signedIn('pending');
      const unknownRole = await client.rpc('set_staff_role', { user_id: pending.id, role: 'chef' });
      // staff.role is an enum: its input refuses the value (a 400 as the CHECK's 23514 was).
      expect(unknownRole.error).toMatchObject({ code: '22P02' });
      expect(await roleOf(pending)).toBe('pending');
      const unknownAccount = await client.rpc('set_staff_role', {
        user_id: '00000000-0000-4000-8000-000000000000',
        role: 'staff',
      });
      expect(unknownAccount.error).toMatchObject({
        code: 'P0002',
        message: 'Dieses Konto gibt es nicht.',
      });
    });
  });

  describe('the last admin', () => {
    it('cannot be demoted or removed, in any way', async () => {
      const { account: admin, client } = await signedIn('admin');
      await onlyAdmins(admin);
      const refusal = {
        code: 'UL001',
        message: lastAdminMessage,
        hint: 'Zuerst ein anderes Konto zum Admin machen.',
      };

      for (const role of ['staff', 'pending']) {
        const viaFunction = await client.rpc('set_staff_role', { user_id: admin.id, role });
        expect(viaFunction.status).toBe(400);
        expect(viaFunction.error).toMatchObject(refusal);
      }
      const viaUpdate = await client
        .from('staff')
        .update({ role: 'staff' })
        .eq('user_id', admin.id);
      expect(viaUpdate.error).toMatchObject(refusal);
      const viaDelete = await client.from('staff').delete().eq('user_id', admin.id);
      expect(viaDelete.error).toMatchObject(refusal);
      // Deleting the account itself cascades to its staff row.
      await expect(db.query('delete from auth.users where id = $1', [admin.id])).rejects.toThrow(
        lastAdminMessage,
      );
      await expect(
        db.query(`update public.staff set role = 'staff' where user_id = $1`, [admin.id]),
      ).rejects.toMatchObject({ code: 'UL001' });
      expect(await admins()).toEqual([admin.id]);
    });

    it('can be demoted or removed once a second admin exists', async () => {
      const { account: first, client } = await signedIn('admin');
      const { account: second } = await signedIn('admin');
      const { account: third } = await signedIn('admin');
      await onlyAdmins(first, second, third);

      const demoted = await client.rpc('set_staff_role', { user_id: first.id, role: 'staff' });
      expect(demoted.error).toBeNull();
      expect(await roleOf(first)).toBe('staff');

      await db.query('delete from auth.users where id = $1', [second.id]);
      expect(await roleOf(second)).toBeUndefined();
      expect(await admins()).toEqual([third.id]);
    });

    it('stays when two admins demote each other at the same time', async () => {
      const a = await signedIn('admin');
      const b = await signedIn('admin');
      await onlyAdmins(a.account, b.account);

      const results = await Promise.all([
        a.client.rpc('set_staff_role', { user_id: b.account.id, role: 'staff' }),
        b.client.rpc('set_staff_role', { user_id: a.account.id, role: 'staff' }),
      ]);
      const errors = results.map((result) => result.error);
      expect(errors.filter((error) => error === null)).toHaveLength(1);
      // The later one is refused by the trigger, or, when the earlier one committed before it
      // began, because its caller is no admin any more.
      expect(['UL001', '42501']).toContain(errors.find((error) => error !== null)?.code);
      expect(await admins()).toHaveLength(1);
    });

    // PGlite is one connection: only PostgreSQL runs two transactions at once. Without the lock
    // each would still see the other's uncommitted row as admin, and both would commit.
    onPostgres(kind)('makes a second demotion wait for the first and then refuses it', async () => {
      const { account: a } = await signedIn('admin');
      const { account: b } = await signedIn('admin');
      await onlyAdmins(a, b);
      const demote = `update public.staff set role = 'staff' where user_id = $1`;

      let commitFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
      let firstUpdated!: () => void;
      const firstHasUpdated = new Promise<void>((resolve) => (firstUpdated = resolve));
      const first = db.transaction(async (tx) => {
        await tx.query(demote, [a.id]);
        firstUpdated();
        await firstMayCommit;
      });
      await firstHasUpdated;

      let secondSettled = false;
      const second = db
        .transaction((tx) => tx.query(demote, [b.id]))
        .finally(() => (secondSettled = true));
      const secondOutcome = second.then(
        () => undefined,
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondSettled).toBe(false);

      commitFirst();
      await first;
      expect(await secondOutcome).toMatchObject({ code: 'UL001' });
      expect(await admins()).toEqual([b.id]);
    });

    onPostgres(kind)(
      'makes a role change wait for one in flight, then reads its caller anew',
      async () => {
        const a = await signedIn('admin');
        const b = await signedIn('admin');
        await onlyAdmins(a.account, b.account);

        let commitFirst!: () => void;
        const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
        let firstUpdated!: () => void;
        const firstHasUpdated = new Promise<void>((resolve) => (firstUpdated = resolve));
        const first = db.transaction(async (tx) => {
          await tx.query(`update public.staff set role = 'staff' where user_id = $1`, [
            b.account.id,
          ]);
          firstUpdated();
          await firstMayCommit;
        });
        await firstHasUpdated;

        // b, still an admin in every committed row, demotes a while a's demotion of b is open.
        let secondSettled = false;
        const second = b.client
          .rpc('set_staff_role', { user_id: a.account.id, role: 'staff' })
          .then((result) => {
            secondSettled = true;
            return result;
          });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(secondSettled).toBe(false);

        commitFirst();
        await first;
        // Refused because b is no admin any more, read after the first change committed; not the
        // trigger's last-admin refusal of a change it should never have started.
        expect((await second).error?.code).toBe('42501');
        expect(await admins()).toEqual([a.account.id]);
      },
    );
  });

  describe('support_messages', () => {
    const message = (overrides: Record<string, unknown> = {}) => ({
      name: 'Mia Muster',
      email: 'mia@example.de',
      message: 'Wie exportiere ich Kundendaten als PDF?',
      ...overrides,
    });

    it('takes a message from staff and admins, in their own name and address, whatever was typed', async () => {
      for (const role of ['staff', 'admin'] as const) {
        const { account, client } = await signedIn(role, `support-${role}`);
        const text = `Frage von ${account.email}`;
        const { error, status } = await client
          .from('support_messages')
          .insert(message({ message: text }));
        expect(error).toBeNull();
        expect(status).toBe(201);
        const stored = await db.query(
          'select user_id::text, name, email, message from public.support_messages where message = $1',
          [text],
        );
        // The account has no display name: its address names it (issue 32, item 8).
        expect(stored.rows).toEqual([
          { user_id: account.id, name: account.email, email: account.email, message: text },
        ]);
      }
    });

    it('refuses a message in somebody else’s name', async () => {
      const { client } = await signedIn('staff');
      const { account: other } = await signedIn('staff');
      const { error, status } = await client
        .from('support_messages')
        .insert(message({ user_id: other.id }));
      expect(status).toBe(403);
      expect(error).toMatchObject({ code: '42501' });
    });

    it('refuses a message from a pending account and from an anonymous caller', async () => {
      const { client } = await signedIn('pending');
      const fromPending = await client.from('support_messages').insert(message());
      expect(fromPending.status).toBe(403);
      expect(fromPending.error).toMatchObject({ code: '42501' });
      const fromAnon = await anon.from('support_messages').insert(message());
      expect(fromAnon.status).toBe(401);
      expect(fromAnon.error).toMatchObject({ code: '42501' });
    });

    it('refuses an empty or an overlong message', async () => {
      const { client } = await signedIn('staff');
      for (const text of ['', '   ', 'x'.repeat(5001)]) {
        const { error } = await client.from('support_messages').insert(message({ message: text }));
        expect(error).toMatchObject({ code: '23514' });
      }
      const longest = await client
        .from('support_messages')
        .insert(message({ message: 'x'.repeat(5000) }));
      expect(longest.error).toBeNull();
    });

    it('shows messages to admins only', async () => {
      const { account: sender, client: staff } = await signedIn('staff');
      const text = `Nur für Admins ${kind}`;
      expect((await staff.from('support_messages').insert(message({ message: text }))).error).toBe(
        null,
      );

      const asStaff = await staff.from('support_messages').select('*').eq('message', text);
      expect(asStaff).toMatchObject({ error: null, data: [] });
      const { client: pending } = await signedIn('pending');
      const asPending = await pending.from('support_messages').select('*').eq('message', text);
      expect(asPending).toMatchObject({ error: null, data: [] });
      const asAnon = await anon.from('support_messages').select('*');
      expect(asAnon.error).toMatchObject({ code: '42501' });

      const { client: admin } = await signedIn('admin');
      const asAdmin = await admin
        .from('support_messages')
        .select('name, email, message, created_at')
        .eq('message', text);
      expect(asAdmin.error).toBeNull();
      expect(asAdmin.data).toEqual([
        {
          name: sender.email,
          email: sender.email,
          message: text,
          created_at: expect.any(String),
        },
      ]);
    });

    /** A message sent by a fresh staff account, with its id. */
    async function sentMessage(text: string): Promise<number> {
      const { client } = await signedIn('staff', 'support-sender');
      expect((await client.from('support_messages').insert(message({ message: text }))).error).toBe(
        null,
      );
      const { rows } = await db.query<{ id: number }>(
        'select id::int from public.support_messages where message = $1',
        [text],
      );
      return rows[0]!.id;
    }

    async function stateOf(id: number) {
      const { rows } = await db.query<Record<string, unknown>>(
        `select name, email, message, user_id::text, created_at,
                read_at, read_by::text, done_at, done_by::text
           from public.support_messages where id = $1`,
        [id],
      );
      return rows[0]!;
    }

    it('lets an admin mark a message read and done, stamped by the database, and undo both', async () => {
      const id = await sentMessage(`Zustand ${kind}`);
      const { account, client } = await signedIn('admin');
      const before = await stateOf(id);
      expect(before).toMatchObject({ read_at: null, read_by: null, done_at: null, done_by: null });

      // The time the browser sends is not taken: the database records its own and the caller.
      const read = await client
        .from('support_messages')
        .update({ read_at: '2000-01-01T00:00:00Z' })
        .eq('id', id)
        .select('id, read_at');
      expect(read.error).toBeNull();
      expect(read.data).toHaveLength(1);
      const afterRead = await stateOf(id);
      expect(afterRead.read_by).toBe(account.id);
      expect((afterRead.read_at as Date).getFullYear()).toBeGreaterThan(2000);

      // Done implies read; undoing done leaves it read, undoing read clears who read it.
      await db.query('update public.support_messages set read_at = null where id = $1', [id]);
      const done = await client
        .from('support_messages')
        .update({ done_at: new Date().toISOString() })
        .eq('id', id)
        .select('id');
      expect(done).toMatchObject({ error: null, data: [{ id }] });
      expect(await stateOf(id)).toMatchObject({
        read_by: account.id,
        done_by: account.id,
        read_at: expect.any(Date),
        done_at: expect.any(Date),
      });
      const reopened = await client.from('support_messages').update({ done_at: null }).eq('id', id);
      expect(reopened.error).toBeNull();
      expect(await stateOf(id)).toMatchObject({
        done_at: null,
        done_by: null,
        read_by: account.id,
      });
      const unread = await client.from('support_messages').update({ read_at: null }).eq('id', id);
      expect(unread.error).toBeNull();
      expect(await stateOf(id)).toMatchObject({ read_at: null, read_by: null });

      // The message itself is untouched by all of it.
      const after = await stateOf(id);
      for (const column of ['name', 'email', 'message', 'user_id', 'created_at']) {
        expect(after[column]).toEqual(before[column]);
      }
    });

    it('refuses an admin any change to the message, its sender or who marked it', async () => {
      const text = `Unverändert ${kind}`;
      const id = await sentMessage(text);
      const { client } = await signedIn('admin');
      const { account: other } = await signedIn('admin');
      for (const change of [
        { message: 'Umgeschrieben' },
        { name: 'Jemand anderes' },
        { email: 'anders@example.de' },
        { user_id: other.id },
        { created_at: '2020-01-01T00:00:00Z' },
        { read_by: other.id },
        { done_by: other.id },
        { message: 'Umgeschrieben', read_at: new Date().toISOString() },
      ]) {
        const { error, status } = await client.from('support_messages').update(change).eq('id', id);
        expect(status, JSON.stringify(change)).toBe(403);
        expect(error).toMatchObject({ code: '42501' });
      }
      const deleted = await client.from('support_messages').delete().eq('id', id);
      expect(deleted.error).toMatchObject({ code: '42501' });
      expect(await stateOf(id)).toMatchObject({ message: text, read_at: null, done_at: null });
    });

    it('lets neither staff, a pending account nor anon read the state or mark a message', async () => {
      const id = await sentMessage(`Nicht für Mitarbeiter ${kind}`);
      const { client: staff } = await signedIn('staff');
      const { client: pending } = await signedIn('pending');
      for (const client of [staff, pending]) {
        // Row-level security hides the row: nothing updated, nothing read.
        const marked = await client
          .from('support_messages')
          .update({ read_at: new Date().toISOString(), done_at: new Date().toISOString() })
          .eq('id', id)
          .select('id');
        expect(marked).toMatchObject({ error: null, data: [] });
        const unread = await client
          .from('support_messages')
          .select('id', { count: 'exact', head: true })
          .is('read_at', null);
        expect(unread).toMatchObject({ error: null, count: 0 });
        // And the text stays out of reach as it was.
        const rewrite = await client
          .from('support_messages')
          .update({ message: 'Umgeschrieben' })
          .eq('id', id);
        expect(rewrite.error).toMatchObject({ code: '42501' });
      }
      const fromAnon = await anon
        .from('support_messages')
        .update({ read_at: new Date().toISOString() })
        .eq('id', id);
      expect(fromAnon.status).toBe(401);
      expect(fromAnon.error).toMatchObject({ code: '42501' });
      const anonCount = await anon
        .from('support_messages')
        .select('id', { count: 'exact', head: true });
      expect(anonCount.status).toBe(401);
      expect(await stateOf(id)).toMatchObject({ read_at: null, done_at: null });
    });

    it('refuses a message sent already read or done, or with a time of its own', async () => {
      const { client } = await signedIn('staff');
      const now = new Date().toISOString();
      for (const extra of [
        { read_at: now },
        { done_at: now },
        { created_at: '2020-01-01T00:00:00Z' },
      ]) {
        const { error, status } = await client
          .from('support_messages')
          .insert(message({ message: `Vorab ${JSON.stringify(extra)}`, ...extra }));
        expect(status, JSON.stringify(extra)).toBe(403);
        expect(error).toMatchObject({ code: '42501' });
      }
    });

    it('gives an admin the unread count the bell shows', async () => {
      const { client } = await signedIn('admin');
      const count = async () => {
        const { count, error } = await client
          .from('support_messages')
          .select('id', { count: 'exact', head: true })
          .is('read_at', null);
        expect(error).toBeNull();
        return count;
      };
      const before = await count();
      const id = await sentMessage(`Glocke ${kind}`);
      expect(await count()).toBe(before! + 1);
      await client.from('support_messages').update({ read_at: 'now' }).eq('id', id);
      expect(await count()).toBe(before);
    });

    it('keeps a message when its sender’s account is deleted', async () => {
      const { account, client } = await signedIn('staff');
      const text = `Bleibt ${kind}`;
      expect((await client.from('support_messages').insert(message({ message: text }))).error).toBe(
        null,
      );
      await db.query('delete from auth.users where id = $1', [account.id]);
      const stored = await db.query(
        'select user_id from public.support_messages where message = $1',
        [text],
      );
      expect(stored.rows).toEqual([{ user_id: null }]);
    });
  });
});
