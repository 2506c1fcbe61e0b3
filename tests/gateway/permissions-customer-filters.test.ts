import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import {
  createAccount,
  startGatewayServer,
  type DatabaseKind,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The permission matrix of the customer list's functions (20261126140000_customer_filters.sql),
// through the real supabase-js on both databases: anon and pending accounts are refused (PostgREST's
// 42501: 401 for anon, 403 otherwise) and learn nothing, not even a count; staff and admins list.

const callers = ['anon', 'pending', 'staff', 'admin'] as const;
type Caller = (typeof callers)[number];
const expected: Record<Caller, 'refused' | 'works'> = {
  anon: 'refused',
  pending: 'refused',
  staff: 'works',
  admin: 'works',
};

describe.each(['pglite', 'postgres'] as const)(
  'customer list permissions on %s',
  (kind: DatabaseKind) => {
    let server: GatewayServer;
    const clients = {} as Record<Caller, SupabaseClient<Database>>;

    let customerId = 0;

    beforeAll(async () => {
      server = await startGatewayServer(kind);
      const { rows } = await server.db.query<{ id: number }>(
        `insert into public.users (first_name, last_name, email)
         values ('Rita', 'Rechte', 'rita.rechte@example.de') returning id`,
      );
      customerId = rows[0]!.id;
      await server.db.query(
        `insert into public.responses (client_id, payload_hash, form_id, user_id, source,
           first_name, last_name, email, phone, terms_accepted, data_processing_consent,
           create_date, changed_date, status)
         values (gen_random_uuid(), 'test', 1, $1, 'kfz', 'Rita', 'Rechte',
                 'rita.rechte@example.de', '0171 1234567', true, true, now(), now(), 'contacted')`,
        [rows[0]!.id],
      );
      await server.db.query(
        `insert into public.follow_ups (customer_id, due_at) values ($1, now())`,
        [rows[0]!.id],
      );
      clients.anon = await supabaseClient(server.url, testSecret);
      for (const role of ['pending', 'staff', 'admin'] as const) {
        const account = await createAccount(server.db, `filters-${role}-${kind}@example.de`, role);
        clients[role] = await supabaseClient(server.url, testSecret, account.accessToken);
      }
    }, 180_000);

    afterAll(async () => {
      await server?.close();
    });

    const filters = { term: 'rechte', source: 'kfz', status: 'contacted', open_follow_up: true };

    for (const caller of callers) {
      it(`desk_customer_list: ${caller} ${expected[caller]}`, async () => {
        const before = await server.db.query('select count(*)::int as n from public.access_log');
        const { data, count, error } = await clients[caller]
          .rpc('desk_customer_list', filters, { count: 'exact' })
          .select('last_name, lead_status');
        const after = await server.db.query('select count(*)::int as n from public.access_log');
        if (expected[caller] === 'works') {
          expect(error).toBeNull();
          expect(count).toBe(1);
          expect(data).toEqual([{ last_name: 'Rechte', lead_status: 'contacted' }]);
        } else {
          expect(error?.code).toBe('42501');
          expect(data).toBeNull();
          // A refused call writes nothing into the access log.
          expect(after.rows).toEqual(before.rows);
        }
      });

      it(`customer_lead_statuses: ${caller} ${expected[caller]}`, async () => {
        const { data, error } = await clients[caller].rpc('customer_lead_statuses', {
          customer_ids: [customerId],
        });
        if (expected[caller] === 'works') {
          expect(error).toBeNull();
          expect(data).toEqual([
            expect.objectContaining({ customer_id: customerId, lead_status: 'contacted' }),
          ]);
        } else {
          expect(error?.code).toBe('42501');
          expect(data).toBeNull();
        }
      });

      it(`customer_list (count only): ${caller} ${expected[caller]}`, async () => {
        const { count, error } = await clients[caller].rpc('customer_list', filters, {
          count: 'exact',
          head: true,
        });
        if (expected[caller] === 'works') {
          expect(error).toBeNull();
          expect(count).toBe(1);
        } else {
          expect(error).not.toBeNull();
          expect(count).toBeNull();
        }
      });
    }
  },
);
