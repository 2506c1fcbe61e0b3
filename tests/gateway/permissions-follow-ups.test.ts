import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// The permission matrix for follow-ups and customer notes (20261126110000_follow_ups_notes.sql),
// through the real supabase-js over HTTP on both databases, as gateway-permissions.test.ts does
// for the older tables.
//
// works    the operation does what was asked (and the database shows it)
// refused  PostgREST's 42501; nothing changes
// hidden   row-level security hides the row: a read finds nothing, a write affects no row

type Outcome = 'works' | 'refused' | 'hidden';
const callers = ['anon', 'pending', 'staff', 'admin'] as const;
type Caller = (typeof callers)[number];
type PerCaller = readonly [anon: Outcome, pending: Outcome, staff: Outcome, admin: Outcome];
type Operation = 'select' | 'insert' | 'update' | 'delete';

// Staff and admins read all follow-ups, create them and change them; nobody deletes one (a wrong
// one is marked done; erasing the customer takes them). Notes: staff and admins read all and add
// their own; the author changes or deletes a note for 15 minutes (the caller's own fresh note
// below). Anon and pending accounts reach nothing.
const matrix: Record<'follow_ups' | 'customer_notes', Record<Operation, PerCaller>> = {
  follow_ups: {
    select: ['refused', 'hidden', 'works', 'works'],
    insert: ['refused', 'refused', 'works', 'works'],
    update: ['refused', 'hidden', 'works', 'works'],
    delete: ['refused', 'refused', 'refused', 'refused'],
  },
  customer_notes: {
    select: ['refused', 'hidden', 'works', 'works'],
    insert: ['refused', 'refused', 'works', 'works'],
    update: ['refused', 'hidden', 'works', 'works'],
    delete: ['refused', 'hidden', 'works', 'works'],
  },
};

const functionMatrix: Record<string, PerCaller> = {
  follow_up_list: ['refused', 'refused', 'works', 'works'],
  follow_up_counts: ['refused', 'refused', 'works', 'works'],
  customer_follow_ups: ['refused', 'refused', 'works', 'works'],
  complete_follow_up: ['refused', 'refused', 'works', 'works'],
  reopen_follow_up: ['refused', 'refused', 'works', 'works'],
  customer_note_list: ['refused', 'refused', 'works', 'works'],
};

