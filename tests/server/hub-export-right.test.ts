import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccount,
  startGatewayServer,
  type Account,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { hubService } from '../helpers/hub.ts';
import { fetchFrom, supabaseClient } from '../helpers/supabase.ts';

// The desk's export right holds on the hub too (issue 32, item 2): with staff_can_export off, a
// staff token reads no lead list and no lead by id through /api, while an admin and an
// integration (the hub's service token) keep theirs; every read of leads counts against one
// budget per client and minute.
describe.each(['pglite', 'postgres'] as const)('the export right on the hub on %s', (kind) => {
  let server: GatewayServer;
  let staff: Account;
  let admin: Account;
  let pending: Account;
  let lead: number;
  const readsPerMinute = 4;
  // Each test reads from its own loopback address, so the per-client budget of one test never
  // spends another's.
  let nextClient = 10;
  const newClient = () => fetchFrom(`127.0.0.${(nextClient += 1)}`);

  beforeAll(async () => {
    server = await startGatewayServer(kind, undefined, {
      name: `hub-export-right-${kind}`,
      rateLimit: {
        submissionsPerMinute: 10_000,
        batchesPerMinute: 10_000,
        leadReadsPerMinute: readsPerMinute,
      },
    });
    staff = await createAccount(server.db, `export-staff-${kind}@example.de`, 'staff');
    admin = await createAccount(server.db, `export-admin-${kind}@example.de`, 'admin');
    pending = await createAccount(server.db, `export-pending-${kind}@example.de`, 'pending');
    const stored = await fetch(`${server.url}/api/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(questionnaireLead()),
    });
    expect(stored.status).toBe(201);
    lead = ((await stored.json()) as { id: number }).id;
  }, 120_000);
  afterAll(() => server?.close());

  const read = (client: typeof fetch, path: string, token: string) =>
    client(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const serviceToken = async () => {
    const login = await fetch(`${server.url}/api/hub/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(hubService),
    });
    expect(login.status).toBe(200);
    return ((await login.json()) as { token: string }).token;
  };
  /** The setting as the desk's admin screen changes it: supabase-js, as the admin. */
  const allowStaff = async (allowed: boolean) => {
    const desk = await supabaseClient(server.url, server.secret, admin.accessToken);
    const { error } = await desk
      .from('desk_settings')
      .update({ staff_can_export: allowed })
      .eq('id', true);
    expect(error).toBeNull();
  };
  const deskRight = async (account: Account) => {
    const desk = await supabaseClient(server.url, server.secret, account.accessToken);
    const { data, error } = await desk.rpc('can_export');
    expect(error).toBeNull();
    return data;
  };
  const viewsBy = async (account: Account) => {
    const logged = await server.db.query<{ n: number }>(
      `select count(*)::int as n from public.access_log
        where action = 'answers_viewed' and user_id = $1::uuid`,
      [account.id],
    );
    return logged.rows[0]!.n;
  };

  it('refuses staff without the export right the list and each lead, and logs nothing', async () => {
    expect(await deskRight(staff)).toBe(false);
    const client = newClient();
    for (const path of ['/api/responses?limit=500', `/api/responses/${lead}`]) {
      const res = await read(client, path, staff.accessToken);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error: {
          code: 'export_not_allowed',
          message:
            'Dieses Konto darf keine Anfragen exportieren. Admins können es Mitarbeitenden unter „Mitarbeiter“ erlauben.',
        },
      });
    }
    // Not even a malformed id tells the caller anything beyond the refusal.
    expect((await read(client, '/api/responses/abc', staff.accessToken)).status).toBe(403);
    expect(await viewsBy(staff)).toBe(0);
  });

  it('follows the desk’s setting on every request: allowed, staff read; revoked, refused again', async () => {
    await allowStaff(true);
    try {
      expect(await deskRight(staff)).toBe(true);
      const list = await read(newClient(), '/api/responses?limit=500', staff.accessToken);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { id: number }[]).map((r) => r.id)).toContain(lead);
      const one = await read(newClient(), `/api/responses/${lead}`, staff.accessToken);
      expect(one.status).toBe(200);
      expect(((await one.json()) as { answers: unknown[] }).answers.length).toBeGreaterThan(0);
      expect(await viewsBy(staff)).toBeGreaterThanOrEqual(2);
    } finally {
      await allowStaff(false);
    }
    expect(await deskRight(staff)).toBe(false);
    const again = await read(newClient(), `/api/responses/${lead}`, staff.accessToken);
    expect(again.status).toBe(403);
  });

  it('lets an admin read always, and an integration with the hub token', async () => {
    expect(await deskRight(admin)).toBe(true);
    const asAdmin = await read(newClient(), `/api/responses/${lead}`, admin.accessToken);
    expect(asAdmin.status).toBe(200);
    expect(await viewsBy(admin)).toBe(1);
    const token = await serviceToken();
    const asIntegration = await read(newClient(), '/api/responses?limit=500', token);
    expect(asIntegration.status).toBe(200);
    expect(((await asIntegration.json()) as { id: number }[]).map((r) => r.id)).toContain(lead);
  });

  it('still refuses an account without a desk role', async () => {
    const res = await read(newClient(), '/api/responses', pending.accessToken);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('limits reads of leads per client and minute, list and single reads together', async () => {
    const token = await serviceToken();
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < readsPerMinute; i += 1) {
      const path = i % 2 === 0 ? '/api/responses?limit=1' : `/api/responses/${lead}`;
      statuses.push((await read(client, path, token)).status);
    }
    expect(statuses).toEqual(Array.from({ length: readsPerMinute }, () => 200));
    const over = await read(client, `/api/responses/${lead}`, token);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toEqual({
      error: {
        code: 'rate_limited',
        message: 'Zu viele Anfragen. Bitte versuchen Sie es gleich noch einmal.',
      },
    });
    // Refused tokens count too: a flood of bad tokens is cut off before any check.
    expect((await read(client, '/api/responses', 'kein-token')).status).toBe(429);
    // Another client keeps its own budget.
    expect((await read(newClient(), '/api/responses?limit=1', token)).status).toBe(200);
  });
});
