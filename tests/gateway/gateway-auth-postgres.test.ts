import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { setupDatabase } from '../../server/db/setup.ts';
import {
  findUserByEmail,
  rotateRefreshToken,
  startSession,
} from '../../server/gateway/auth/auth-store.ts';
import { refreshReuseGraceMs } from '../../server/gateway/auth/token-route.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { fetchFrom, supabaseClient } from '../helpers/supabase.ts';

// On PGlite's one connection refreshes run one after another anyway; on PostgreSQL they really
// run at once, and the row locks must make the later ones see the first one's child.
describe('refresh-token rotation on PostgreSQL', () => {
  let server: TestPostgres;
  let db: Database;
  const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };

  beforeAll(async () => {
    server = await startTestPostgres();
    db = await openDatabase({ databaseUrl: server.url() });
    // Twice: the local bootstrap with the auth tables runs on every start.
    await setupDatabase(db, { gateway: true, admin });
    await setupDatabase(db, { gateway: true, admin });
  });
  afterAll(async () => {
    await db?.close();
    server?.stop();
  });

  it('gives every concurrent refresh of one token the same child', async () => {
    const user = await findUserByEmail(db, admin.email);
    const signedIn = await startSession(db, user!.id, new Date());
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        rotateRefreshToken(db, signedIn.refreshToken, new Date(), refreshReuseGraceMs),
      ),
    );
    const tokens = outcomes.map((outcome) => (outcome.ok ? outcome.refreshToken : outcome.reason));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(signedIn.refreshToken);
    const active = await db.query(
      'select token from auth.refresh_tokens where session_id = $1 and not revoked',
      [signedIn.session.id],
    );
    expect(active.rows).toEqual([{ token: tokens[0] }]);
  });
});

// The security review's account findings (items 3, 4 and 7) over HTTP with supabase-js, on
// PostgreSQL as gateway-auth.test.ts has them on PGlite.
describe('sign-up and sign-in over HTTP on PostgreSQL', () => {
  let server: GatewayServer;
  const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };

  let clockOffsetMs = 0;

  beforeAll(async () => {
    server = await startGatewayServer('postgres', undefined, {
      now: () => new Date(Date.now() + clockOffsetMs),
    });
  });
  afterAll(() => server?.close());

  const client = (from = '127.0.0.1') =>
    supabaseClient(server.url, testSecret, undefined, { fetch: fetchFrom(from) });

  /** The link of the `count`th mail to `email` (it goes out after the answer: waited for). */
  async function newestLink(email: string, count: number): Promise<string> {
    const folder = path.join(server.dataDir, 'mail');
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
    const mail = mails.at(-1) as { text: string };
    return /(http\S+\/auth\/v1\/verify\S+)/.exec(mail.text)![1]!;
  }

  it('mails a link to the listening address whatever Host says, and keeps only the last sign-up’s password', async () => {
    const email = `pg-${crypto.randomUUID()}@example.de`;
    const forged = await fetchFrom('127.0.0.1')(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { host: 'evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'erstes-passwort-1' }),
    });
    expect(forged.status).toBe(200);
    const first = await newestLink(email, 1);
    expect(first.startsWith(`${server.url}/auth/v1/verify?`)).toBe(true);

    // A minute later (GoTrue sends one mail per address and minute).
    clockOffsetMs += 61_000;
    const again = await (await client()).auth.signUp({ email, password: 'zweites-passwort-2' });
    expect(again.error).toBeNull();
    const second = await newestLink(email, 2);
    expect((await fetch(first, { redirect: 'manual' })).headers.get('location')).toBe(
      '/surveydesk/signin?bestaetigung=ungueltig',
    );
    expect((await fetch(second, { redirect: 'manual' })).headers.get('location')).toBe(
      '/surveydesk/signin?bestaetigt=1',
    );
    const supabase = await client();
    expect(
      (await supabase.auth.signInWithPassword({ email, password: 'erstes-passwort-1' })).error,
    ).toMatchObject({ code: 'invalid_credentials' });
    expect(
      (await supabase.auth.signInWithPassword({ email, password: 'zweites-passwort-2' })).error,
    ).toBeNull();
  });

  it('lets the admin sign in while another client is slowed down by wrong passwords', async () => {
    const attacker = await client('127.0.0.2');
    for (let i = 0; i < 12; i += 1) {
      await attacker.auth.signInWithPassword({ email: admin.email, password: 'falsch-1234' });
    }
    const last = await attacker.auth.signInWithPassword({
      email: admin.email,
      password: admin.password,
    });
    expect(last.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    const owner = await (
      await client('127.0.0.3')
    ).auth.signInWithPassword({ email: admin.email, password: admin.password });
    expect(owner.error).toBeNull();
  });
});
