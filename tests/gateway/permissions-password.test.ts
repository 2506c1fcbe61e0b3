import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccount,
  startGatewayServer,
  type Account,
  type DatabaseKind,
  type GatewayServer,
} from '../helpers/gateway-server.ts';

// Who may name an account (20261126130000_staff_name.sql), through supabase-js on both databases:
// every signed-in account its own row and no other, anon nobody.

describe.each(['pglite', 'postgres'] as const)('set_display_name on %s', (kind: DatabaseKind) => {
  let server: GatewayServer;
  let accounts: Record<'pending' | 'staff' | 'admin', Account>;

  beforeAll(async () => {
    server = await startGatewayServer(kind, undefined, { name: `permissions-password-${kind}` });
    accounts = {
      pending: await createAccount(server.db, 'wartend@example.de', 'pending'),
      staff: await createAccount(server.db, 'mitarbeit@example.de', 'staff'),
      admin: await createAccount(server.db, 'leitung@example.de', 'admin'),
    };
  });
  afterAll(() => server?.close());

  const names = async () => {
    const result = await server.db.query<{ email: string; display_name: string | null }>(
      `select email, display_name from public.staff
       where email in ('wartend@example.de', 'mitarbeit@example.de', 'leitung@example.de')
       order by email`,
    );
    return Object.fromEntries(result.rows.map((row) => [row.email, row.display_name]));
  };

  it('refuses anon', async () => {
    const { error } = await server.client().rpc('set_display_name', { name: 'Niemand' });
    expect(error).toMatchObject({ code: '42501' });
    expect(Object.values(await names())).toEqual([null, null, null]);
  });

  it('names the caller’s own row for pending, staff and admin, trimmed, and no other', async () => {
    for (const [role, account] of Object.entries(accounts)) {
      const { data, error } = await server
        .client(account.accessToken)
        .rpc('set_display_name', { name: `  Name ${role} ` });
      expect(error).toBeNull();
      expect(data).toBe(`Name ${role}`);
    }
    expect(await names()).toEqual({
      'leitung@example.de': 'Name admin',
      'mitarbeit@example.de': 'Name staff',
      'wartend@example.de': 'Name pending',
    });
  });

  it('clears the name with an empty one and refuses more than 80 characters', async () => {
    const client = server.client(accounts.staff.accessToken);
    const tooLong = await client.rpc('set_display_name', { name: 'x'.repeat(81) });
    expect(tooLong.error).toMatchObject({ code: '22001' });
    expect((await names())['mitarbeit@example.de']).toBe('Name staff');
    const cleared = await client.rpc('set_display_name', { name: '   ' });
    expect(cleared).toMatchObject({ data: null, error: null });
    expect((await names())['mitarbeit@example.de']).toBeNull();
  });

  it('leaves staff unable to write the name of another row directly', async () => {
    const { error } = await server
      .client(accounts.staff.accessToken)
      .from('staff')
      .update({ display_name: 'Fremd' })
      .eq('user_id', accounts.admin.id);
    expect(error).toBeNull();
    expect((await names())['leitung@example.de']).toBe('Name admin');
  });
});
