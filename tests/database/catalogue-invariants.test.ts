import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database.ts';
import { questionnaireLead, uniqueEmail } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';

// The database's promises as a whole (issue 32), read from the catalogue: a table, view, column
// or function added later is checked without anyone adding a case here. What is declared below
// is what a new object must be declared in; an undeclared one fails `npm test`.
//
// 1. Every table of the app's own schemas has row-level security on; a view runs as its caller.
// 2. Every security definer function has a fixed search_path naming no schema an API role can
//    create objects in, and anon/PUBLIC (and authenticated) execute it only where listed.
// 3. No API role (anon, authenticated) may insert or update a column the database fills: ids,
//    identity and generated columns, stamps (defaults of now() or auth.uid()), and the columns
//    triggers or functions stamp (listed).
// 4. Every function an API role can call that reads leads or answers (directly or through
//    another function) is declared: either it returns a lead's contact details or answers and
//    then a call grows the access log (tested by calling it), or it returns none (with why).

/** Schemas a hosted Supabase project (or the local stand-in for one) owns; all others are ours. */
const platformSchemas = [
  'auth',
  'storage',
  'extensions',
  'graphql',
  'graphql_public',
  'realtime',
  'supabase_functions',
  'supabase_migrations',
  'pgsodium',
  'pgsodium_masks',
  'vault',
  'net',
  'cron',
  'pgbouncer',
  'gateway',
  'information_schema',
  'pg_catalog',
  'pg_toast',
];

const apiRoles = ['anon', 'authenticated'] as const;

/** Security definer functions anon (or PUBLIC) may execute: the policies' role checks. */
const definerFunctionsForAnon = new Set([
  'public.is_admin',
  'public.is_staff',
  'public.staff_role',
]);

/** Security definer functions a signed-in account may execute (each checks the role itself). */
const definerFunctionsForAuthenticated = new Set([
  ...definerFunctionsForAnon,
  'public.analysis_conversion',
  'public.analysis_lead_times',
  'public.apply_retention',
  'public.begin_export',
  'public.callbacks_waiting',
  'public.can_export',
  'public.complete_follow_up',
  'public.complete_follow_ups',
  'public.customer_count',
  'public.customer_data_export',
  'public.customer_erasure_preview',
  'public.customer_follow_ups',
  'public.customer_lead_contacts',
  'public.customer_lead_statuses',
  'public.customer_leads',
  'public.customer_list',
  'public.customer_note_list',
  'public.desk_customer_list',
  'public.desk_newest_leads',
  'public.desk_search_customers',
  'public.erase_customer',
  'public.export_page',
  'public.export_responses',
  'public.finish_export',
  'public.follow_up_counts',
  'public.follow_up_list',
  'public.lead_activity',
  'public.lead_mail_overview',
  'public.lead_status_counts',
  'public.lead_status_history',
  'public.may_run_retention',
  'public.open_customer',
  'public.questionnaire_lead_counts',
  'public.refuse_staff_account',
  'public.reopen_follow_up',
  'public.search_customers',
  'public.set_display_name',
  'public.set_lead_status',
  'public.staff_accounts',
  'public.staff_directory',
]);

/** Columns a trigger or a function stamps, which no default shows. */
const stampedColumns = new Set([
  'public.users.staff_edited',
  'public.staff.user_id',
  'public.staff.email',
  'public.support_messages.read_by',
  'public.support_messages.done_by',
  'public.customer_notes.updated_at',
  'public.follow_ups.done_at',
  'public.follow_ups.done_by',
  'public.follow_ups.automatic',
  'public.lead_status_changes.changed_by',
  'public.responses.status',
  'public.export_log.rows_sent',
  'public.export_log.finished_at',
]);

/** Columns the rule would call the database's that an API role writes on purpose (none now). */
const writableStampedColumns = new Set<string>([]);

/** Tables whose rows are a lead or its answers. */
const leadTables = ['responses', 'answers'];

/**
 * Callable functions that read leads or answers and return a lead's contact details or answers:
 * each writes the log, which `call` proves (a fresh customer with one lead per call).
 */
