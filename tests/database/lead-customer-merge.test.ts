import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { migrate, readMigrations } from '../../server/db/migrate.ts';
import { migrationsDir } from '../../server/db/setup.ts';
import { kfzLead, questionnaireLead, uniqueEmail } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// A public form may create a customer, never change one (issue 20, item 5): a lead for a known
// address only fills the customer's empty fields, never a field staff edited; each response
// keeps what its sender typed. Over real HTTP: anonymous posts to the hub, staff edits through
// supabase-js as the desk makes them.

interface CustomerRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  adress: string | null;
  postcode: string | null;
  city: string | null;
}

const at = (time: string) => `2026-11-20T${time}:00.000Z`;

describe.each(['pglite', 'postgres'] as const)('leads and customers on %s', (kind) => {
  let server: GatewayServer;
  let db: Database;
  let staff: SupabaseClient;
  let anon: SupabaseClient;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    db = server.db;
    const account = await createAccount(db, `staff-merge-${kind}@example.de`, 'staff');
    staff = await supabaseClient(server.url, testSecret, account.accessToken);
    anon = await supabaseClient(server.url, testSecret);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  async function post(lead: object) {
    const res = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
    expect(res.status).toBe(201);
  }

  async function postBatch(leads: object[]) {
    const res = await fetch(`${server.url}/api/responses/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submissions: leads }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { status: string }[] };
    expect(body.results.map((r) => r.status)).toEqual(leads.map(() => 'created'));
  }

  async function customer(email: string): Promise<CustomerRow> {
    const { data, error } = await staff
      .from('users')
      .select('id, first_name, last_name, email, phone, adress, postcode, city')
      .eq('email', email)
      .single<CustomerRow>();
    if (error) throw error;
    return data;
  }

  // The lead as stored, read as the database owner: staff cannot read leads directly
  // (20261125190000_logged_lead_reads.sql).
  async function snapshot(clientId: string) {
    const { rows } = await db.query<Record<string, unknown>>(
      `select first_name, last_name, email, phone, adress, postcode, city, user_id
         from public.responses where client_id = $1`,
      [clientId],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  it('an anonymous lead with a customer’s e-mail leaves the customer unchanged and keeps what it said', async () => {
    const email = uniqueEmail('anna');
    await post(questionnaireLead({ email, first_name: 'Anna', last_name: 'Alt' }));
    const before = await customer(email);

    const forged = questionnaireLead({
      email: email.toUpperCase(),
      first_name: 'Mallory',
      last_name: 'Angreifer',
      phone: '0999 999999',
      adress: 'Fremdweg 9',
      postcode: '99999',
      city: 'Irgendwo',
      captured_at: new Date().toISOString(),
    });
    await post(forged);

    expect(await customer(email)).toEqual(before);
    expect(await snapshot(forged.client_id)).toEqual({
      first_name: 'Mallory',
      last_name: 'Angreifer',
      email,
      phone: '0999 999999',
      adress: 'Fremdweg 9',
      postcode: '99999',
      city: 'Irgendwo',
      user_id: before.id,
    });
  });

  it('a later lead never overwrites what staff edited, not even a field staff emptied', async () => {
    const email = uniqueEmail('berta');
    await post(questionnaireLead({ email, first_name: 'Berta', phone: '030 111111' }));
    const { id } = await customer(email);
    const saved = await staff
      .from('users')
      .update({ last_name: 'Korrigiert', phone: '030 222222', city: null })
      .eq('id', id)
      .select('id');
    expect(saved.error).toBeNull();
    expect(saved.data).toHaveLength(1);

    await post(
      questionnaireLead({
        email,
        first_name: 'Berta',
        last_name: 'Vertippt',
        phone: '030 333333',
        city: 'Hamburg',
        captured_at: new Date().toISOString(),
      }),
    );

    const after = await customer(email);
    expect(after).toMatchObject({ last_name: 'Korrigiert', phone: '030 222222', city: null });
  });

  it('a late-synced tablet lead captured earlier does not overwrite the newer lead’s values', async () => {
    const email = uniqueEmail('clara');
    await post(questionnaireLead({ email, first_name: 'Clara', captured_at: at('14:00') }));
    await post(
      questionnaireLead({
        email,
        channel: 'fair_tablet',
        first_name: 'Klara',
        phone: '0170 000000',
        adress: 'Messeplatz 1',
        captured_at: at('10:00'),
      }),
    );
    expect(await customer(email)).toMatchObject({
      first_name: 'Clara',
      phone: '+49 30 123456',
      adress: 'Hauptstraße 1',
    });
  });

  it('a later lead fills the fields the customer has empty', async () => {
    const email = uniqueEmail('dora');
    await post(kfzLead({ email, first_name: 'Dora' }));
    expect(await customer(email)).toMatchObject({ adress: null, postcode: null, city: null });
    await post(
      questionnaireLead({
        email,
        first_name: 'Dorothea',
        adress: 'Lindenweg 5',
        postcode: '20095',
        city: 'Hamburg',
      }),
    );
    expect(await customer(email)).toMatchObject({
      first_name: 'Dora',
      adress: 'Lindenweg 5',
      postcode: '20095',
      city: 'Hamburg',
    });
  });

  it.each([
    ['older first', false],
    ['newer first', true],
  ])(
    'a batch with two leads of one new address takes the newer one’s details (%s)',
    async (_, newerFirst) => {
      const email = uniqueEmail('emil');
      const older = questionnaireLead({
        email,
        channel: 'fair_tablet',
        first_name: 'Emiel',
        phone: '040 111111',
        captured_at: at('09:00'),
      });
      const newer = questionnaireLead({
        email,
        channel: 'fair_tablet',
        first_name: 'Emil',
        phone: '040 222222',
        captured_at: at('09:05'),
      });
      await postBatch(newerFirst ? [newer, older] : [older, newer]);
      expect(await customer(email)).toMatchObject({ first_name: 'Emil', phone: '040 222222' });
      expect((await snapshot(older.client_id)).first_name).toBe('Emiel');
    },
  );

  it('a batch cannot rewrite an existing customer either', async () => {
    const email = uniqueEmail('frieda');
    await post(questionnaireLead({ email, first_name: 'Frieda' }));
    const before = await customer(email);
    await postBatch([
      questionnaireLead({ email, first_name: 'Mallory', captured_at: new Date().toISOString() }),
    ]);
    expect(await customer(email)).toEqual(before);
  });

  it('the merge function is not an rpc for visitors or staff', async () => {
    const args = {
      lead_first_name: 'Mallory',
      lead_last_name: 'X',
      lead_email: uniqueEmail('rpc'),
      lead_phone: '0',
      lead_adress: null,
      lead_postcode: null,
      lead_city: null,
    };
    for (const client of [anon, staff]) {
      const { error } = await client.rpc('merge_lead_customer', args);
      expect(error).not.toBeNull();
    }
    const found = await db.query('select 1 from public.users where email = $1', [args.lead_email]);
    expect(found.rows).toHaveLength(0);
  });
});

const localSupabaseFiles = ['supabase-local.sql', 'supabase-local-storage.sql'].map((name) =>
  fileURLToPath(new URL(`../../server/db/${name}`, import.meta.url)),
);

describe.each(['pglite', 'postgres'] as const)('the migration on existing data (%s)', (kind) => {
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

  it('records as staff edits the fields no lead left there, and keeps each lead as typed', async () => {
    for (const file of localSupabaseFiles) await db.exec(await readFile(file, 'utf8'));
    const all = await readMigrations(migrationsDir);
    const mine = all.findIndex((m) => m.name === 'lead_contact_snapshot');
    expect(mine).toBeGreaterThan(0);
    await migrate(db, all.slice(0, mine));

    // What the old hub left: the customer holds the newest lead's name and phone and the newest
    // address any lead gave; then staff corrected the last name and the city.
    await db.exec(`
      insert into public.forms (id, title) values (100, 'Altbestand');
      insert into public.users (id, first_name, last_name, email, phone, adress, postcode, city)
      values (100, 'Gerda', 'Korrigiert', 'gerda@example.de', '030 2', 'Weg 1', '10115', 'Staffstadt'),
             (101, 'Ohne', 'Anfrage', 'ohne@example.de', null, null, null, null);
      insert into public.responses (client_id, payload_hash, form_id, user_id, source, first_name,
        last_name, email, phone, adress, postcode, city, terms_accepted, data_processing_consent,
        create_date, changed_date, received_at)
      values
        (gen_random_uuid(), 'h1', 100, 100, 'questionnaire', 'Gerta', 'Alt', 'gerda@example.de',
         '030 1', 'Weg 1', '10115', 'Berlin', true, true, now(), now(), now() - interval '2 days'),
        (gen_random_uuid(), 'h2', 100, 100, 'kfz', 'Gerda', 'Alt', 'gerda@example.de',
         '030 2', null, null, null, true, true, now(), now(), now() - interval '1 day');
    `);
    await migrate(db, all.slice(0, mine + 1));

    const users = await db.query<{ id: number; staff_edited: string[] }>(
      'select id, staff_edited from public.users where id in (100, 101) order by id',
    );
    expect(users.rows).toEqual([
      { id: 100, staff_edited: ['last_name', 'city'] },
      { id: 101, staff_edited: [] },
    ]);
    const leads = await db.query(
      'select first_name, phone, city from public.responses where user_id = 100 order by id',
    );
    expect(leads.rows).toEqual([
      { first_name: 'Gerta', phone: '030 1', city: 'Berlin' },
      { first_name: 'Gerda', phone: '030 2', city: null },
    ]);
    // And the rule holds for them from now on: a lead fills nothing staff set.
    await db.query(
      `select public.merge_lead_customer('Gerda', 'Alt', 'gerda@example.de', '030 3', 'Weg 2', '10117', 'Berlin')`,
    );
    const after = await db.query(
      'select first_name, last_name, phone, adress, city from public.users where id = 100',
    );
    expect(after.rows).toEqual([
      {
        first_name: 'Gerda',
        last_name: 'Korrigiert',
        phone: '030 2',
        adress: 'Weg 1',
        city: 'Staffstadt',
      },
    ]);
  });
});
