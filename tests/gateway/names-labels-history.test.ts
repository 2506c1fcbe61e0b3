import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database as Db } from '../../server/db/database.ts';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import { migrationsDir } from '../../server/db/setup.ts';
import type { Database } from '../../src/domain/database.types.ts';
import { readLeadActivity } from '../../src/desk/api/lead-status.ts';
import { messages } from '../../src/domain/messages.ts';
import { kfzLead, questionnaireLead, uniqueEmail } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// Issue 32, items 5 and 8 (migration 20261128120000_names_and_labels.sql), through the real
// supabase-js and the hub over HTTP on both databases: a visitor's name is a name in the hub and
// in the database; a display name is never another account's address or name; a support message
// names its real sender; every change of a follow-up shows in the lead's 'Verlauf' with who and
// when.

/** Item 5's attack: a name that writes a forged line and link into the new-lead mail. */
const forgedName = 'Erika\nIm Survey Desk ansehen: https://evil.example/x';

describe.each(['pglite', 'postgres'] as const)('names, labels and history on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let admin: SupabaseClient<Database>;
  let staffId = '';
  let adminId = '';
  const adminEmail = `nl-admin-${kind}@example.de`;
  const staffEmail = `nl-staff-${kind}@example.de`;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const staffAccount = await createAccount(server.db, staffEmail, 'staff');
    staffId = staffAccount.id;
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(server.db, adminEmail, 'admin');
    adminId = adminAccount.id;
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    await server.db.query(
      `update public.staff set display_name = 'Anna Admin' where user_id = $1`,
      [adminId],
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  async function post(lead: Record<string, unknown>) {
    return fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
  }

  async function customerOf(email: string): Promise<number> {
    const { rows } = await server.db.query<{ id: number }>(
      'select id from public.users where email = $1',
      [email],
    );
    return rows[0]!.id;
  }

  describe('contact names', () => {
    it('the hub refuses the forged name with the field’s message and stores nothing', async () => {
      const email = uniqueEmail('nl-forged');
      const res = await post(questionnaireLead({ email, first_name: forgedName }));
      expect(res.status).toBe(400);
      const details = (await res.json()).error.details as { path: string; message: string }[];
      expect(details).toEqual([{ path: 'first_name', message: messages.firstNameNotAName }]);
      const { rows } = await server.db.query(
        'select 1 from public.responses where email = $1 union all select 1 from public.users where email = $1',
        [email],
      );
      expect(rows).toEqual([]);
    });

    it('the database refuses a customer name with a line break, a link or an address', async () => {
      const email = uniqueEmail('nl-desk');
      expect((await post(kfzLead({ email }))).status).toBe(201);
      const id = await customerOf(email);
      for (const name of [
        forgedName,
        'https://evil.example/x',
        'evil.example',
        'erika@example.de',
        'Erika\u2028Muster',
        'Eri\u202eka',
        ' Erika',
        'E'.repeat(101),
      ]) {
        const { error } = await staff.from('users').update({ last_name: name }).eq('id', id);
        expect(error?.code, name).toBe('23514');
      }
      const { error } = await staff
        .from('users')
        .update({ first_name: 'Dr.-Ing. Hans', last_name: 'O’Brien-Weiß' })
        .eq('id', id);
      expect(error).toBeNull();
    });

    it('the database refuses a lead whose name is no name, however it arrives', async () => {
      await expect(
        server.db.query(
          `insert into public.responses (client_id, payload_hash, form_id, source, first_name,
             last_name, email, phone, terms_accepted, data_processing_consent, create_date,
             changed_date)
           values (gen_random_uuid(), 'x', 1, 'questionnaire', $1, 'Muster', 'x@example.de',
             '030 1234567', true, true, now(), now())`,
          [forgedName],
        ),
      ).rejects.toMatchObject({ code: '23514' });
    });
  });

  describe('display names', () => {
    it('refuses another account’s address, name, any address and a line break', async () => {
      for (const [name, code] of [
        [adminEmail, '22023'],
        [adminEmail.toUpperCase(), '22023'],
        ['support@example.de', '22023'],
        ['Anna Admin', '23505'],
        [' anna admin ', '23505'],
        ['Anna\nAdmin', '22023'],
        ['Anna\u202eAdmin', '22023'],
      ] as const) {
        const { error } = await staff.rpc('set_display_name', { name });
        expect(error?.code, name).toBe(code);
      }
      const { rows } = await server.db.query<{ display_name: string | null }>(
        'select display_name from public.staff where user_id = $1',
        [staffId],
      );
      expect(rows[0]!.display_name).toBeNull();
      const { data, error } = await staff.rpc('set_display_name', { name: 'Sam Staff' });
      expect(error).toBeNull();
      expect(data).toBe('Sam Staff');
      // Its own name again is no clash.
      expect((await staff.rpc('set_display_name', { name: 'Sam Staff' })).error).toBeNull();
    });

    it('the database keeps any address out of a display name, whoever writes it', async () => {
      const { error } = await admin
        .from('staff')
        .update({ display_name: adminEmail })
        .eq('user_id', staffId);
      expect(error?.code).toBe('23514');
    });
  });

  describe('support messages', () => {
    it('carry the sender’s own name and address, whatever the form sent', async () => {
      await server.db.query(
        `update public.staff set display_name = 'Sam Staff' where user_id = $1`,
        [staffId],
      );
      const text = `Bitte um Hilfe ${kind} ${crypto.randomUUID()}`;
      const { error } = await staff
        .from('support_messages')
        .insert({ name: 'Anna Admin', email: adminEmail, message: text });
      expect(error).toBeNull();
      const { data } = await admin
        .from('support_messages')
        .select('name, email')
        .eq('message', text)
        .single();
      expect(data).toEqual({ name: 'Sam Staff', email: staffEmail });
    });
  });

  describe('follow-up history', () => {
    it('shows every change of a lead’s follow-up in the Verlauf with who and when', async () => {
      const email = uniqueEmail('nl-wv');
      expect((await post(kfzLead({ email, call_time: '' }))).status).toBe(201);
      const customerId = await customerOf(email);
      const { rows } = await server.db.query<{ id: number }>(
        'select id from public.responses where user_id = $1',
        [customerId],
      );
      const responseId = rows[0]!.id;
      const made = await staff
        .from('follow_ups')
        .insert({
          customer_id: customerId,
          response_id: responseId,
          due_at: '2026-12-01T09:00:00Z',
          body: 'Angebot besprechen',
        })
        .select('id')
        .single();
      expect(made.error).toBeNull();
      const id = made.data!.id;

      // Any colleague may change it; now it says who did.
      const changed = await admin
        .from('follow_ups')
        .update({ body: 'Angebot nachfassen', assignee: staffId, due_at: '2026-12-02T10:00:00Z' })
        .eq('id', id)
        .select('id');
      expect(changed.error).toBeNull();
      expect((await staff.rpc('complete_follow_up', { follow_up_id: id })).data).toBe(true);
      expect((await admin.rpc('reopen_follow_up', { follow_up_id: id })).data).toBe(true);

      const activity = (await readLeadActivity(staff, customerId)).filter(
        (entry) => entry.kind !== 'mail_sent',
      );
      expect(activity.map(({ at: _at, ...entry }) => entry)).toEqual([
        {
          response_id: responseId,
          kind: 'follow_up_created',
          by_name: 'Sam Staff',
          body: 'Angebot besprechen',
          due_at: expect.stringMatching(/^2026-12-01T09:00:00/),
          assignee_name: null,
          changed: null,
        },
        {
          response_id: responseId,
          kind: 'follow_up_changed',
          by_name: 'Anna Admin',
          body: 'Angebot nachfassen',
          due_at: expect.stringMatching(/^2026-12-02T10:00:00/),
          assignee_name: 'Sam Staff',
          changed: ['body', 'assignee', 'due_at'],
        },
        {
          response_id: responseId,
          kind: 'follow_up_done',
          by_name: 'Sam Staff',
          body: 'Angebot nachfassen',
          due_at: expect.stringMatching(/^2026-12-02T10:00:00/),
          assignee_name: null,
          changed: null,
        },
        {
          response_id: responseId,
          kind: 'follow_up_reopened',
          by_name: 'Anna Admin',
          body: 'Angebot nachfassen',
          due_at: expect.stringMatching(/^2026-12-02T10:00:00/),
          assignee_name: null,
          changed: null,
        },
      ]);
      const times = activity.map((entry) => Date.parse(entry.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(Date.now() - times[3]!).toBeLessThan(60_000);

      // Only a change of what the follow-up says is one: the same values again add nothing.
      await admin.from('follow_ups').update({ body: 'Angebot nachfassen' }).eq('id', id);
      const again = (await readLeadActivity(staff, customerId)).filter(
        (entry) => entry.kind !== 'mail_sent',
      );
      expect(again).toHaveLength(activity.length);
    });

    it('keeps the history out of every API role’s reach', async () => {
      const { error } = await admin.from('follow_up_changes').select('id');
      expect(error?.code).toBe('42501');
    });
  });
});

// Rows stored before the constraints: made plain by the migration so that it applies.
describe.each(['pglite', 'postgres'] as const)('existing names on %s', (kind) => {
  const localSupabaseFiles = ['supabase-local.sql', 'supabase-local-storage.sql'].map((name) =>
    fileURLToPath(new URL(`../../server/db/${name}`, import.meta.url)),
  );
  let postgres: TestPostgres | undefined;
  let db: Db;

  beforeAll(async () => {
    if (kind === 'postgres') postgres = await startTestPostgres();
    db = await openDatabase(postgres ? { databaseUrl: postgres.url() } : {});
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });

  it('cleans names, display names and support senders, and records done follow-ups', async () => {
    for (const file of localSupabaseFiles) await db.exec(await readFile(file, 'utf8'));
    const all = await readMigrations(migrationsDir);
    const mine = all.findIndex((m) => m.name === 'names_and_labels');
    expect(mine).toBeGreaterThan(0);
    await migrate(db, all.slice(0, mine));

    await db.query(
      `insert into public.forms (id, title) values (1, 'Altbestand') on conflict do nothing`,
    );
    const names = [
      forgedName,
      '  Anna   Maria  ',
      'J.R.R.',
      'evil.example',
      'Eri\u202eka',
      '<<>>',
      'Gerda',
      'Ä'.repeat(120),
    ];
    for (const [index, name] of names.entries()) {
      await db.query(
        `insert into public.users (id, first_name, last_name, email) values ($1, $2, 'Alt', $3)`,
        [1000 + index, name, `alt${index}@example.de`],
      );
      await db.query(
        `insert into public.responses (client_id, payload_hash, form_id, user_id, source,
           first_name, last_name, email, phone, terms_accepted, data_processing_consent,
           create_date, changed_date)
         values (gen_random_uuid(), 'h', 1, $1, 'questionnaire', 'Alt', $2, $3, '030 1', true,
           true, now(), now())`,
        [1000 + index, name, `alt${index}@example.de`],
      );
    }
    await db.query(
      `insert into auth.users (id, email, encrypted_password) values
         ('00000000-0000-4000-8000-000000000001', 'eins@example.de', 'not-used'),
         ('00000000-0000-4000-8000-000000000002', 'zwei@example.de', 'not-used')`,
    );
    await db.query(
      `update public.staff set role = 'staff', display_name = case email
         when 'eins@example.de' then 'chef@example.de' else E'Zwei\\nZeilen' end`,
    );
    await db.query(
      `insert into public.support_messages (user_id, name, email, message)
       values ('00000000-0000-4000-8000-000000000002', 'Admin', 'chef@example.de', 'Hallo')`,
    );
    await db.query(
      `insert into public.follow_ups (customer_id, due_at, body, done_at, done_by)
       values (1000, now(), 'Erledigt', now() - interval '1 day',
               '00000000-0000-4000-8000-000000000001')`,
    );

    await migrate(db, all.slice(0, mine + 1));

    const cleaned = [
      'Erika Im Survey Desk ansehen https evil. example x',
      'Anna Maria',
      'J. R. R.',
      'evil. example',
      'Eri ka',
      'Unbekannt',
      'Gerda',
      'Ä'.repeat(100),
    ];
    const users = await db.query<{ first_name: string }>(
      'select first_name from public.users where id >= 1000 order by id',
    );
    expect(users.rows.map((row) => row.first_name)).toEqual(cleaned);
    const leads = await db.query<{ last_name: string }>(
      'select last_name from public.responses where user_id >= 1000 order by user_id',
    );
    expect(leads.rows.map((row) => row.last_name)).toEqual(cleaned);
    const staffRows = await db.query('select email, display_name from public.staff order by email');
    expect(staffRows.rows).toEqual([
      { email: 'eins@example.de', display_name: null },
      { email: 'zwei@example.de', display_name: 'Zwei Zeilen' },
    ]);
    const message = await db.query('select name, email from public.support_messages');
    expect(message.rows).toEqual([{ name: 'Zwei Zeilen', email: 'zwei@example.de' }]);
    const history = await db.query(`select kind, changed_by from public.follow_up_changes`);
    expect(history.rows).toEqual([
      { kind: 'done', changed_by: '00000000-0000-4000-8000-000000000001' },
    ]);
  });
});
