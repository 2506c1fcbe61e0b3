import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database as Db } from '../../server/db/database.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { personalDataMap, type ColumnUse } from '../../server/db/personal-data-map.ts';
import type { Database } from '../../src/domain/database.types.ts';
import { readCustomerDataExport } from '../../src/desk/api/person-rights.ts';
import { contactLead, questionnaireLead, uniqueEmail } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient, supabaseClientWithKey } from '../helpers/supabase.ts';

// The personal-data map (server/db/personal-data-map.ts) against the database: every column of
// every table of every schema is in it; a person with data in every place the map names finds all
// of it in their export (through supabase-js, as the desk reads it); after their erasure, and
// after a retention run whose clock is past the period, no table of any schema holds a trace of
// them.

/** Every column of every table, view-less, of every schema but PostgreSQL's own. */
async function catalogueColumns(db: Pick<Db, 'query'>): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select n.nspname || '.' || c.relname || '.' || a.attname as name
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind in ('r', 'p', 'm', 'f')
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname !~ '^pg_(toast|temp)'`,
  );
  return rows.map((row) => row.name).sort();
}

const mappedColumns = Object.entries(personalDataMap)
  .flatMap(([table, entry]) => Object.keys(entry.columns).map((column) => `${table}.${column}`))
  .sort();

function unmapped(columns: string[]) {
  return {
    notInTheMap: columns.filter((column) => !mappedColumns.includes(column)),
    notInTheDatabase: mappedColumns.filter((column) => !columns.includes(column)),
  };
}

/** The values at a path of the export: 'leads[].answers[].answer' is every answer of every lead. */
function valuesAt(document: unknown, path: string): unknown[] {
  let current: unknown[] = [document];
  for (const segment of path.split('.')) {
    const many = segment.endsWith('[]');
    const key = many ? segment.slice(0, -2) : segment;
    current = current.flatMap((value) => {
      const next = (value as Record<string, unknown> | null)?.[key];
      if (next === undefined) return [];
      return many ? (Array.isArray(next) ? next : []) : [next];
    });
  }
  return current;
}

/** One form for a value from either side: times as instants, everything else as JSON. */
const comparable = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)
    ? new Date(value).toISOString()
    : JSON.stringify(value);

/** Rows of every table of every schema whose text holds one of the terms (case-insensitive). */
async function traces(db: Db, terms: string[]) {
  const { rows: tables } = await db.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'm')
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname !~ '^pg_(toast|temp)'`,
  );
  expect(tables.length).toBeGreaterThan(20);
  const found: { table: string; row: string }[] = [];
  for (const { name } of tables) {
    const { rows } = await db.query<{ row: string }>(
      `select t::text as row from ${name} t
        where exists (select 1 from unnest($1::text[]) term where strpos(lower(t::text), term) > 0)`,
      [terms.map((term) => term.toLowerCase())],
    );
    for (const { row } of rows) found.push({ table: name, row });
  }
  return found;
}