type Call = (
  client: SupabaseClient,
  customerId: number,
) => PromiseLike<{ error: unknown; data: unknown }>;
const returnsPersonalData: Record<string, Call> = {
  'public.customer_leads': (client, customerId) =>
    client.rpc('customer_leads', { customer_id: customerId }),
  'public.customer_lead_contacts': (client, customerId) =>
    client.rpc('customer_lead_contacts', { customer_id: customerId }),
  'public.customer_data_export': (client, customerId) =>
    client.rpc('customer_data_export', { customer_id: customerId }),
  'public.export_page': async (client) => {
    const begun = await client
      .rpc('begin_export', { export_scope: 'customers', export_format: 'xlsx' })
      .single<{ export_id: number }>();
    if (begun.error) throw begun.error;
    return client.rpc('export_page', { export_id: begun.data.export_id, page_size: 20_000 });
  },
  'public.export_responses': async (client) => {
    const begun = await client
      .rpc('begin_export', { export_scope: 'customers', export_format: 'csv' })
      .single<{ export_id: number }>();
    if (begun.error) throw begun.error;
    return client.rpc('export_responses', { export_id: begun.data.export_id, page_size: 5000 });
  },
};

/** Callable functions that read leads or answers but return none of their contact data. */
const returnsNoPersonalData: Record<string, string> = {
  'public.analysis_conversion': 'counts per form and channel',
  'public.analysis_lead_times': 'times and a median only',
  'public.analysis_overview': 'counts and times (through analysis_lead_times)',
  'public.apply_retention': 'counts of what retention removed',
  'public.begin_export': 'the number of rows an export will have; logs it (export_log)',
  'public.customer_erasure_preview': 'counts',
  'public.customer_lead_statuses': 'the newest lead’s status and time per customer',
  'public.customer_list':
    'the customer list’s own columns (users, readable directly) with the newest lead’s time, source, questionnaire and status',
  'public.desk_customer_list': 'customer_list’s rows; logs the search term',
  'public.desk_newest_leads':
    'name, form and time of the newest leads, as the customer list shows names (docs/database.md)',
  'public.erase_customer': 'counts of what was erased; logs the erasure',
  'public.lead_activity': 'the office’s own notes and status changes, no contact data or answers',
  'public.lead_status_counts': 'counts',
  'public.lead_status_history': 'status changes with the office’s notes',
  'public.questionnaire_lead_counts': 'counts',
  'public.set_lead_status': 'the status change it made',
};

interface Violation {
  object: string;
  problem: string;
}

