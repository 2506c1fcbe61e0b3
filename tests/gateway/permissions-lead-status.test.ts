import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database as Owner } from '../../server/db/database.ts';
import type { Database } from '../../src/domain/database.types.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type DatabaseKind,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The permission matrix of the lead status (20261126100000_lead_status.sql), beside
// gateway-permissions.test.ts and driven the same way: the real supabase-js over HTTP on both
// databases. Every new function refuses anon (no execute) and pending accounts (require_staff)
// with PostgREST's 42501 and changes nothing; staff and admins call them. The history table
// itself is nobody's through the API: its rows come and go through set_lead_status and the
// leads' cascade.

const callers = ['anon', 'pending', 'staff', 'admin'] as const;
type Caller = (typeof callers)[number];

function expectRefused(result: { error: PostgrestError | null; status: number }, caller: Caller) {
  expect(result.error?.code, result.error?.message).toBe('42501');
  expect(result.status).toBe(caller === 'anon' ? 401 : 403);
}

async function count(db: Owner, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from (${sql}) x`,
    params,
  );
  return rows[0]!.n;
}

describe.each(['pglite', 'postgres'] as const)(
  'lead status permissions on %s',
  (kind: DatabaseKind) => {
    let server: GatewayServer;
    let db: Owner;
    let clients: Record<Caller, SupabaseClient<Database>>;
    let responseId = 0;
    let customerId = 0;
    const lead = questionnaireLead({ first_name: 'Rita', last_name: 'Rechte' });

    beforeAll(async () => {
      server = await startGatewayServer(kind);
      db = server.db;
      const accounts = {
        pending: await createAccount(db, `ls-wartend-${kind}@example.de`, 'pending'),
        staff: await createAccount(db, `ls-mitarbeiter-${kind}@example.de`, 'staff'),
        admin: await createAccount(db, `ls-chefin-${kind}@example.de`, 'admin'),
      };
      clients = {
        anon: await supabaseClient(server.url, testSecret),
        pending: await supabaseClient(server.url, testSecret, accounts.pending.accessToken),
        staff: await supabaseClient(server.url, testSecret, accounts.staff.accessToken),
        admin: await supabaseClient(server.url, testSecret, accounts.admin.accessToken),
      };
      const res = await fetch(`${server.url}/api/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(lead),
      });
      expect(res.status).toBe(201);
      const { rows } = await db.query<{ id: number; user_id: number }>(
        'select id, user_id from public.responses where client_id = $1',
        [lead.client_id],
      );
      responseId = rows[0]!.id;
      customerId = rows[0]!.user_id;
    }, 120_000);

    afterAll(async () => {
      await server?.close();
    });

    const changes = () =>
      count(db, 'select 1 from public.lead_status_changes where response_id = $1', [responseId]);
    const statusOf = async () =>
      (
        await db.query<{ status: string }>('select status from public.responses where id = $1', [
          responseId,
        ])
      ).rows[0]!.status;

    const reads = {
      staff_directory: (client: SupabaseClient<Database>) => client.rpc('staff_directory'),
      lead_status_history: (client: SupabaseClient<Database>) =>
        client.rpc('lead_status_history', { customer_id: customerId }),
      lead_status_counts: (client: SupabaseClient<Database>) => client.rpc('lead_status_counts'),
      analysis_conversion: (client: SupabaseClient<Database>) =>
        client.rpc('analysis_conversion', { day_from: '2000-01-01', day_to: '2999-12-31' }),
      customer_leads: (client: SupabaseClient<Database>) =>
        client.rpc('customer_leads', { customer_id: customerId }),
    };

    for (const [name, read] of Object.entries(reads)) {
      for (const caller of ['anon', 'pending'] as const) {
        it(`${caller}: ${name} → refused`, async () => {
          expectRefused(await read(clients[caller]), caller);
        });
      }
      for (const caller of ['staff', 'admin'] as const) {
        it(`${caller}: ${name} → works`, async () => {
          const result = await read(clients[caller]);
          expect(result.error).toBeNull();
          expect(Array.isArray(result.data)).toBe(true);
        });
      }
    }

    for (const caller of ['anon', 'pending'] as const) {
      it(`${caller}: set_lead_status → refused, nothing changes`, async () => {
        const before = { status: await statusOf(), changes: await changes() };
        const result = await clients[caller].rpc('set_lead_status', {
          response_id: responseId,
          status: 'no_interest',
          note: 'Darf nicht',
        });
        expectRefused(result, caller);
        expect({ status: await statusOf(), changes: await changes() }).toEqual(before);
      });
    }

    it.each(['staff', 'admin'] as const)('%s: set_lead_status → works', async (caller) => {
      const before = await changes();
      const status = caller === 'staff' ? 'contacted' : 'appointment';
      const result = await clients[caller].rpc('set_lead_status', {
        response_id: responseId,
        status,
        note: `Von ${caller}`,
      });
      expect(result.error).toBeNull();
      expect(result.data).toEqual([expect.objectContaining({ status, note: `Von ${caller}` })]);
      expect(await statusOf()).toBe(status);
      expect(await changes()).toBe(before + 1);
    });

    const tableOperations = {
      select: (client: SupabaseClient<Database>) => client.from('lead_status_changes').select('*'),
      insert: (client: SupabaseClient<Database>) =>
        client
          .from('lead_status_changes')
          .insert({ response_id: responseId, status: 'closed', note: 'direkt' })
          .select(),
      update: (client: SupabaseClient<Database>) =>
        client.from('lead_status_changes').update({ note: 'geändert' }).gt('id', 0).select(),
      delete: (client: SupabaseClient<Database>) =>
        client.from('lead_status_changes').delete().gt('id', 0).select(),
    };

    for (const [operation, run] of Object.entries(tableOperations)) {
      for (const caller of callers) {
        it(`${caller}: ${operation} on lead_status_changes → refused`, async () => {
          const before = await db.query(
            'select to_jsonb(c) as row from public.lead_status_changes c order by id',
          );
          expectRefused(await run(clients[caller]), caller);
          const after = await db.query(
            'select to_jsonb(c) as row from public.lead_status_changes c order by id',
          );
          expect(after.rows).toEqual(before.rows);
        });
      }
    }
  },
);
