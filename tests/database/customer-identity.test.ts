import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import { migrationsDir } from '../../server/db/setup.ts';
import { customerFields, customerFormSchema } from '../../src/desk/customers/customer-form.ts';
import { normalizeEmail } from '../../src/domain/email.ts';
import { questionnaireLead, uniqueEmail } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';

// A customer's address and identity are the database's (issue 32, items 3 and 4): an address is
// stored trimmed and lower-case and nothing else is accepted, so no second customer can alias a
// real one; id, created_at, updated_at and staff_edited are written by the database alone, so
// staff cannot plant rows at the next ids and stop visitors' leads; a customer staff create is
// in the access log. Over HTTP with supabase-js as the desk (or an attacker with a staff
// account) calls it, on PGlite and PostgreSQL.

const hostile = (email: string) => [
  `${email} `,
  ` ${email}`,
  `${email}\t`,
  `${email}\n`,
  `${email}\u00a0`,
  `\ufeff${email}`,
  email.toUpperCase(),
];

describe.each(['pglite', 'postgres'] as const)('customers’ identity on %s', (kind) => {
  let server: GatewayServer;
  let db: Database;
  let staff: SupabaseClient;
  let admin: SupabaseClient;
  let staffId: string;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    db = server.db;
    const staffAccount = await createAccount(db, `identity-staff-${kind}@example.de`, 'staff');
    const adminAccount = await createAccount(db, `identity-admin-${kind}@example.de`, 'admin');
    staffId = staffAccount.id;
    staff = server.client(staffAccount.accessToken);
    admin = server.client(adminAccount.accessToken);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  async function postLead(lead: object) {
    return fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
  }

  async function customerId(email: string): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      'select id from public.users where email = $1',
      [email],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.id;
  }

  async function namedAs(email: string) {
    const { rows } = await db.query<{ id: number; email: string }>(
      `select id, email from public.users where lower(btrim(email, E' \\t\\n\\r')) = $1
          or email like '%' || $1 || '%' order by id`,
      [email],
    );
    return rows;
  }

  it('refuses a decoy with a real customer’s address in any other form, so export and erasure reach only the real person', async () => {
    const email = uniqueEmail('echt');
    expect((await postLead(questionnaireLead({ email, first_name: 'Erika' }))).status).toBe(201);
    const real = await customerId(email);

    // The attack as reported: a "test customer" with the address and a trailing space, then an
    // admin exports and erases that duplicate. Nothing of it may reach the real person.
    const decoy = await staff
      .from('users')
      .insert({ first_name: 'Test', last_name: 'Dublette', email: `${email} ` })
      .select('id')
      .maybeSingle<{ id: number }>();
    const decoyId = decoy.data?.id ?? -1;
    const decoyExport = await admin.rpc('customer_data_export', { customer_id: decoyId });
    const decoyErasure = await admin.rpc('erase_customer', { customer_id: decoyId });
    const exportedLeads = (decoyExport.data as { leads?: unknown[] } | null)?.leads ?? [];
    expect(exportedLeads).toEqual([]);
    expect((decoyErasure.data as { leads?: number } | null)?.leads ?? 0).toBe(0);
    expect(decoy.error).toMatchObject({ code: '23514' });

    for (const variant of hostile(email)) {
      const created = await staff
        .from('users')
        .insert({ first_name: 'Dublette', last_name: 'Test', email: variant })
        .select('id');
      expect(created.error, JSON.stringify(variant)).toMatchObject({ code: '23514' });
    }
    // Nor can an existing customer be turned into one.
    const other = uniqueEmail('anders');
    const made = await staff
      .from('users')
      .insert({ first_name: 'Otto', last_name: 'Anders', email: other })
      .select('id')
      .single<{ id: number }>();
    expect(made.error).toBeNull();
    for (const variant of hostile(email)) {
      const changed = await staff
        .from('users')
        .update({ email: variant })
        .eq('id', made.data!.id)
        .select('id');
      expect(changed.error, JSON.stringify(variant)).toMatchObject({ code: '23514' });
    }
    expect(await namedAs(email)).toEqual([{ id: real, email }]);

    // The attack's end: the only customer with the address is the real one; erasing the other
    // ("the duplicate test customer") leaves the real person's leads, and the export names them.
    const erased = await admin.rpc('erase_customer', { customer_id: made.data!.id });
    expect(erased.error).toBeNull();
    const exported = await admin.rpc('customer_data_export', { customer_id: real });
    expect(exported.error).toBeNull();
    const leads = (exported.data as { leads: { email: string }[] }).leads;
    expect(leads.map((l) => l.email)).toEqual([email]);
  });

  it('a new customer with a real customer’s former address reaches none of the real person’s leads', async () => {
    const email = uniqueEmail('vorher');
    expect((await postLead(questionnaireLead({ email, first_name: 'Erika' }))).status).toBe(201);
    const real = await customerId(email);
    // Staff move the real customer to another address, then create a "new" customer with the
    // old one: the leads typed with it are still the real customer's, not the newcomer's.
    const moved = uniqueEmail('nachher');
    expect((await staff.from('users').update({ email: moved }).eq('id', real)).error).toBeNull();
    const decoy = await staff
      .from('users')
      .insert({ first_name: 'Test', last_name: 'Dublette', email })
      .select('id')
      .single<{ id: number }>();
    expect(decoy.error).toBeNull();

    const decoyExport = await admin.rpc('customer_data_export', { customer_id: decoy.data!.id });
    expect(decoyExport.error).toBeNull();
    expect((decoyExport.data as { leads: unknown[] }).leads).toEqual([]);
    const decoyErasure = await admin.rpc('erase_customer', { customer_id: decoy.data!.id });
    expect(decoyErasure.error).toBeNull();
    expect((decoyErasure.data as { leads: number }).leads).toBe(0);

    const exported = await admin.rpc('customer_data_export', { customer_id: real });
    expect(exported.error).toBeNull();
    expect((exported.data as { leads: { email: string }[] }).leads.map((l) => l.email)).toEqual([
      email,
    ]);
  });

  it('stores an address typed with spaces and capitals normalised, from the hub and the desk', async () => {
    const email = uniqueEmail('leerzeichen');
    const typed = `  ${email.toUpperCase()} `;
    expect((await postLead(questionnaireLead({ email: typed }))).status).toBe(201);
    const id = await customerId(email);

    // The desk's customer form as it saves: its schema normalises before the PATCH.
    const changedTo = uniqueEmail('neu');
    const values = customerFormSchema.parse({
      first_name: 'Erika',
      last_name: 'Mustermann',
      email: ` ${changedTo.toUpperCase()}  `,
      phone: '',
      adress: '',
      postcode: '',
      city: '',
    });
    const saved = await staff
      .from('users')
      .update(customerFields(values))
      .eq('id', id)
      .select('email')
      .single();
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual({ email: changedTo });
  });

  it('normalises as the desk and the hub do, so their addresses always pass the check', async () => {
    const typed = [
      ' Anna@Example.DE',
      'anna@example.de\u00a0',
      '\u2028anna@example.de\u3000',
      '\ufeffANNA@EXAMPLE.DE\t\r\n',
      '\u2003anna@example.de\u202f',
      'anna@example.de\u200b',
    ];
    for (const email of typed) {
      const { rows } = await db.query<{ database: string; again: string }>(
        `select public.normalized_email($1) as database,
                public.normalized_email(public.normalized_email($1)) as again`,
        [email],
      );
      expect(rows[0], JSON.stringify(email)).toEqual({
        database: normalizeEmail(email),
        again: normalizeEmail(email),
      });
    }
  });

  it('leaves id, created_at, updated_at and staff_edited to the database (42501)', async () => {
    const email = uniqueEmail('ident');
    const stamps = [
      { id: 900_001 },
      { created_at: '2020-01-01T00:00:00Z' },
      { updated_at: '2020-01-01T00:00:00Z' },
      { staff_edited: [] },
    ];
    for (const stamp of stamps) {
      const inserted = await staff
        .from('users')
        .insert({ first_name: 'Ida', last_name: 'Ident', email, ...stamp })
        .select('id');
      expect(inserted.error, JSON.stringify(stamp)).toMatchObject({ code: '42501' });
    }
    expect(await namedAs(email)).toEqual([]);

    const made = await staff
      .from('users')
      .insert({ first_name: 'Ida', last_name: 'Ident', email })
      .select('*')
      .single<Record<string, unknown>>();
    expect(made.error).toBeNull();
    for (const stamp of [...stamps, { id: 900_002 }]) {
      const changed = await staff
        .from('users')
        .update(stamp)
        .eq('id', made.data!.id as number)
        .select('id');
      expect(changed.error, JSON.stringify(stamp)).toMatchObject({ code: '42501' });
    }
    const { rows } = await db.query('select * from public.users where id = $1', [made.data!.id]);
    expect(rows).toEqual([
      { ...made.data, created_at: expect.any(Date), updated_at: expect.any(Date) },
    ]);
  });

  it('staff inserting customers at the next ids cannot stop the next visitor’s lead', async () => {
    const newest = await staff
      .from('users')
      .select('id')
      .order('id', { ascending: false })
      .limit(1)
      .single<{ id: number }>();
    expect(newest.error).toBeNull();
    const planted = Array.from({ length: 20 }, (_, i) => ({
      id: newest.data!.id + 1 + i,
      first_name: 'Platz',
      last_name: 'Halter',
      email: uniqueEmail(`platz${i}`),
    }));
    const attack = await staff.from('users').insert(planted);

    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const email = uniqueEmail(`besucher${i}`);
      statuses.push((await postLead(questionnaireLead({ email }))).status);
    }
    expect(statuses).toEqual([201, 201, 201]);
    expect(attack.error).toMatchObject({ code: '42501' });
  });

  it('logs every customer an account inserts', async () => {
    const emails = [uniqueEmail('neu1'), uniqueEmail('neu2'), uniqueEmail('neu3')];
    const made = await staff
      .from('users')
      .insert(emails.map((email) => ({ first_name: 'Neu', last_name: 'Kunde', email })))
      .select('id');
    expect(made.error).toBeNull();
    const ids = (made.data as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
    const { rows } = await db.query<{ customer_id: number }>(
      `select customer_id from public.access_log
        where user_id = $1 and action = 'customer_changed' and detail = '{"created": true}'
          and customer_id = any ($2::int[])
        order by customer_id`,
      [staffId, ids],
    );
    expect(rows.map((r) => r.customer_id)).toEqual(ids);

    // A visitor's lead makes a customer too, and is no account's doing.
    const visitor = uniqueEmail('besuch');
    expect((await postLead(questionnaireLead({ email: visitor }))).status).toBe(201);
    const logged = await db.query(
      `select 1 from public.access_log where customer_id = $1 and detail ? 'created'`,
      [await customerId(visitor)],
    );
    expect(logged.rows).toEqual([]);
  });
});

