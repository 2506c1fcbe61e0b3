import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import {
  createAccount,
  startGatewayServer,
  type DatabaseKind,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// Who may do what with the new-lead mail (migration 20261126120000_lead_mail.sql), through the
// real supabase-js over HTTP on both databases: admins read and change the setting and see the
// queue's counts; staff and pending accounts see no setting and change none; anon is refused.
// Nobody reaches the queue itself: only the server (database owner) and the service role do.

const callers = ['anon', 'pending', 'staff', 'admin'] as const;
type Caller = (typeof callers)[number];
type Outcome = 'works' | 'refused' | 'hidden';
type PerCaller = readonly [anon: Outcome, pending: Outcome, staff: Outcome, admin: Outcome];

const matrix = {
  // [anon, pending, staff, admin]
  settingsSelect: ['refused', 'hidden', 'hidden', 'works'],
  settingsUpdate: ['refused', 'hidden', 'hidden', 'works'],
  outboxSelect: ['refused', 'refused', 'refused', 'refused'],
  outboxInsert: ['refused', 'refused', 'refused', 'refused'],
  outboxUpdate: ['refused', 'refused', 'refused', 'refused'],
  outboxDelete: ['refused', 'refused', 'refused', 'refused'],
  overview: ['refused', 'refused', 'refused', 'works'],
} satisfies Record<string, PerCaller>;

const refusedCodes = ['42501'];

describe.each(['pglite', 'postgres'] as DatabaseKind[])('lead mail permissions on %s', (kind) => {
  let server: GatewayServer;
  const clients = {} as Record<Caller, SupabaseClient<Database>>;
  let responseId = 0;

  const settingsRow = async () =>
    (
      await server.db.query<{ enabled: boolean; address: string | null; digest_hour: number }>(
        'select enabled, address, digest_hour from public.lead_mail_settings',
      )
    ).rows[0]!;
  const outboxRows = async () =>
    (
      await server.db.query<{ state: string; attempts: number }>(
        'select state, attempts from public.lead_mail_outbox where response_id = $1',
        [responseId],
      )
    ).rows;

  beforeAll(async () => {
    server = await startGatewayServer(kind, undefined, { name: `lead-mail-perm-${kind}` });
    clients.anon = await supabaseClient(server.url, testSecret);
    for (const role of ['pending', 'staff', 'admin'] as const) {
      const account = await createAccount(server.db, `lead-mail-${role}-${kind}@example.de`, role);
      clients[role] = await supabaseClient(server.url, testSecret, account.accessToken);
    }
    await server.db.query(
      `update public.lead_mail_settings set enabled = true, address = 'makler@example.de'`,
    );
    const { rows } = await server.db.query<{ id: number }>(
      `insert into public.responses (client_id, payload_hash, form_id, source, first_name,
         last_name, email, phone, terms_accepted, data_processing_consent, create_date, changed_date)
       values (gen_random_uuid(), 'matrix', 1, 'questionnaire', 'Erika', 'Matrix',
         'erika.matrix@example.de', '0170 1', true, true, now(), now())
       returning id`,
    );
    responseId = rows[0]!.id;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.query(
      `update public.lead_mail_settings set enabled = true, address = 'makler@example.de',
         digest_hour = 8`,
    );
  });

  describe.each(callers.map((caller, index) => [caller, index] as const))('as %s', (caller, i) => {
    it(`reads the setting: ${matrix.settingsSelect[i]}`, async () => {
      const { data, error } = await clients[caller]
        .from('lead_mail_settings')
        .select('enabled, address, mode, digest_hour');
      const outcome = matrix.settingsSelect[i];
      if (outcome === 'refused') expect(refusedCodes).toContain(error?.code);
      else {
        expect(error).toBeNull();
        expect(data).toEqual(
          outcome === 'works'
            ? [{ enabled: true, address: 'makler@example.de', mode: 'immediate', digest_hour: 8 }]
            : [],
        );
      }
    });

    it(`changes the setting: ${matrix.settingsUpdate[i]}`, async () => {
      const { error } = await clients[caller]
        .from('lead_mail_settings')
        .update({ digest_hour: 17 })
        .eq('id', true);
      const outcome = matrix.settingsUpdate[i];
      if (outcome === 'refused') expect(refusedCodes).toContain(error?.code);
      else expect(error).toBeNull();
      expect((await settingsRow()).digest_hour).toBe(outcome === 'works' ? 17 : 8);
    });

    it('never writes the worker’s own column (digest_sent_on)', async () => {
      const { error } = await clients[caller]
        .from('lead_mail_settings')
        .update({ digest_sent_on: '2026-01-01' })
        .eq('id', true);
      expect(refusedCodes).toContain(error?.code);
    });

    it(`reads the queue: ${matrix.outboxSelect[i]}`, async () => {
      const { data, error } = await clients[caller].from('lead_mail_outbox').select('*');
      expect(refusedCodes).toContain(error?.code);
      expect(data).toBeNull();
    });

    it(`adds to the queue: ${matrix.outboxInsert[i]}`, async () => {
      const { error } = await clients[caller].from('lead_mail_outbox').insert({
        response_id: responseId,
        idempotency_key: `lead:fremd-${caller}`,
        kind: 'immediate',
      });
      expect(refusedCodes).toContain(error?.code);
      expect(await outboxRows()).toHaveLength(1);
    });

    it(`changes the queue: ${matrix.outboxUpdate[i]}`, async () => {
      const { error } = await clients[caller]
        .from('lead_mail_outbox')
        .update({ state: 'sent', attempts: 99 })
        .eq('response_id', responseId);
      expect(refusedCodes).toContain(error?.code);
      expect(await outboxRows()).toEqual([{ state: 'pending', attempts: 0 }]);
    });

    it(`empties the queue: ${matrix.outboxDelete[i]}`, async () => {
      const { error } = await clients[caller]
        .from('lead_mail_outbox')
        .delete()
        .eq('response_id', responseId);
      expect(refusedCodes).toContain(error?.code);
      expect(await outboxRows()).toHaveLength(1);
    });

    it(`reads the queue's counts: ${matrix.overview[i]}`, async () => {
      const { data, error } = await clients[caller].rpc('lead_mail_overview');
      if (matrix.overview[i] === 'refused') expect(refusedCodes).toContain(error?.code);
      else {
        expect(error).toBeNull();
        expect(data).toEqual([{ waiting: 1, failed: 0, last_sent_at: null }]);
      }
    });
  });
});
