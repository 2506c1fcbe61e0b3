import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { setupDatabase } from '../db/setup.ts';
import { asRole } from './as-role.ts';
import { apiKeys, bearerToken, verifyGatewayToken, type GatewayClaims } from './gateway-jwt.ts';

const secret = 'gateway-test-secret-long-enough-for-hs256';
const sign = (claims: Record<string, unknown>, key = secret, expiresIn = '1h') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(key));

describe('gateway tokens', () => {
  it('accepts the three API roles and nothing else', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      const check = await verifyGatewayToken(await sign({ role }), secret);
      expect(check).toMatchObject({ ok: true, claims: { role } });
    }
    for (const role of ['hub_service', 'postgres', 'pg_read_server_files', undefined]) {
      expect(await verifyGatewayToken(await sign({ role }), secret)).toEqual({
        ok: false,
        reason: 'role',
      });
    }
  });

  it('refuses another secret, alg none and an expired token', async () => {
    expect(await verifyGatewayToken(await sign({ role: 'anon' }, 'x'.repeat(40)), secret)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const body = Buffer.from(JSON.stringify({ role: 'service_role' })).toString('base64url');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
    expect(await verifyGatewayToken(none, secret)).toEqual({ ok: false, reason: 'invalid' });
    const expired = await new SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 120)
      .sign(new TextEncoder().encode(secret));
    expect(await verifyGatewayToken(expired, secret)).toEqual({ ok: false, reason: 'expired' });
  });

  it('derives the same anon and service keys on every start', async () => {
    const [a, b] = [await apiKeys(secret), await apiKeys(secret)];
    expect(a).toEqual(b);
    expect(await verifyGatewayToken(a.anonKey, secret)).toMatchObject({ claims: { role: 'anon' } });
    expect(await verifyGatewayToken(a.serviceRoleKey, secret)).toMatchObject({
      claims: { role: 'service_role' },
    });
  });

  it('reads a bearer token', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer   abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('a request as its role', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({});
    await setupDatabase(db, {
      gateway: true,
      admin: { email: 'a@example.de', password: 'x'.repeat(12) },
    });
  });
  afterAll(() => db.close());

  const claims = (extra: Partial<GatewayClaims> = {}): GatewayClaims => ({
    role: 'authenticated',
    sub: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
    ...extra,
  });
  const info = { method: 'GET', path: '/users', readOnly: false };

  it('runs as the role with the claims where auth.uid() reads them', async () => {
    const row = await asRole(db, claims(), info, async (tx) => {
      const result = await tx.query<{ user: string; uid: string; role: string }>(
        'select current_user as user, auth.uid()::text as uid, auth.role() as role',
      );
      return result.rows[0];
    });
    expect(row).toEqual({
      user: 'authenticated',
      uid: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      role: 'authenticated',
    });
  });

  it('leaves nothing behind for the next statement on the connection', async () => {
    await asRole(db, claims(), info, async () => undefined);
    const after = await db.query<{ user: string; claims: string | null }>(
      "select current_user as user, nullif(current_setting('request.jwt.claims', true), '') as claims",
    );
    expect(after.rows[0]!.user).not.toBe('authenticated');
    expect(after.rows[0]!.claims).toBeNull();
  });

  it('refuses writes in a read-only request', async () => {
    await expect(
      asRole(db, claims({ role: 'service_role' }), { ...info, readOnly: true }, (tx) =>
        tx.query('update public.forms set title = title where id = 1'),
      ),
    ).rejects.toThrow(/read-only/);
  });

  it('lets the grants and policies decide: anon reads forms but no customers', async () => {
    const anon = { role: 'anon' } as const;
    const forms = await asRole(db, anon, info, (tx) => tx.query('select id from public.forms'));
    expect(forms.rowCount).toBeGreaterThanOrEqual(2);
    await expect(
      asRole(db, anon, info, (tx) => tx.query('select id from public.users')),
    ).rejects.toMatchObject({ code: '42501' });
  });
});