const localSupabaseFiles = ['supabase-local.sql', 'supabase-local-storage.sql'].map((name) =>
  fileURLToPath(new URL(`../../server/db/${name}`, import.meta.url)),
);

describe.each(['pglite', 'postgres'] as const)(
  'the migration on existing customers (%s)',
  (kind) => {
    let postgres: TestPostgres | undefined;
    let db: Database;

    beforeAll(async () => {
      if (kind === 'postgres') postgres = await startTestPostgres();
      db = await openDatabase(postgres ? { databaseUrl: postgres.url() } : {});
    }, 120_000);

    afterAll(async () => {
      await db?.close();
      postgres?.stop();
    });

    it('normalises every address, merges the duplicates into the oldest with a note, and moves the ids past planted rows', async () => {
      for (const file of localSupabaseFiles) await db.exec(await readFile(file, 'utf8'));
      const all = await readMigrations(migrationsDir);
      const mine = all.findIndex((m) => m.name === 'customer_identity');
      expect(mine).toBeGreaterThan(0);
      await migrate(db, all.slice(0, mine));

      // What the old rules let in: a decoy of Anna's address with a trailing space (with a lead, a
      // follow-up and a note of its own), an address with a tab, and a row planted ahead of the ids.
      await db.exec(`
      insert into public.forms (id, title) values (100, 'Altbestand');
      insert into public.users (id, first_name, last_name, email, phone, adress, postcode, city,
                                created_at, staff_edited)
      values (100, 'Anna', 'Alt', 'anna@example.de', null, null, '10115', 'Berlin',
              now() - interval '2 days', '{}'),
             (101, 'Dublette', 'Test', 'anna@example.de ', '030 1', 'Weg 1', '99999', null,
              now() - interval '1 day', '{first_name,last_name,email,phone,postcode}'),
             (102, 'Bert', 'Tab', E'\\tbert@example.de', null, null, null, null, now(), '{}'),
             (5000, 'Platz', 'Halter', 'platz@example.de', null, null, null, null, now(), '{}');
      insert into public.responses (client_id, payload_hash, form_id, user_id, source, first_name,
        last_name, email, phone, terms_accepted, data_processing_consent, create_date,
        changed_date)
      values (gen_random_uuid(), 'h1', 100, 101, 'questionnaire', 'Anna', 'Alt',
              'anna@example.de', '030 1', true, true, now(), now());
      insert into public.follow_ups (customer_id, due_at, body) values (101, now(), 'Rückruf');
      insert into public.customer_notes (customer_id, body) values (101, 'Notiz');
    `);
      await migrate(db, all.slice(0, mine + 1));

      const users = await db.query(
        `select id, first_name, last_name, email, phone, adress, postcode, city, staff_edited
         from public.users where id in (100, 101, 102) order by id`,
      );
      expect(users.rows).toEqual([
        {
          id: 100,
          first_name: 'Anna',
          last_name: 'Alt',
          email: 'anna@example.de',
          phone: '030 1',
          adress: 'Weg 1',
          postcode: '10115',
          city: 'Berlin',
          staff_edited: ['phone'],
        },
        {
          id: 102,
          first_name: 'Bert',
          last_name: 'Tab',
          email: 'bert@example.de',
          phone: null,
          adress: null,
          postcode: null,
          city: null,
          staff_edited: [],
        },
      ]);
      const moved = await db.query(
        `select (select array_agg(user_id) from public.responses) as leads,
              (select array_agg(customer_id) from public.follow_ups) as follow_ups,
              (select array_agg(customer_id) from public.customer_notes) as notes`,
      );
      expect(moved.rows).toEqual([{ leads: [100], follow_ups: [100], notes: [100] }]);
      const notes = await db.query(
        `select customer_id, action, detail from public.access_log order by customer_id`,
      );
      expect(notes.rows).toEqual([
        {
          customer_id: 100,
          action: 'customer_changed',
          detail: { merged_from: 101, leads: 1, reason: 'email_normalized' },
        },
        {
          customer_id: 101,
          action: 'customer_changed',
          detail: { merged_into: 100, reason: 'email_normalized' },
        },
      ]);

      // From now on the table refuses any other form, and the next lead gets an id past the
      // planted row.
      await expect(
        db.query(
          `insert into public.users (first_name, last_name, email) values ('X', 'Y', 'x@y.de ')`,
        ),
      ).rejects.toMatchObject({ code: '23514' });
      const next = await db.query<{ id: number }>(
        `select public.merge_lead_customer('Neu', 'Kunde', ' Neu@Example.DE', '0', null, null, null) as id`,
      );
      expect(next.rows[0]!.id).toBeGreaterThan(5000);
      const stored = await db.query('select email from public.users where id = $1', [
        next.rows[0]!.id,
      ]);
      expect(stored.rows).toEqual([{ email: 'neu@example.de' }]);
    });
  },
);
