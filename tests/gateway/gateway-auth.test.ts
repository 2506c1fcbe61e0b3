import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { loggerOptions } from '../../server/logging.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { fetchFrom, supabaseClient } from '../helpers/supabase.ts';

// The gateway's auth driven by the real supabase-js over HTTP, as Survey Desk will drive it: the
// error cases check `error.code` and `error.status` as the client exposes them.

const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };
const password = 'richtig-geheim-1';

let server: GatewayServer;
let app: FastifyInstance;
let db: Database;
let url: string;
let dataDir: string;
/** Moves the gateway's clock (not the process's) forward, for the refresh token's reuse window. */
let clockOffsetMs = 0;

beforeAll(async () => {
  server = await startGatewayServer('pglite', undefined, {
    name: 'gateway-auth',
    now: () => new Date(Date.now() + clockOffsetMs),
  });
  ({ app, db, url, dataDir } = server);
});

afterAll(() => server?.close());

const client = () => supabaseClient(url, testSecret);

/**
 * The link of the `count`th confirmation mail to `email`, read from DATA_DIR/mail as a developer
 * would (the mail goes out after the answer, so it is waited for).
 */
async function confirmationLink(email: string, count = 1): Promise<string> {
  const folder = path.join(dataDir, 'mail');
  const mails = await vi.waitFor(async () => {
    const all = await Promise.all(
      (await readdir(folder).catch(() => [] as string[]))
        .sort()
        .map(async (file) => JSON.parse(await readFile(path.join(folder, file), 'utf8'))),
    );
    const found = all.filter((m: { to: string }) => m.to === email);
    expect(found).toHaveLength(count);
    return found;
  });
  const mail = mails.at(-1) as { subject: string; text: string } | undefined;
  expect(mail?.subject).toBe('Bitte bestätigen Sie Ihre E-Mail-Adresse');
  const link = /(http\S+\/auth\/v1\/verify\S+)/.exec(mail!.text)?.[1];
  expect(link).toBeDefined();
  return link!;
}

/** A confirmed account, through sign-up and the mailed link. */
async function confirmedAccount(email: string): Promise<void> {
  const { error } = await (await client()).auth.signUp({ email, password });
  expect(error).toBeNull();
  const res = await fetch(await confirmationLink(email), { redirect: 'manual' });
  expect(res.status).toBe(303);
}

async function signIn(email: string, pass = password) {
  const supabase = await client();
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: pass });
  expect(error).toBeNull();
  return { supabase, session: data.session! };
}

async function sessionIsGone(accessToken: string): Promise<boolean> {
  const { error } = await (await client()).auth.getUser(accessToken);
  return error?.name === 'AuthSessionMissingError';
}