describe.each(['pglite', 'postgres'] as const)('the personal-data map on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient<Database>;
  let admin: SupabaseClient<Database>;
  let service: SupabaseClient<Database>;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const staffAccount = await createAccount(server.db, `map-staff-${kind}@example.de`, 'staff');
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(server.db, `map-admin-${kind}@example.de`, 'admin');
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    service = supabaseClientWithKey(server.url, (await apiKeys(testSecret)).serviceRoleKey);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  /**
   * A person with data in every place the map names: two leads and a third whose deletion left
   * a consent record, answers (one of them free text about health), a staff edit, a note, a
   * follow-up done, a status change with a note, a new-lead mail, a retention hold, a support
   * message, searches and an export filter naming them, and reads in the access log.
   */
  async function personWithEverything(tag: string) {
    // Letters only: a contact form's name takes no digits.
    const suffix = `${tag}${kind}${Date.now().toString(36)}`.replace(
      /[0-9]/g,
      (digit) => 'abcdefghij'[Number(digit)]!,
    );
    const lastName = `Quessel${suffix}`;
    const email = uniqueEmail(`karte.${tag}`);
    const phone = `0171 55${Math.floor(Math.random() * 1e5)}`;
    const contact = {
      email,
      first_name: 'Wiebke',
      last_name: lastName,
      phone,
      adress: `Quesselweg ${suffix} 7`,
      postcode: '14467',
      city: 'Potsdam',
    };
    const terms = {
      lastName,
      email,
      phone,
      adress: contact.adress,
      freeText: `Niereninsuffizienz ${suffix}, Dialyse seit 2022`,
      contactMessage: `Rückruf wegen Hausrat ${suffix}`,
      note: `Notiz zu Frau ${suffix}`,
      followUp: `Angebot nachfassen ${suffix}`,
      statusNote: `Telefonat ${suffix} geführt`,
      holdReason: `Vertrag ${suffix} dokumentiert`,
    };
    const pkv = questionnaireLead({
      ...contact,
      form_id: 2,
      channel: 'fair_tablet',
      waited_offline: true,
      cookie_consent: 'all',
      cookie_consent_version: '2026-11-01',
      answers: [
        { question_id: 4, answer: 'Studierend' },
        { question_id: 6, answer: 'Chefarztbehandlung, Hochwertiger Zahnersatz' },
        { question_id: 8, answer: '1984' },
        { question_id: 10, answer: terms.freeText },
      ],
    });
    const callback = contactLead({ ...contact, message: terms.contactMessage });
    const gone = questionnaireLead({
      ...contact,
      offer_info: true,
      cookie_consent: 'necessary',
      cookie_consent_version: '2026-11-01',
    });
    const posted = await fetch(`${server.url}/api/responses/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submissions: [pkv, callback, gone] }),
    });
    expect(posted.status).toBe(200);
    const results = ((await posted.json()) as { results: { status: string; id: number }[] })
      .results;
    expect(results.map((result) => result.status)).toEqual(['created', 'created', 'created']);
    const [pkvId, callbackId, goneId] = results.map((result) => result.id) as [
      number,
      number,
      number,
    ];
    const db = server.db;
    const customerId = (
      await db.query<{ id: number }>('select user_id as id from public.responses where id = $1', [
        pkvId,
      ])
    ).rows[0]!.id;
    // A lead deleted for data protection: its consent to offers stays as hashed proof.
    await db.query('select public.delete_leads_keeping_proof($1, now())', [[goneId]]);

    const ok = <T extends { error: unknown }>(result: T) => {
      expect(result.error).toBeNull();
      return result;
    };
    ok(await staff.from('users').update({ postcode: '14469' }).eq('id', customerId));
    ok(
      await staff.rpc('set_lead_status', {
        response_id: pkvId,
        status: 'contacted',
        note: terms.statusNote,
      }),
    );
    const note = ok(
      await staff
        .from('customer_notes')
        .insert({ customer_id: customerId, body: `${terms.note} (Entwurf)` })
        .select('id')
        .single(),
    );
    ok(await staff.from('customer_notes').update({ body: terms.note }).eq('id', note.data!.id));
    const followUp = ok(
      await staff
        .from('follow_ups')
        .insert({
          customer_id: customerId,
          response_id: pkvId,
          due_at: new Date(Date.now() + 86_400_000).toISOString(),
          body: `${terms.followUp} (Entwurf)`,
        })
        .select('id')
        .single(),
    );
    // A change of text and due time leaves the earlier ones in the follow-up's history.
    ok(
      await staff
        .from('follow_ups')
        .update({
          body: terms.followUp,
          due_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        })
        .eq('id', followUp.data!.id),
    );
    ok(await staff.rpc('complete_follow_up', { follow_up_id: followUp.data!.id }));
    ok(
      await admin
        .from('retention_holds')
        .insert({ customer_id: customerId, reason: terms.holdReason, until: '2026-01-01' }),
    );
    await db.query(
      `insert into public.lead_mail_outbox (response_id, idempotency_key, kind, state, sent_at)
       values ($1, gen_random_uuid()::text, 'immediate', 'sent', now())`,
      [callbackId],
    );
    await db.query(
      `insert into public.support_messages (name, email, message) values ('Team', 'team@example.de', $1)`,
      [`Frau Wiebke ${lastName} (${email}, ${phone}) bittet um Rückruf.`],
    );
    // Reads and searches that name the person: the sidebar, a search, an export's filter.
    ok(await staff.rpc('open_customer', { customer_id: customerId }));
    ok(await staff.rpc('desk_search_customers', { term: lastName }));
    ok(
      await admin.rpc('begin_export', {
        export_scope: 'customers',
        export_format: 'csv',
        customer_search: lastName,
      }),
    );
    return { customerId, terms, leads: [pkvId, callbackId] };
  }

  it('lists every column of every table in every schema', async () => {
    expect(unmapped(await catalogueColumns(server.db))).toEqual({
      notInTheMap: [],
      notInTheDatabase: [],
    });
  });

  it('fails for a new column or table that the map does not list', async () => {
    const sentinel = new Error('rolled back');
    const seen = await server.db
      .transaction(async (tx) => {
        await tx.query('alter table public.users add column nickname text');
        await tx.query('create schema map_probe');
        await tx.query('create table map_probe.visitor_notes (id integer, body text)');
        const found = unmapped(await catalogueColumns(tx));
        throw Object.assign(sentinel, { found });
      })
      .catch((error: unknown) => {
        if (error !== sentinel) throw error;
        return (error as Error & { found: ReturnType<typeof unmapped> }).found;
      });
    expect(seen.notInTheMap).toEqual([
      'map_probe.visitor_notes.body',
      'map_probe.visitor_notes.id',
      'public.users.nickname',
    ]);
    expect(unmapped(await catalogueColumns(server.db)).notInTheMap).toEqual([]);
  });

  it('finds every column of the person’s data in their export, as the desk reads it', async () => {
    const { customerId } = await personWithEverything('export');
    // The person's rows as the map finds them, read before the export (which logs itself).
    const expected: { column: string; path: string; values: unknown[] }[] = [];
    for (const [table, entry] of Object.entries(personalDataMap)) {
      const exported = Object.entries(entry.columns).filter(
        (pair): pair is [string, Extract<ColumnUse, { holds: 'person'; export: string }>] =>
          pair[1].holds === 'person' && pair[1].export !== null,
      );
      if (exported.length === 0) continue;
      expect(entry.personRows, `${table}: personRows`).toBeDefined();
      const { rows } = await server.db.query<{ row: Record<string, unknown> }>(
        `select to_jsonb(t) as row from ${table} t where ${entry.personRows}`,
        [customerId],
      );
      for (const [column, use] of exported) {
        const values = rows.map((row) => row.row[column]).filter((value) => value !== null);
        expected.push({ column: `${table}.${column}`, path: use.export, values });
      }
    }
    // The fixture fills every place: a column without a value would test nothing.
    expect(expected.filter((entry) => entry.values.length === 0).map((e) => e.column)).toEqual([]);

    await server.db.query('update public.desk_settings set staff_can_export = false');
    const document = await readCustomerDataExport(admin, customerId);
    const missing = expected.flatMap(({ column, path, values }) => {
      const found = new Set(valuesAt(document, path).map(comparable));
      return values
        .filter((value) => !found.has(comparable(value)))
        .map((value) => ({ column, path, value }));
    });
    expect(missing).toEqual([]);
    // The free text the person typed is theirs to have; Analyse keeps none of it.
    expect(JSON.stringify(document)).toContain('Niereninsuffizienz');
    // The support message that names them, and nothing of other people's leads.
    expect(document.support_messages).toHaveLength(1);
    expect(document.leads).toHaveLength(2);
  });

  it('leaves no trace of the person in any table of any schema after their erasure', async () => {
    const { customerId, terms } = await personWithEverything('erase');
    const all = Object.values(terms);
    // Before: the person is in many places (the scan sees them).
    expect((await traces(server.db, all)).length).toBeGreaterThan(5);
    const erased = await admin.rpc('erase_customer', { customer_id: customerId });
    expect(erased.error).toBeNull();
    expect(await traces(server.db, all)).toEqual([]);
  });

  it('leaves no trace of the person anywhere after a retention run past the period', async () => {
    const { terms } = await personWithEverything('retention');
    const all = Object.values(terms);
    expect((await traces(server.db, all)).length).toBeGreaterThan(5);
    // Five years and a few days on: the customer's last contact is past the period, their hold
    // ended in 2026.
    const later = new Date(Date.now() + (5 * 366 + 3) * 86_400_000).toISOString();
    const run = await service.rpc('apply_retention', { p_now: later, p_dry_run: false });
    expect(run.error).toBeNull();
    expect(run.data?.find((row) => row.kind === 'customers')?.items).toBeGreaterThanOrEqual(1);
    expect(await traces(server.db, all)).toEqual([]);
  });
});
