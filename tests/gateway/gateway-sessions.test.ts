import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../server/gateway/auth/passwords.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { fetchFrom, supabaseClient } from '../helpers/supabase.ts';

// What a bearer token opens, on every service that checks one (issue 32, item 8): a token must
// expire, and a session that ended (password changed elsewhere, signed out) opens nothing any
// more on /rest/v1, /storage/v1 and the hub's /api either, not only on /auth/v1.

const key = new TextEncoder().encode(testSecret);

describe.each(['pglite', 'postgres'] as const)('bearer tokens on %s', (kind) => {
  let server: GatewayServer;
  let accountNumber = 0;
  let clientNumber = 40;

  beforeAll(async () => {
    server = await startGatewayServer(kind, undefined, { name: `gateway-sessions-${kind}` });
  });
  afterAll(() => server?.close());

  /** Each sign-in from its own client address, so the per-client limits never meet. */
  const newClient = () =>
    supabaseClient(server.url, testSecret, undefined, {
      fetch: fetchFrom(`127.0.0.${clientNumber++}`),
    });

  /**
   * A confirmed admin account with a password, made in the database (an admin: the hub reads
   * leads only for accounts with the export right).
   */
  async function staffAccount(password = 'altes-passwort-1') {
    accountNumber += 1;
    const email = `sitzung${accountNumber}@example.de`;
    const inserted = await server.db.query<{ id: string }>(
      `insert into auth.users (email, encrypted_password, email_confirmed_at)
       values ($1, $2, now()) returning id::text`,
      [email, await hashPassword(password)],
    );
    const id = inserted.rows[0]!.id;
    await server.db.query(`update public.staff set role = 'admin' where user_id = $1`, [id]);
    return { id, email, password };
  }

  async function signIn(email: string, password: string) {
    const supabase = await newClient();
    const { data, error } = await supabase.auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    return { supabase, accessToken: data.session!.access_token };
  }

  /** What each service answers to `token`: status and error code, as its client reads them. */
  async function answers(token: string) {
    const supabase = server.client(token);
    const rest = await supabase.from('forms').select('id').limit(1);
    const storage = await supabase.storage.from('documents').list();
    const user = await supabase.auth.getUser(token);
    const hub = await fetch(`${server.url}/api/responses?limit=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return {
      rest: { status: rest.status, code: rest.error?.code },
      storage: {
        status: (storage.error as { status?: number } | null)?.status,
        message: storage.error?.message,
      },
      auth: { status: user.error?.status, code: user.error?.code ?? user.error?.name },
      hub: {
        status: hub.status,
        code: ((await hub.json()) as { error?: { code?: string } }).error?.code,
      },
    };
  }

  it('refuses a well-signed token without exp on every service, each in its own shape', async () => {
    const { id, email } = await staffAccount();
    const claims = { role: 'authenticated', aud: 'authenticated', sub: id, email };
    const signed = (withExp: boolean) => {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt();
      return (withExp ? jwt.setExpirationTime('1h') : jwt).sign(key);
    };
    // The same claims with an expiry open every service ...
    expect(await answers(await signed(true))).toEqual({
      rest: { status: 200, code: undefined },
      storage: { status: undefined, message: undefined },
      auth: { status: undefined, code: undefined },
      hub: { status: 200, code: undefined },
    });
    // ... and without one, none.
    expect(await answers(await signed(false))).toEqual({
      rest: { status: 401, code: 'PGRST303' },
      storage: { status: 400, message: 'missing required "exp" claim' },
      auth: { status: 403, code: 'bad_jwt' },
      hub: { status: 401, code: 'invalid_token' },
    });
    // A service_role token without exp is no master key either.
    const service = await new SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(key);
    const { status, error } = await server.client(service).from('forms').select('id');
    expect({ status, code: error?.code }).toEqual({ status: 401, code: 'PGRST303' });
  });

  const open = {
    rest: { status: 200, code: undefined },
    storage: { status: undefined, message: undefined },
    auth: { status: undefined, code: undefined },
    hub: { status: 200, code: undefined },
  };
  const ended = {
    rest: { status: 401, code: 'PGRST303' },
    storage: { status: 400, message: 'Session has ended' },
    // supabase-js reports GoTrue's session_not_found as a missing session.
    auth: { status: 400, code: 'AuthSessionMissingError' },
    hub: { status: 401, code: 'invalid_token' },
  };

  it('ends every other session on /rest/v1, /storage/v1 and /api at once when the password changes', async () => {
    const { email, password } = await staffAccount();
    const changer = await signIn(email, password);
    const other = await signIn(email, password);
    // Both sessions open everything (and the other one's check is now cached as live).
    expect(await answers(other.accessToken)).toEqual(open);
    expect(await answers(changer.accessToken)).toEqual(open);

    const { error } = await changer.supabase.auth.updateUser({
      password: 'neues-passwort-7',
      current_password: password,
    });
    expect(error).toBeNull();
    // The other session's access token has not expired, yet opens nothing any more ...
    expect(await answers(other.accessToken)).toEqual(ended);
    // ... while the session that made the change keeps working.
    expect(await answers(changer.accessToken)).toEqual(open);
  });

  it('ends a signed-out session on every service at once, and one deleted elsewhere within about a second', async () => {
    const { email, password } = await staffAccount();
    const leaving = await signIn(email, password);
    const staying = await signIn(email, password);
    expect(await answers(leaving.accessToken)).toEqual(open);
    expect((await leaving.supabase.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(await answers(leaving.accessToken)).toEqual(ended);
    expect(await answers(staying.accessToken)).toEqual(open);

    // A session removed by SQL (as an admin's tool or hosted GoTrue would) is noticed by the
    // next check after the one-second cache.
    const { session_id: sessionId } = JSON.parse(
      Buffer.from(staying.accessToken.split('.')[1]!, 'base64url').toString(),
    ) as { session_id: string };
    await server.db.query('delete from auth.sessions where id = $1', [sessionId]);
    const started = Date.now();
    await vi.waitFor(async () => expect(await answers(staying.accessToken)).toEqual(ended), {
      timeout: 5_000,
      interval: 100,
    });
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});