describe('sign-up and confirmation', () => {
  const email = 'neu@example.de';

  it('signs up without a session and mails a confirmation link', async () => {
    const supabase = await client();
    const { data, error } = await supabase.auth.signUp({
      email,
      password,
      options: { data: { full_name: 'Erika Muster' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'Erika Muster', email, email_verified: false },
      is_anonymous: false,
    });
    expect(data.user!.confirmation_sent_at).toEqual(expect.any(String));
    expect(data.user!.email_confirmed_at).toBeUndefined();
    // The same answer a taken address gets: nothing in it tells which one this was.
    expect(data.user!.identities).toEqual([]);
    expect(await confirmationLink(email)).toMatch(
      new RegExp(`^${url}/auth/v1/verify\\?token=[\\w-]+&type=signup$`),
    );
    // The database trigger made the account a pending staff member.
    const staff = await db.query<{ role: string }>(
      `select s.role from public.staff s join auth.users u on u.id = s.user_id where u.email = $1`,
      [email],
    );
    expect(staff.rows).toEqual([{ role: 'pending' }]);
  });

  it('refuses the sign-in until the address is confirmed', async () => {
    const { data, error } = await (await client()).auth.signInWithPassword({ email, password });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
  });

  it('confirms through the link, which leads to the sign-in screen with a notice, once', async () => {
    const link = await confirmationLink(email);
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/surveydesk/signin?bestaetigt=1');

    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/surveydesk/signin?bestaetigung=ungueltig');
    const forged = await fetch(`${url}/auth/v1/verify?token=erfunden&type=signup`, {
      redirect: 'manual',
    });
    expect(forged.headers.get('location')).toBe('/surveydesk/signin?bestaetigung=ungueltig');

    const { session } = await signIn(email);
    expect(session.user.email_confirmed_at).toEqual(expect.any(String));
    expect(session.user.user_metadata).toMatchObject({ email_verified: true });
  });

  it('answers a taken address like a new one: a made-up user, no identities, no session, no mail', async () => {
    const mailsBefore = (await readdir(path.join(dataDir, 'mail'))).length;
    clockOffsetMs += 61_000;
    const { data, error } = await (await client()).auth.signUp({ email, password: 'anderes-1234' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({ email, identities: [] });
    const real = await db.query<{ id: string }>('select id from auth.users where email = $1', [
      email,
    ]);
    expect(data.user!.id).not.toBe(real.rows[0]!.id);
    expect((await readdir(path.join(dataDir, 'mail'))).length).toBe(mailsBefore);
    // The password of the real account is untouched.
    await signIn(email);
  });

  it('gives a new, an unconfirmed and a confirmed address the same answer in similar time (security review, item 4)', async () => {
    const unconfirmed = `unbestaetigt-${crypto.randomUUID()}@example.de`;
    expect((await (await client()).auth.signUp({ email: unconfirmed, password })).error).toBeNull();
    clockOffsetMs += 61_000;
    const shape = (answer: Record<string, unknown>) =>
      JSON.stringify(answer, (key, value: unknown) =>
        ['id', 'sub', 'email', 'created_at', 'updated_at', 'confirmation_sent_at'].includes(key)
          ? typeof value
          : value,
      );
    const answers: Record<string, { body: string; ms: number[] }> = {};
    for (let round = 0; round < 3; round += 1) {
      for (const [kind, address] of [
        ['neu', `neu-${round}-${crypto.randomUUID()}@example.de`],
        ['unbestätigt', unconfirmed],
        ['bestätigt', admin.email],
      ] as const) {
        clockOffsetMs += 61_000;
        const started = performance.now();
        const answer = await fetch(`${url}/auth/v1/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', apikey: 'x' },
          body: JSON.stringify({ email: address, password: 'ein-passwort-9' }),
        });
        const ms = performance.now() - started;
        expect(answer.status).toBe(200);
        const entry = (answers[kind] ??= { body: '', ms: [] });
        entry.body = shape((await answer.json()) as Record<string, unknown>);
        entry.ms.push(ms);
      }
    }
    expect(answers['unbestätigt']!.body).toBe(answers['neu']!.body);
    expect(answers['bestätigt']!.body).toBe(answers['neu']!.body);
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    const ratio = median(answers['bestätigt']!.ms) / median(answers['neu']!.ms);
    // Generous: the password is hashed in every case, so the known address costs about the same.
    expect(ratio).toBeGreaterThan(0.3);
    expect(ratio).toBeLessThan(3);
  });

  it('answers a second sign-up within the minute with the same 429 whether the address is new, unconfirmed or confirmed (security review, item 4)', async () => {
    clockOffsetMs += 61_000;
    const unconfirmed = `warten-${crypto.randomUUID()}@example.de`;
    const fresh = `frisch-${crypto.randomUUID()}@example.de`;
    expect((await (await client()).auth.signUp({ email: unconfirmed, password })).error).toBeNull();
    clockOffsetMs += 61_000;
    const secondAnswers: Record<string, unknown> = {};
    for (const [kind, address] of [
      ['neu', fresh],
      ['unbestätigt', unconfirmed],
      ['bestätigt', admin.email],
    ] as const) {
      const signUp = () =>
        fetch(`${url}/auth/v1/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', apikey: 'x' },
          body: JSON.stringify({ email: address, password: 'ein-passwort-9' }),
        });
      expect((await signUp()).status).toBe(200);
      const again = await signUp();
      secondAnswers[kind] = { status: again.status, body: await again.json() };
    }
    expect(secondAnswers['neu']).toMatchObject({
      status: 429,
      body: { error_code: 'over_email_send_rate_limit' },
    });
    expect(secondAnswers['unbestätigt']).toEqual(secondAnswers['neu']);
    expect(secondAnswers['bestätigt']).toEqual(secondAnswers['neu']);
  });

  it('lets a later sign-up of an unconfirmed address replace its password; only the followed link’s password signs in (security review, item 4)', async () => {
    const address = `zweimal-${crypto.randomUUID()}@example.de`;
    const supabase = await client();
    const first = await supabase.auth.signUp({
      email: address,
      password: 'erstes-passwort-1',
      options: { data: { full_name: 'Mallory' } },
    });
    expect(first.error).toBeNull();
    const firstLink = await confirmationLink(address);
    clockOffsetMs += 61_000;
    const second = await supabase.auth.signUp({
      email: address,
      password: 'zweites-passwort-2',
      options: { data: { full_name: 'Erika Muster' } },
    });
    expect(second.error).toBeNull();
    const secondLink = await confirmationLink(address, 2);
    expect(secondLink).not.toBe(firstLink);

    const stale = await fetch(firstLink, { redirect: 'manual' });
    expect(stale.headers.get('location')).toBe('/surveydesk/signin?bestaetigung=ungueltig');
    const followed = await fetch(secondLink, { redirect: 'manual' });
    expect(followed.headers.get('location')).toBe('/surveydesk/signin?bestaetigt=1');

    const early = await (
      await client()
    ).auth.signInWithPassword({ email: address, password: 'erstes-passwort-1' });
    expect(early.error).toMatchObject({ code: 'invalid_credentials' });
    const { session } = await signIn(address, 'zweites-passwort-2');
    expect(session.user.user_metadata).toMatchObject({ full_name: 'Erika Muster' });
  });

  it('builds the mail’s link from the configured address, never from the request’s Host (security review, item 3)', async () => {
    const address = `host-${crypto.randomUUID()}@example.de`;
    const answer = await app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      headers: {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        'content-type': 'application/json',
      },
      payload: { email: address, password },
    });
    expect(answer.statusCode).toBe(200);
    const link = await confirmationLink(address);
    expect(link.startsWith(`${url}/auth/v1/verify?`)).toBe(true);
    expect(link).not.toContain('evil.example');
  });

  it('refuses a weak password with its reasons', async () => {
    const { data, error } = await (
      await client()
    ).auth.signUp({ email: 'schwach@example.de', password: 'kurz' });
    expect(data.user).toBeNull();
    expect(error).toMatchObject({
      name: 'AuthWeakPasswordError',
      status: 422,
      code: 'weak_password',
      reasons: ['length'],
    });
  });

  it('refuses a malformed address', async () => {
    const { error } = await (await client()).auth.signUp({ email: 'keine-adresse', password });
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});

describe('sign-in', () => {
  it('signs the seeded admin in with a session and GoTrue’s claims', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { session } = await signIn(admin.email, admin.password);
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(session.refresh_token).toEqual(expect.any(String));
    expect(session.expires_at).toBeGreaterThanOrEqual(before + 3600);
    expect(session.user).toMatchObject({ email: admin.email, role: 'authenticated' });
    expect(session.user.last_sign_in_at).toEqual(expect.any(String));

    const claims = decodeJwt(session.access_token);
    const dbSession = await db.query<{ id: string }>(
      'select id from auth.sessions where user_id = $1',
      [session.user.id],
    );
    expect(claims).toEqual({
      iss: `${url}/auth/v1`,
      sub: session.user.id,
      aud: 'authenticated',
      exp: session.expires_at,
      iat: session.expires_at! - 3600,
      email: admin.email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: expect.objectContaining({ email: admin.email }),
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      is_anonymous: false,
    });
    expect(dbSession.rows.map((row) => row.id)).toContain(claims.session_id);
  });

  it('gives the same error for a wrong password and an unknown address', async () => {
    for (const [email, pass] of [
      [admin.email, 'falsch-falsch-1'],
      ['niemand@example.de', 'falsch-falsch-1'],
    ] as const) {
      const { data, error } = await (
        await client()
      ).auth.signInWithPassword({ email, password: pass });
      expect(data.session).toBeNull();
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    }
  });

  it('answers in the legacy shape when the caller asks for no API version', async () => {
    const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: 'falsch-falsch-1' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBeNull();
    expect(res.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(await res.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });
});

describe('refresh', () => {
  const email = 'tabs@example.de';
  beforeAll(() => confirmedAccount(email));

  it('rotates the refresh token and keeps the session', async () => {
    const { supabase, session } = await signIn(email);
    const { data, error } = await supabase.auth.refreshSession({
      refresh_token: session.refresh_token,
    });
    expect(error).toBeNull();
    expect(data.session!.refresh_token).not.toBe(session.refresh_token);
    expect(decodeJwt(data.session!.access_token).session_id).toBe(
      decodeJwt(session.access_token).session_id,
    );
  });

  it('gives two tabs refreshing the same token at once the same new token', async () => {
    const { session } = await signIn(email);
    const [tabA, tabB] = [await client(), await client()];
    const [a, b] = await Promise.all([
      tabA.auth.refreshSession({ refresh_token: session.refresh_token }),
      tabB.auth.refreshSession({ refresh_token: session.refresh_token }),
    ]);
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    expect(a.data.session!.refresh_token).toBe(b.data.session!.refresh_token);
    // The shared child refreshes on as usual.
    const next = await tabA.auth.refreshSession({ refresh_token: a.data.session!.refresh_token });
    expect(next.error).toBeNull();
  });

  it('ends the session when a used token comes back after the reuse window', async () => {
    const { supabase, session } = await signIn(email);
    const first = await supabase.auth.refreshSession({ refresh_token: session.refresh_token });
    const child = first.data.session!;
    clockOffsetMs += 11_000;
    try {
      const { data, error } = await supabase.auth.refreshSession({
        refresh_token: session.refresh_token,
      });
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    } finally {
      clockOffsetMs -= 11_000;
    }
    // The whole family is gone: the child no longer refreshes, the access token has no session.
    const { error } = await supabase.auth.refreshSession({ refresh_token: child.refresh_token });
    expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    expect(await sessionIsGone(child.access_token)).toBe(true);
  });

  it('refuses an unknown and a malformed refresh token', async () => {
    const supabase = await client();
    const unknown = await supabase.auth.refreshSession({ refresh_token: 'x'.repeat(43) });
    expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const short = await supabase.auth.refreshSession({ refresh_token: 'kurz' });
    expect(short.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});

describe('user and sign-out', () => {
  const email = 'geraete@example.de';
  beforeAll(() => confirmedAccount(email));

  it('getUser answers the user of the access token', async () => {
    const { supabase, session } = await signIn(email);
    const { data, error } = await supabase.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      id: session.user.id,
      email,
      identities: [{ provider: 'email' }],
    });
  });

  it('signs out only this device, all others, or everywhere', async () => {
    const devices = async (count: number) =>
      Promise.all(Array.from({ length: count }, () => signIn(email)));

    const [a, b, c] = await devices(3);
    expect((await a!.supabase.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect(await sessionIsGone(a!.session.access_token)).toBe(false);
    expect(await sessionIsGone(b!.session.access_token)).toBe(true);
    expect(await sessionIsGone(c!.session.access_token)).toBe(true);

    const [d] = await devices(1);
    expect((await a!.supabase.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(await sessionIsGone(a!.session.access_token)).toBe(true);
    expect(await sessionIsGone(d!.session.access_token)).toBe(false);

    const [e, f] = await devices(2);
    expect((await e!.supabase.auth.signOut()).error).toBeNull();
    for (const device of [d, e, f]) {
      expect(await sessionIsGone(device!.session.access_token)).toBe(true);
    }
    // A signed-out refresh token is gone with its session.
    const { error } = await (
      await client()
    ).auth.refreshSession({ refresh_token: f!.session.refresh_token });
    expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });

  it('answers a missing, a forged and a foreign bearer token with GoTrue’s codes', async () => {
    const call = (authorization?: string) =>
      fetch(`${url}/auth/v1/user`, {
        headers: {
          'x-supabase-api-version': '2024-01-01',
          ...(authorization ? { authorization } : {}),
        },
      });
    const none = await call();
    expect(none.status).toBe(401);
    expect(none.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await none.json()).toEqual({
      code: 'no_authorization',
      message: 'This endpoint requires a valid Bearer token',
    });

    const supabase = await client();
    const forged = await supabase.auth.getUser('kein.gueltiges.token');
    expect(forged.error).toMatchObject({ status: 403, code: 'bad_jwt' });

    const sign = (claims: Record<string, unknown>, secret = testSecret) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret));
    const otherSecret = await supabase.auth.getUser(
      await sign({ role: 'authenticated', sub: crypto.randomUUID() }, 'y'.repeat(48)),
    );
    expect(otherSecret.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    // The hub's own service token is signed with the same secret but is no caller of the gateway.
    const hubToken = await supabase.auth.getUser(await sign({ role: 'hub_service' }));
    expect(hubToken.error).toMatchObject({ status: 401, code: 'bad_jwt' });
    // The anon key has no user.
    const anon = await supabase.auth.getUser(await sign({ role: 'anon' }));
    expect(anon.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    const ghost = await supabase.auth.getUser(
      await sign({ role: 'authenticated', sub: crypto.randomUUID() }),
    );
    expect(ghost.error).toMatchObject({ status: 403, code: 'user_not_found' });

    const { session } = await signIn(email);
    await db.query('delete from auth.sessions where user_id = $1', [session.user.id]);
    const gone = await call(`Bearer ${session.access_token}`);
    expect(gone.status).toBe(403);
    expect(await gone.json()).toEqual({
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    });
    expect((await supabase.auth.getUser(session.access_token)).error?.name).toBe(
      'AuthSessionMissingError',
    );
  });

  it('refuses an unknown sign-out scope', async () => {
    const { session } = await signIn(email);
    const res = await fetch(`${url}/auth/v1/logout?scope=alle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: 'validation_failed' });
  });
});

describe('rate limits', () => {
  let limited: FastifyInstance;
  let limitedUrl: string;
  let limitedClient: () => Promise<SupabaseClient>;
  /** The limited gateway's clock, moved forward instead of waiting. */
  let limitedClockMs = 0;
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });

  beforeAll(async () => {
    // The same gateway with low limits, as AUTH_RATE_LIMIT_* would set them.
    const { default: Fastify } = await import('fastify');
    const { authArea } = await import('../../server/gateway/auth/auth-area.ts');
    limited = Fastify({ logger: loggerOptions('info', { stream: logStream }) });
    await limited.register(authArea, {
      prefix: '/auth/v1',
      db,
      now: () => new Date(Date.now() + limitedClockMs),
      config: {
        jwtSecret: testSecret,
        dataDir,
        smtpUrl: undefined,
        publicUrl: undefined,
        authRateLimit: { signinsPerMinute: 10, signinFailuresPerAddressPerHour: 6 },
      },
    });
    limitedUrl = await limited.listen({ host: '127.0.0.1', port: 0 });
    limitedClient = () => supabaseClient(limitedUrl, testSecret);
  });
  afterAll(() => limited.close());

  /** A sign-in from the client at `from` (a loopback address of its own). */
  const signInFrom = async (from: string, email: string, pass = 'falsch-falsch-1') => {
    const supabase = await supabaseClient(limitedUrl, testSecret, undefined, {
      fetch: fetchFrom(from),
    });
    return supabase.auth.signInWithPassword({ email, password: pass });
  };
  const retryAfter = async (from: string, email: string) => {
    const answer = await fetchFrom(from)(`${limitedUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'falsch-falsch-1' }),
    });
    expect(answer.status).toBe(429);
    expect(await answer.json()).toMatchObject({ error_code: 'over_request_rate_limit' });
    return Number(answer.headers.get('retry-after'));
  };

  it('never lets wrong passwords from one client lock the owner out elsewhere (security review, item 7)', async () => {
    const attacker = '127.0.0.2';
    for (let i = 0; i < 3; i += 1) {
      expect((await signInFrom(attacker, admin.email)).error).toMatchObject({
        code: 'invalid_credentials',
      });
    }
    // The attacker now waits, with GoTrue's 429 and a Retry-After ...
    expect((await signInFrom(attacker, admin.email)).error).toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
    });
    expect(await retryAfter(attacker, admin.email)).toBe(1);
    // ... while the admin signs in from their own machine at once.
    const owner = await signInFrom('127.0.0.3', admin.email, admin.password);
    expect(owner.error).toBeNull();
    expect(owner.data.session?.user.email).toBe(admin.email);

    // Each further failure doubles the wait.
    limitedClockMs += 1_100;
    expect((await signInFrom(attacker, admin.email)).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect(await retryAfter(attacker, admin.email)).toBe(2);
    limitedClockMs += 2_100;
    expect((await signInFrom(attacker, admin.email)).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect(await retryAfter(attacker, admin.email)).toBe(4);
    // Another address from the same client is not slowed by these.
    expect((await signInFrom(attacker, 'andere@example.de')).error).toMatchObject({
      code: 'invalid_credentials',
    });
  });

  it('allows a client a few failures per address an hour, and forgets them on success', async () => {
    const client = '127.0.0.4';
    for (let i = 0; i < 6; i += 1) {
      limitedClockMs += 20_000;
      expect((await signInFrom(client, admin.email)).error).toMatchObject({
        code: 'invalid_credentials',
      });
    }
    // Six failures this hour: the rest of the hour is closed to this client, for this address.
    expect(await retryAfter(client, admin.email)).toBeGreaterThan(3_000);
    limitedClockMs += 60 * 60 * 1000;
    expect((await signInFrom(client, admin.email, admin.password)).error).toBeNull();
    // A success clears the count: the next wrong password is answered, not delayed.
    for (let i = 0; i < 3; i += 1) {
      expect((await signInFrom(client, admin.email)).error).toMatchObject({
        code: 'invalid_credentials',
      });
    }
  });

  it('limits sign-ins per client, whatever the address', async () => {
    const client = '127.0.0.5';
    limitedClockMs += 61_000;
    for (let i = 0; i < 10; i += 1) {
      expect((await signInFrom(client, `adresse-${i}@example.de`)).error).toMatchObject({
        code: 'invalid_credentials',
      });
    }
    expect((await signInFrom(client, 'noch-eine@example.de')).error).toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
    });
    // Another client is not affected.
    expect((await signInFrom('127.0.0.6', 'noch-eine@example.de')).error).toMatchObject({
      code: 'invalid_credentials',
    });
  });

  it('logs a sign-up and its confirmation without the address, the token or the password', async () => {
    const email = 'protokoll@example.de';
    const { error } = await (await limitedClient()).auth.signUp({ email, password });
    expect(error).toBeNull();
    const link = await confirmationLink(email);
    await fetch(link.replace(url, limitedUrl), { redirect: 'manual' });
    const log = logLines.join('');
    expect(log).toContain('confirmation mail sent');
    const token = new URL(link).searchParams.get('token')!;
    for (const secret of [email, token, password]) expect(log).not.toContain(secret);
  });
});