async function appSchemas(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select nspname as name from pg_catalog.pg_namespace
      where nspname <> all ($1::text[]) and nspname !~ '^pg_(temp|toast_temp)_'
      order by 1`,
    [platformSchemas],
  );
  return rows.map((r) => r.name);
}

async function rowSecurityViolations(db: Queryable, schemas: string[]): Promise<Violation[]> {
  const { rows } = await db.query<Violation>(
    `select n.nspname || '.' || c.relname as object,
            case when c.relkind in ('r', 'p') then 'row-level security is off'
                 else 'view runs as its owner (security_invoker off)' end as problem
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any ($1::text[])
        and ((c.relkind in ('r', 'p') and not c.relrowsecurity)
          or (c.relkind in ('v', 'm')
              and not coalesce('security_invoker=true' = any (c.reloptions), false)
              and (has_table_privilege('anon', c.oid, 'select')
                   or has_table_privilege('authenticated', c.oid, 'select'))))
      order by 1`,
    [schemas],
  );
  return rows;
}

async function definerViolations(db: Queryable, schemas: string[]): Promise<Violation[]> {
  const { rows } = await db.query<{
    name: string;
    search_path: string | null;
    anon: boolean;
    authenticated: boolean;
  }>(
    `select n.nspname || '.' || p.proname as name,
            (select substr(s, length('search_path=') + 1) from unnest(p.proconfig) s
              where s like 'search_path=%') as search_path,
            has_function_privilege('anon', p.oid, 'execute')
              or p.proacl is null
              or exists (select 1 from aclexplode(p.proacl) a
                          where a.grantee = 0 and a.privilege_type = 'EXECUTE') as anon,
            has_function_privilege('authenticated', p.oid, 'execute') as authenticated
       from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where p.prosecdef and n.nspname = any ($1::text[])
      order by 1`,
    [schemas],
  );
  const violations: Violation[] = [];
  for (const f of rows) {
    if (f.search_path === null) {
      violations.push({ object: f.name, problem: 'no fixed search_path' });
    } else {
      const listed = f.search_path
        .split(',')
        .map((s) => s.trim().replace(/^"(.*)"$/, '$1'))
        .filter((s) => s !== '');
      for (const schema of listed) {
        const open = await db.query<{ open: boolean }>(
          `select coalesce(to_regnamespace($1) is null, true)
                  or has_schema_privilege('anon', to_regnamespace($1), 'create')
                  or has_schema_privilege('authenticated', to_regnamespace($1), 'create') as open`,
          [schema],
        );
        if (schema === '$user' || open.rows[0]!.open) {
          violations.push({ object: f.name, problem: `search_path names ${schema}` });
        }
      }
    }
    if (f.anon && !definerFunctionsForAnon.has(f.name)) {
      violations.push({ object: f.name, problem: 'executable by anon or PUBLIC, not listed' });
    }
    if (f.authenticated && !definerFunctionsForAuthenticated.has(f.name)) {
      violations.push({ object: f.name, problem: 'executable by authenticated, not listed' });
    }
  }
  return violations;
}

async function columnViolations(db: Queryable, schemas: string[]): Promise<Violation[]> {
  const { rows } = await db.query<{ name: string; why: string; role: string; write: string }>(
    `with columns as (
       select c.oid as rel, a.attnum, n.nspname || '.' || c.relname || '.' || a.attname as name,
              case
                when a.attidentity <> '' then 'identity'
                when a.attgenerated <> '' then 'generated'
                when exists (select 1 from pg_catalog.pg_constraint k
                              where k.conrelid = c.oid and k.contype = 'p'
                                and a.attnum = any (k.conkey)) then 'primary key'
                when pg_get_expr(d.adbin, d.adrelid)
                       ~* '(now|clock_timestamp|statement_timestamp|transaction_timestamp|auth\\.uid)\\(\\)|current_(timestamp|date|user)'
                  then 'stamped by its default'
                when n.nspname || '.' || c.relname || '.' || a.attname = any ($2::text[])
                  then 'stamped by the database'
              end as why
         from pg_catalog.pg_attribute a
         join pg_catalog.pg_class c on c.oid = a.attrelid
         join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where n.nspname = any ($1::text[]) and c.relkind in ('r', 'p', 'v')
          and a.attnum > 0 and not a.attisdropped
     )
     select col.name, col.why, r.role, w.write
       from columns col
       cross join unnest($3::text[]) r(role)
       cross join unnest(array['INSERT', 'UPDATE']) w(write)
      where col.why is not null
        and has_column_privilege(r.role, col.rel, col.attnum, w.write)
      order by 1, 3, 4`,
    [schemas, [...stampedColumns], [...apiRoles]],
  );
  return rows
    .filter((r) => !writableStampedColumns.has(r.name))
    .map((r) => ({ object: r.name, problem: `${r.role} may ${r.write} (${r.why})` }));
}

/**
 * Functions of our schemas that read a lead table, or call a function that does, and that an API
 * role can execute.
 */
async function callableLeadReaders(db: Queryable, schemas: string[]): Promise<string[]> {
  const { rows } = await db.query<{ name: string; proname: string; src: string; api: boolean }>(
    `select n.nspname || '.' || p.proname as name, p.proname, p.prosrc as src,
            (has_function_privilege('anon', p.oid, 'execute')
             or has_function_privilege('authenticated', p.oid, 'execute')) as api
       from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where n.nspname = any ($1::text[]) and p.prokind in ('f', 'p')`,
    [schemas],
  );
  const mentions = (src: string, name: string) =>
    new RegExp(`(^|[^A-Za-z0-9_$])${name}([^A-Za-z0-9_$]|$)`).test(src);
  const readers = new Set(
    rows.filter((f) => leadTables.some((t) => mentions(f.src, t))).map((f) => f.name),
  );
  for (let grown = true; grown;) {
    grown = false;
    for (const f of rows) {
      if (readers.has(f.name)) continue;
      const callee = rows.find((g) => readers.has(g.name) && mentions(f.src, g.proname));
      if (callee) {
        readers.add(f.name);
        grown = true;
      }
    }
  }
  return rows
    .filter((f) => f.api && readers.has(f.name))
    .map((f) => f.name)
    .sort();
}

describe.each(['pglite', 'postgres'] as const)('the catalogue on %s', (kind) => {
  let server: GatewayServer;
  let schemas: string[];
  let admin: SupabaseClient;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    schemas = await appSchemas(server.db);
    const account = await createAccount(server.db, `catalogue-admin-${kind}@example.de`, 'admin');
    admin = server.client(account.accessToken);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('knows the app’s schemas', () => {
    expect(schemas).toContain('public');
  });

  it('has row-level security on every table, and no view that runs as its owner', async () => {
    expect(await rowSecurityViolations(server.db, schemas)).toEqual([]);
  });

  it('fixes every security definer function’s search_path and lets API roles execute only the listed ones', async () => {
    expect(await definerViolations(server.db, schemas)).toEqual([]);
  });

  it('lets no API role write an id, a stamp or a column the database fills', async () => {
    expect(await columnViolations(server.db, schemas)).toEqual([]);
  });

  it('declares every callable function that reads leads or answers', async () => {
    const declared = [...Object.keys(returnsPersonalData), ...Object.keys(returnsNoPersonalData)];
    expect(await callableLeadReaders(server.db, schemas)).toEqual(declared.sort());
  });

  it.each(Object.keys(returnsPersonalData))(
    '%s writes the log when it returns a lead',
    async (name) => {
      const email = uniqueEmail('katalog');
      const res = await fetch(`${server.url}/api/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(questionnaireLead({ email })),
      });
      expect(res.status).toBe(201);
      const customer = await server.db.query<{ id: number }>(
        'select id from public.users where email = $1',
        [email],
      );
      const customerId = customer.rows[0]!.id;
      const logged = async () => {
        const { rows } = await server.db.query<{ n: number }>(
          `select (select count(*) from public.access_log where customer_id = $1)::int
                + (select coalesce(sum(rows_sent), 0) from public.export_log)::int as n`,
          [customerId],
        );
        return rows[0]!.n;
      };
      const before = await logged();
      const result = await returnsPersonalData[name]!(admin, customerId);
      expect(result.error).toBeNull();
      expect(JSON.stringify(result.data)).toContain(email);
      expect(await logged()).toBeGreaterThan(before);
    },
  );

  it('finds what is added without being declared', async () => {
    // Made and rolled back in one transaction: a table without row-level security, a definer
    // function without a search_path that anon may call and that reads leads, and a stamp
    // staff may write.
    const found = await server.db
      .transaction(async (tx) => {
        await tx.exec(`
          create table public.probe (id integer generated always as identity primary key,
                                     at timestamptz not null default now(), note text);
          grant insert, update on public.probe to authenticated;
          create function public.probe_leads() returns bigint
          language sql security definer as 'select count(*) from public.responses';
          grant execute on function public.probe_leads() to anon;
        `);
        const result = {
          tables: await rowSecurityViolations(tx, schemas),
          definers: await definerViolations(tx, schemas),
          columns: await columnViolations(tx, schemas),
          readers: await callableLeadReaders(tx, schemas),
        };
        throw Object.assign(new Error('rollback'), { result });
      })
      .catch((error: { result?: unknown }) => error.result);
    expect(found).toEqual({
      tables: [{ object: 'public.probe', problem: 'row-level security is off' }],
      definers: [
        { object: 'public.probe_leads', problem: 'no fixed search_path' },
        { object: 'public.probe_leads', problem: 'executable by anon or PUBLIC, not listed' },
        { object: 'public.probe_leads', problem: 'executable by authenticated, not listed' },
      ],
      columns: [
        { object: 'public.probe.at', problem: 'authenticated may INSERT (stamped by its default)' },
        { object: 'public.probe.at', problem: 'authenticated may UPDATE (stamped by its default)' },
        { object: 'public.probe.id', problem: 'authenticated may INSERT (identity)' },
        { object: 'public.probe.id', problem: 'authenticated may UPDATE (identity)' },
      ],
      readers: expect.arrayContaining(['public.probe_leads']) as unknown,
    });
    const gone = await server.db.query(`select to_regclass('public.probe') as probe`);
    expect(gone.rows).toEqual([{ probe: null }]);
  });
});