describe.each(['pglite', 'postgres'] as const)('follow-up and note permissions on %s', (kind) => {
  let server: GatewayServer;
  const clients = {} as Record<Caller, SupabaseClient<Database>>;
  const ids = {} as Record<Caller, string | null>;
  let customerId = 0;

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    clients.anon = await supabaseClient(server.url, testSecret);
    ids.anon = null;
    for (const role of ['pending', 'staff', 'admin'] as const) {
      const account = await createAccount(server.db, `perm-wv-${role}-${kind}@example.de`, role);
      clients[role] = await supabaseClient(server.url, testSecret, account.accessToken);
      ids[role] = account.id;
    }
    const lead = questionnaireLead();
    const res = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead),
    });
    expect(res.status).toBe(201);
    const { rows } = await server.db.query<{ id: number }>(
      'select id from public.users where email = $1',
      [lead.email],
    );
    customerId = rows[0]!.id;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  /** A follow-up and a note as the database owner; the note's author is `author`. */
  async function fixtures(author: string | null) {
    const followUp = await server.db.query<{ id: number }>(
      `insert into public.follow_ups (customer_id, due_at, body) values ($1, now(), 'Anrufen')
       returning id::int as id`,
      [customerId],
    );
    // The staff account writes the note when the caller has no account of its own.
    const note = await server.db.query<{ id: number }>(
      `insert into public.customer_notes (customer_id, author, body) values ($1, $2, 'Notiz')
       returning id::int as id`,
      [customerId, author ?? ids.staff],
    );
    return { followUp: followUp.rows[0]!.id, note: note.rows[0]!.id };
  }

  async function bodyOf(table: 'follow_ups' | 'customer_notes', id: number) {
    const { rows } = await server.db.query<{ body: string }>(
      `select body from public.${table} where id = $1`,
      [id],
    );
    return rows[0]?.body;
  }

  for (const table of ['follow_ups', 'customer_notes'] as const) {
    for (const operation of ['select', 'insert', 'update', 'delete'] as const) {
      callers.forEach((caller, index) => {
        const expected = matrix[table][operation][index]!;
        it(`${table} ${operation} by ${caller}: ${expected}`, async () => {
          const client = clients[caller];
          const made = await fixtures(ids[caller]);
          const id = table === 'follow_ups' ? made.followUp : made.note;
          if (operation === 'select') {
            const { data, error } = await client.from(table).select('id, body').eq('id', id);
            if (expected === 'refused') expect(error?.code).toBe('42501');
            else
              expect(data).toEqual(expected === 'works' ? [{ id, body: expect.any(String) }] : []);
            return;
          }
          if (operation === 'insert') {
            const body = `Neu von ${caller}`;
            const row =
              table === 'follow_ups'
                ? client
                    .from('follow_ups')
                    .insert({ customer_id: customerId, due_at: new Date().toISOString(), body })
                : client.from('customer_notes').insert({ customer_id: customerId, body });
            const { error } = await row;
            const { rows } = await server.db.query<{ n: number }>(
              `select count(*)::int as n from public.${table} where body = $1`,
              [body],
            );
            if (expected === 'works') {
              expect(error).toBeNull();
              expect(rows[0]!.n).toBe(1);
            } else {
              expect(error?.code).toBe('42501');
              expect(rows[0]!.n).toBe(0);
            }
            return;
          }
          if (operation === 'update') {
            const { data, error } = await client
              .from(table)
              .update({ body: 'Geändert' })
              .eq('id', id)
              .select('id');
            if (expected === 'refused') expect(error?.code).toBe('42501');
            else expect(data).toEqual(expected === 'works' ? [{ id }] : []);
            const before = table === 'follow_ups' ? 'Anrufen' : 'Notiz';
            expect(await bodyOf(table, id)).toBe(expected === 'works' ? 'Geändert' : before);
            return;
          }
          const { data, error } = await client.from(table).delete().eq('id', id).select('id');
          if (expected === 'refused') expect(error?.code).toBe('42501');
          else expect(data).toEqual(expected === 'works' ? [{ id }] : []);
          expect(await bodyOf(table, id)).toBe(
            expected === 'works' ? undefined : table === 'follow_ups' ? 'Anrufen' : 'Notiz',
          );
        });
      });
    }
  }

  it('keeps a colleague’s note from staff, for editing and deleting', async () => {
    const { note } = await fixtures(ids.admin);
    const edited = await clients.staff
      .from('customer_notes')
      .update({ body: 'fremd' })
      .eq('id', note)
      .select('id');
    expect(edited.data).toEqual([]);
    const removed = await clients.staff.from('customer_notes').delete().eq('id', note).select('id');
    expect(removed.data).toEqual([]);
    expect(await bodyOf('customer_notes', note)).toBe('Notiz');
  });

  for (const [name, outcomes] of Object.entries(functionMatrix)) {
    callers.forEach((caller, index) => {
      const expected = outcomes[index]!;
      it(`rpc ${name} by ${caller}: ${expected}`, async () => {
        const { followUp } = await fixtures(ids[caller]);
        const client = clients[caller];
        const call = () => {
          switch (name) {
            case 'follow_up_list':
              return client.rpc('follow_up_list', { due: 'open', page_size: 5 });
            case 'follow_up_counts':
              return client.rpc('follow_up_counts');
            case 'customer_follow_ups':
              return client.rpc('customer_follow_ups', { of_customer: customerId });
            case 'complete_follow_up':
              return client.rpc('complete_follow_up', { follow_up_id: followUp });
            case 'reopen_follow_up':
              return client.rpc('reopen_follow_up', { follow_up_id: followUp });
            default:
              return client.rpc('customer_note_list', { customer_id: customerId });
          }
        };
        const { data, error } = await call();
        if (expected === 'refused') {
          expect(error?.code).toBe('42501');
          expect(data).toBeNull();
        } else {
          expect(error).toBeNull();
          expect(data).not.toBeNull();
        }
        const { rows } = await server.db.query<{ done: boolean }>(
          'select done_at is not null as done from public.follow_ups where id = $1',
          [followUp],
        );
        expect(rows[0]!.done).toBe(name === 'complete_follow_up' && expected === 'works');
      });
    });
  }
});
