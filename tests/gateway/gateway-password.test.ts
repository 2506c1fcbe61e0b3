import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../server/gateway/auth/passwords.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { fetchFrom, supabaseClient } from '../helpers/supabase.ts';

// Password recovery (POST /recover, the mailed link, POST /verify) and the password change
// (PUT /user) driven by the real supabase-js, on PGlite and on PostgreSQL.

const minute = 60_000;

describe.each(['pglite', 'postgres'] as const)('passwords on %s', (kind) => {
  let server: GatewayServer;
  let clockOffsetMs = 0;
  let accountNumber = 0;

  beforeAll(async () => {
    server = await startGatewayServer(kind, undefined, {
      name: `gateway-password-${kind}`,
      now: () => new Date(Date.now() + clockOffsetMs),
    });
  });
  afterAll(() => server?.close());

  /** Each test its own client address, so the per-client limits of one never touch another. */
  let clientNumber = 10;
  const newClient = () =>
    supabaseClient(server.url, testSecret, undefined, {
      fetch: fetchFrom(`127.0.0.${clientNumber++}`),
    });

  /** A confirmed staff account with a password, made in the database. */
  async function account(password = 'altes-passwort-1') {
    accountNumber += 1;
    const email = `person${accountNumber}@example.de`;
    await server.db.query(
      `insert into auth.users (email, encrypted_password, email_confirmed_at) values ($1, $2, now())`,
      [email, await hashPassword(password)],
    );
    return { email, password };
  }

  async function mailsTo(email: string): Promise<{ subject: string; text: string }[]> {
    const folder = path.join(server.dataDir, 'mail');
    const files = await readdir(folder).catch(() => [] as string[]);
    const mails = await Promise.all(
      files.sort().map(async (file) => JSON.parse(await readFile(path.join(folder, file), 'utf8'))),
    );
    return mails.filter((mail: { to: string }) => mail.to === email);
  }

  /** The link of the `count`th recovery mail to `email` (the mail goes out after the answer). */
  async function recoveryLink(email: string, count = 1): Promise<URL> {
    const mails = await vi.waitFor(async () => {
      const found = (await mailsTo(email)).filter(
        (mail) => mail.subject === 'Passwort für Survey Desk zurücksetzen',
      );
      expect(found).toHaveLength(count);
      return found;
    });
    const mail = mails.at(-1)!;
    const link = /(http\S+\/surveydesk\/passwort-neu\S+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    return new URL(link!);
  }

  const tokenHashOf = (link: URL) => link.searchParams.get('token_hash')!;

  it('answers a known and an unknown address alike, and mails a link only to the known one', async () => {
    const { email } = await account();
    const known = await (await newClient()).auth.resetPasswordForEmail(email);
    const unknown = await (await newClient()).auth.resetPasswordForEmail('niemand@example.de');
    expect(known).toEqual({ data: {}, error: null });
    expect(unknown).toEqual({ data: {}, error: null });

    const link = await recoveryLink(email);
    expect(link.origin).toBe(server.url);
    expect(link.pathname).toBe('/surveydesk/passwort-neu');
    expect(link.searchParams.get('type')).toBe('recovery');
    expect(tokenHashOf(link)).toMatch(/^[\w-]{43}$/);
    // Only the hash of the link's secret is stored.
    const stored = await server.db.query<{ recovery_token: string }>(
      'select recovery_token from auth.users where email = $1',
      [email],
    );
    expect(stored.rows[0]!.recovery_token).not.toContain(tokenHashOf(link));
    expect(await mailsTo('niemand@example.de')).toEqual([]);
  });

  it('redeems the link once for a recovery session that sets a new password without the old one', async () => {
    const { email, password } = await account();
    const elsewhere = await newClient();
    const before = await elsewhere.auth.signInWithPassword({ email, password });
    expect(before.error).toBeNull();

    await (await newClient()).auth.resetPasswordForEmail(email);
    const tokenHash = tokenHashOf(await recoveryLink(email));
    const supabase = await newClient();
    const verified = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    expect(decodeJwt(verified.data.session!.access_token).amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);

    const again = await (
      await newClient()
    ).auth.verifyOtp({
      token_hash: tokenHash,
      type: 'recovery',
    });
    expect(again.data.session).toBeNull();
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });

    const updated = await supabase.auth.updateUser({ password: 'neues-passwort-2' });
    expect(updated.error).toBeNull();
    // The recovery session stays; the session from before the reset has ended.
    expect((await supabase.auth.getUser()).error).toBeNull();
    // supabase-js reports GoTrue's session_not_found as a missing session.
    expect((await elsewhere.auth.getUser()).error?.name).toBe('AuthSessionMissingError');

    const withOld = await (await newClient()).auth.signInWithPassword({ email, password });
    expect(withOld.error).toMatchObject({ code: 'invalid_credentials' });
    const withNew = await (
      await newClient()
    ).auth.signInWithPassword({
      email,
      password: 'neues-passwort-2',
    });
    expect(withNew.error).toBeNull();
  });

  it('lets only the recovery session itself skip the current password: not once refreshed, not after its hour (issue 32, item 8)', async () => {
    const { email, password } = await account();
    await (await newClient()).auth.resetPasswordForEmail(email);
    const refreshed = await newClient();
    const first = await refreshed.auth.verifyOtp({
      token_hash: tokenHashOf(await recoveryLink(email, 1)),
      type: 'recovery',
    });
    expect(first.error).toBeNull();
    // A refresh token taken from the recovery session gives a session that must know the password.
    const refresh = await refreshed.auth.refreshSession();
    expect(refresh.error).toBeNull();
    expect(refresh.data.session!.refresh_token).not.toBe(first.data.session!.refresh_token);
    const afterRefresh = await refreshed.auth.updateUser({ password: 'neues-passwort-8' });
    expect(afterRefresh.error).toMatchObject({ status: 400, code: 'current_password_required' });

    clockOffsetMs += minute + 1000;
    await (await newClient()).auth.resetPasswordForEmail(email);
    const late = await newClient();
    const second = await late.auth.verifyOtp({
      token_hash: tokenHashOf(await recoveryLink(email, 2)),
      type: 'recovery',
    });
    expect(second.error).toBeNull();
    clockOffsetMs += 60 * minute + 1000;
    const afterHour = await late.auth.updateUser({ password: 'neues-passwort-8' });
    expect(afterHour.error).toMatchObject({ status: 400, code: 'current_password_required' });

    // Neither changed anything: the old password still signs in.
    expect(
      (await (await newClient()).auth.signInWithPassword({ email, password })).error,
    ).toBeNull();
  });

  it('confirms an unconfirmed address when the recovery session saves a new password, not when the link is opened (issue 32, item 8)', async () => {
    const email = `unbestaetigt${++accountNumber}@example.de`;
    // Someone, perhaps not the address's owner, signed up with it and knows that password.
    const planted = 'fremdes-passwort-1';
    expect((await (await newClient()).auth.signUp({ email, password: planted })).error).toBeNull();
    const confirmedAt = async () =>
      (
        await server.db.query<{ confirmed: Date | null }>(
          'select email_confirmed_at as confirmed from auth.users where email = $1',
          [email],
        )
      ).rows[0]!.confirmed;

    await (await newClient()).auth.resetPasswordForEmail(email);
    const owner = await newClient();
    const verified = await owner.auth.verifyOtp({
      token_hash: tokenHashOf(await recoveryLink(email)),
      type: 'recovery',
    });
    expect(verified.error).toBeNull();
    // The link opened a recovery session, but the planted password still opens nothing.
    expect(await confirmedAt()).toBeNull();
    const early = await (await newClient()).auth.signInWithPassword({ email, password: planted });
    expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });

    const saved = await owner.auth.updateUser({ password: 'eigenes-passwort-1' });
    expect(saved.error).toBeNull();
    expect(saved.data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(saved.data.user?.user_metadata).toMatchObject({ email_verified: true });
    expect(await confirmedAt()).toEqual(expect.any(Date));
    const withPlanted = await (
      await newClient()
    ).auth.signInWithPassword({ email, password: planted });
    expect(withPlanted.error).toMatchObject({ code: 'invalid_credentials' });
    const withOwn = await (
      await newClient()
    ).auth.signInWithPassword({ email, password: 'eigenes-passwort-1' });
    expect(withOwn.error).toBeNull();
  });

  it('lets only the newest link work, and none after an hour', async () => {
    const { email } = await account();
    await (await newClient()).auth.resetPasswordForEmail(email);
    const first = tokenHashOf(await recoveryLink(email, 1));
    clockOffsetMs += minute + 1000;
    await (await newClient()).auth.resetPasswordForEmail(email);
    const second = tokenHashOf(await recoveryLink(email, 2));
    const replaced = await (
      await newClient()
    ).auth.verifyOtp({
      token_hash: first,
      type: 'recovery',
    });
    expect(replaced.error).toMatchObject({ status: 403, code: 'otp_expired' });

    clockOffsetMs += 60 * minute + 1000;
    const expired = await (
      await newClient()
    ).auth.verifyOtp({
      token_hash: second,
      type: 'recovery',
    });
    expect(expired.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('leads a recovery link in GoTrue format on to the page, using nothing up', async () => {
    const res = await fetch(`${server.url}/auth/v1/verify?token=abc_-1&type=recovery`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      '/surveydesk/passwort-neu?token_hash=abc_-1&type=recovery',
    );
  });

  it('mails one link per address and minute, known or not, and limits each client', async () => {
    const { email } = await account();
    const supabase = await newClient();
    expect((await supabase.auth.resetPasswordForEmail(email)).error).toBeNull();
    const answers = [];
    for (const address of [email, 'unbekannt@example.de', 'unbekannt@example.de']) {
      answers.push((await (await newClient()).auth.resetPasswordForEmail(address)).error);
    }
    const tooSoon = expect.objectContaining({ status: 429, code: 'over_email_send_rate_limit' });
    expect(answers).toEqual([tooSoon, null, tooSoon]);
    await recoveryLink(email, 1);

    const flooding = await newClient();
    const flood = [];
    for (let i = 0; i < 31; i += 1) {
      flood.push((await flooding.auth.resetPasswordForEmail(`flut${i}@example.de`)).error);
    }
    expect(flood.slice(0, 30)).toEqual(Array(30).fill(null));
    expect(flood[30]).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('builds the link from the configured address, never from the request headers', async () => {
    const { email } = await account();
    const res = await server.app.inject({
      method: 'POST',
      url: '/auth/v1/recover',
      headers: {
        host: 'angreifer.example',
        'x-forwarded-host': 'angreifer.example',
        apikey: server.anonKey,
        'content-type': 'application/json',
      },
      payload: { email },
    });
    expect(res.statusCode).toBe(200);
    expect((await recoveryLink(email)).origin).toBe(server.url);
  });

  it('asks for the current password to change it, with the limits of a sign-in', async () => {
    const { email, password } = await account();
    const supabase = await newClient();
    await supabase.auth.signInWithPassword({ email, password });
    const other = await newClient();
    await other.auth.signInWithPassword({ email, password });

    const weak = await supabase.auth.updateUser({ password: 'kurz', current_password: password });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
    expect(weak.error).toHaveProperty('reasons', ['length']);
    const missing = await supabase.auth.updateUser({ password: 'neues-passwort-3' });
    expect(missing.error).toMatchObject({ status: 400, code: 'current_password_required' });
    const same = await supabase.auth.updateUser({ password, current_password: password });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });

    const wrong = [];
    for (let i = 0; i < 4; i += 1) {
      wrong.push(
        (
          await supabase.auth.updateUser({
            password: 'neues-passwort-3',
            current_password: `falsch-${i}`,
          })
        ).error,
      );
    }
    expect(wrong.slice(0, 3)).toEqual(
      Array(3).fill(expect.objectContaining({ status: 400, code: 'current_password_invalid' })),
    );
    // After three failures the client waits, as after three wrong sign-ins.
    expect(wrong[3]).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    clockOffsetMs += 10 * minute;

    const changed = await supabase.auth.updateUser({
      password: 'neues-passwort-3',
      current_password: password,
    });
    expect(changed.error).toBeNull();
    expect((await supabase.auth.getUser()).error).toBeNull();
    expect((await other.auth.getUser()).error?.name).toBe('AuthSessionMissingError');
    const signedIn = await (
      await newClient()
    ).auth.signInWithPassword({
      email,
      password: 'neues-passwort-3',
    });
    expect(signedIn.error).toBeNull();
  });

  it('lets the desk check the current password by a sign-in, ending the replaced session', async () => {
    const { email, password } = await account();
    const supabase = await newClient();
    const first = await supabase.auth.signInWithPassword({ email, password });
    const replacedToken = first.data.session!.access_token;
    // What Einstellungen does: sign in again with the current password, then change it.
    expect((await supabase.auth.signInWithPassword({ email, password })).error).toBeNull();
    const changed = await supabase.auth.updateUser({
      password: 'neues-passwort-5',
      current_password: password,
    });
    expect(changed.error).toBeNull();
    expect((await supabase.auth.getUser()).error).toBeNull();
    expect((await supabase.auth.getUser(replacedToken)).error?.name).toBe(
      'AuthSessionMissingError',
    );
  });

  it('merges data into the user metadata', async () => {
    const { email, password } = await account();
    const supabase = await newClient();
    await supabase.auth.signInWithPassword({ email, password });
    const { data, error } = await supabase.auth.updateUser({ data: { name: 'Erika Muster' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ name: 'Erika Muster', email });
  });

  it('needs a session for a change', async () => {
    const res = await fetch(`${server.url}/auth/v1/user`, {
      method: 'PUT',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'neues-passwort-4' }),
    });
    expect(res.status).toBe(401);
  });
});
