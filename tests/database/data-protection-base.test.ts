import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOverview, type AnalysisFilter } from '../../src/desk/api/analysis.ts';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { supabaseClient } from '../helpers/supabase.ts';

// What retention and a person's erasure share (migration 20261125160000_data_protection_base.sql):
// leads deleted for data protection keep the Analyse figures and leave the proof of a consent to
// offers behind, and the access log is written by the database alone.

const everything: AnalysisFilter = {
  dayFrom: '2000-01-01',
  dayTo: '2999-12-31',
  questionnaireId: null,
  channel: null,
};

describe.each(['pglite', 'postgres'] as const)('data protection base on %s', (kind) => {
  let server: GatewayServer;
  let staff: SupabaseClient;
  let admin: SupabaseClient;
  const withOffers = questionnaireLead({ offer_info: true, email: 'Offer.Person@Example.de' });
  const withoutOffers = questionnaireLead({ offer_info: false });

  beforeAll(async () => {
    server = await startGatewayServer(kind);
    const staffAccount = await createAccount(server.db, `base-staff-${kind}@example.de`, 'staff');
    staff = await supabaseClient(server.url, testSecret, staffAccount.accessToken);
    const adminAccount = await createAccount(server.db, `base-admin-${kind}@example.de`, 'admin');
    admin = await supabaseClient(server.url, testSecret, adminAccount.accessToken);
    const res = await fetch(`${server.url}/api/responses/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submissions: [withOffers, withoutOffers] }),
    });
    expect(res.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('deletes leads and answers, keeps the figures and the proof of consent to offers', async () => {
    const before = await readOverview(staff, everything);
    expect(before.leads).toBe(2);
    const { rows: ids } = await server.db.query<{ id: number }>(
      'select id from public.responses order by id',
    );
    const deletedAt = '2026-11-25T12:00:00Z';
    const { rows } = await server.db.query<{ deleted: number }>(
      'select public.delete_leads_keeping_proof($1::integer[], $2) as deleted',
      [ids.map((row) => row.id), deletedAt],
    );
    expect(rows[0]?.deleted).toBe(2);

    const left = await server.db.query<{ leads: number; answers: number }>(
      `select (select count(*)::integer from public.responses) as leads,
              (select count(*)::integer from public.answers) as answers`,
    );
    expect(left.rows[0]).toEqual({ leads: 0, answers: 0 });
    // The counts come from the counters and stay (the times, e.g. the first lead's, are read
    // from the rows and go with them).
    const counts = (overview: typeof before) => ({
      leads: overview.leads,
      questionnaire_leads: overview.questionnaire_leads,
      offer_requests: overview.offer_requests,
      web_leads: overview.web_leads,
      offline_leads: overview.offline_leads,
    });
    expect(counts(await readOverview(staff, everything))).toEqual(counts(before));

    const proof = await server.db.query<Record<string, unknown>>(
      'select client_id, email_sha256, keep_until, offer_info from public.consent_records',
    );
    expect(proof.rows).toHaveLength(1);
    const record = proof.rows[0]!;
    expect(record.client_id).toBe(withOffers.client_id);
    expect(record.offer_info).toBe(true);
    // The address as typed, lower-cased: its SHA-256, never the address itself.
    const digest = Buffer.from(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode('offer.person@example.de')),
    ).toString('hex');
    expect(record.email_sha256).toBe(digest);
    expect(new Date(record.keep_until as string).toISOString()).toBe('2031-11-25T12:00:00.000Z');
    expect(JSON.stringify(proof.rows)).not.toMatch(/example\.de/i);
  });

  it('lets no API role delete leads this way or write the access log', async () => {
    const anon: SupabaseClient = await supabaseClient(server.url, testSecret);
    for (const client of [anon, staff, admin]) {
      const deleted = await client.rpc('delete_leads_keeping_proof', {
        lead_ids: [1],
        deleted_at: new Date().toISOString(),
      });
      expect(deleted.error).not.toBeNull();
      const logged = await client.rpc('log_access', {
        action: 'customer_viewed',
        customer_id: 1,
        detail: {},
      });
      expect(logged.error).not.toBeNull();
      const inserted = await client
        .from('access_log')
        .insert({ action: 'customer_viewed', customer_id: 1 });
      expect(inserted.error).not.toBeNull();
    }
  });

  it('shows the access log to admins only, and nobody changes it', async () => {
    await server.db.query(
      "insert into public.access_log (action, customer_id, detail) values ('customer_viewed', 7, '{}')",
    );
    const forStaff = await staff.from('access_log').select('id');
    expect(forStaff.data).toEqual([]);
    const forAdmin = await admin.from('access_log').select('id, action, customer_id');
    expect(forAdmin.data).toEqual([expect.objectContaining({ action: 'customer_viewed' })]);
    const changed = await admin.from('access_log').update({ customer_id: 8 }).eq('customer_id', 7);
    expect(changed.error).not.toBeNull();
    const removed = await admin.from('access_log').delete().eq('customer_id', 7);
    expect(removed.error).not.toBeNull();
    const { rows } = await server.db.query<{ n: number }>(
      'select count(*)::integer as n from public.access_log where customer_id = 7',
    );
    expect(rows[0]?.n).toBe(1);
  });
});
