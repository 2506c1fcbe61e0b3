import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../server/db/database.ts';
import { setupDatabase } from '../server/db/setup.ts';
import {
  findUserByEmail,
  rotateRefreshToken,
  startSession,
} from '../server/gateway/auth/auth-store.ts';
import { refreshReuseGraceMs } from '../server/gateway/auth/token-route.ts';
import { startTestPostgres, type TestPostgres } from './helpers/postgres.ts';

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
