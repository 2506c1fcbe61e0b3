import { createHash, randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { forgetLiveSessions } from '../session-liveness.ts';

// The auth part's SQL. GoTrue reads and writes its tables as its own administrative role, not
// as the caller: these queries run on the gateway's connection, outside `asRole`, and touch
// nothing in `public` (the staff trigger on auth.users does that itself).

export interface UserRow {
  id: string;
  aud: string;
  role: string;
  email: string;
  encrypted_password: string;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  /** When a refresh token of the session was last used; null while it has never been refreshed. */
  refreshed_at: Date | null;
  /** How it began: 'password', or 'otp' for a recovery link's session. */
  amr_method: AmrMethod;
}

export type AmrMethod = 'password' | 'otp';

const sessionColumns = 'id, user_id, created_at, refreshed_at, amr_method';

const userColumns = `id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at,
  updated_at`;

/** Only a hash of a mailed token is stored: someone who reads the table cannot confirm with it. */
export const tokenHash = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** A new secret for a link or a refresh token: 256 bits, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

export async function findUserByEmail(db: Queryable, email: string) {
  const result = await db.query<UserRow>(
    `select ${userColumns} from auth.users where lower(email) = lower($1)`,
    [email],
  );
  return result.rows[0];
}

export async function findUserById(db: Queryable, id: string) {
  const result = await db.query<UserRow>(`select ${userColumns} from auth.users where id = $1`, [
    id,
  ]);
  return result.rows[0];
}

/** Undefined when the address was taken meanwhile (two sign-ups at once). */
export async function createUser(
  db: Database,
  user: { email: string; passwordHash: string; data: Record<string, unknown> },
  confirmationToken: string,
  now: Date,
): Promise<UserRow | undefined> {
  const result = await db.query<UserRow>(
    `insert into auth.users (email, encrypted_password, confirmation_token, confirmation_sent_at,
       raw_user_meta_data, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $4, $4)
     on conflict ((lower(email))) do nothing
     returning ${userColumns}`,
    [user.email, user.passwordHash, tokenHash(confirmationToken), now, JSON.stringify(user.data)],
  );
  const created = result.rows[0];
  if (!created) return undefined;
  // GoTrue keeps the identity's claims (sub, email, email_verified) in the user's metadata.
  const metadata = { ...user.data, ...identityClaims(created, false) };
  const updated = await db.query<UserRow>(
    `update auth.users set raw_user_meta_data = $2 where id = $1 returning ${userColumns}`,
    [created.id, JSON.stringify(metadata)],
  );
  return updated.rows[0];
}

export function identityClaims(user: Pick<UserRow, 'id' | 'email'>, emailVerified: boolean) {
  return { sub: user.id, email: user.email, email_verified: emailVerified, phone_verified: false };
}

/**
 * An unconfirmed account signed up for again: the new sign-up's password and metadata replace the
 * old ones and a new link replaces the old, so only the password of the sign-up whose link is
 * followed signs in (whoever signed up first keeps nothing).
 */
export async function renewSignup(
  db: Database,
  userId: string,
  signup: { passwordHash: string; data: Record<string, unknown> },
  confirmationToken: string,
  now: Date,
): Promise<UserRow | undefined> {
  const result = await db.query<UserRow>(
    `update auth.users
        set encrypted_password = $2,
            raw_user_meta_data = $3::jsonb || jsonb_build_object(
              'sub', id::text, 'email', email, 'email_verified', false, 'phone_verified', false),
            confirmation_token = $4, confirmation_sent_at = $5, updated_at = $5
      where id = $1 and email_confirmed_at is null returning ${userColumns}`,
    [userId, signup.passwordHash, JSON.stringify(signup.data), tokenHash(confirmationToken), now],
  );
  return result.rows[0];
}

/** The mail did not go out: a sign-up right after may try again without waiting. */
export async function forgetConfirmationSent(db: Database, userId: string): Promise<void> {
  await db.query(
    `update auth.users set confirmation_sent_at = null
     where id = $1 and email_confirmed_at is null`,
    [userId],
  );
}

export type ConfirmOutcome = 'confirmed' | 'invalid';

/** Confirms the account the link was sent to, once, within `validForMs` of sending it. */
export async function confirmEmail(
  db: Database,
  confirmationToken: string,
  now: Date,
  validForMs: number,
): Promise<ConfirmOutcome> {
  const result = await db.query(
    `update auth.users
     set email_confirmed_at = $2, confirmation_token = null, updated_at = $2,
         raw_user_meta_data = raw_user_meta_data || '{"email_verified": true}'::jsonb
     where confirmation_token = $1 and email_confirmed_at is null
       and confirmation_sent_at > $3
     returning id`,
    [tokenHash(confirmationToken), now, new Date(now.getTime() - validForMs)],
  );
  return result.rowCount === 1 ? 'confirmed' : 'invalid';
}

export interface IssuedSession {
  user: UserRow;
  session: SessionRow;
  refreshToken: string;
}

/** A new session with its first refresh token; the sign-in time goes on the user. */
export async function startSession(
  db: Database,
  userId: string,
  now: Date,
  amrMethod: AmrMethod = 'password',
): Promise<IssuedSession> {
  return db.transaction((tx) => startSessionIn(tx, userId, now, amrMethod));
}

async function startSessionIn(
  tx: Queryable,
  userId: string,
  now: Date,
  amrMethod: AmrMethod,
): Promise<IssuedSession> {
  const refreshToken = newSecret();
  const users = await tx.query<UserRow>(
    `update auth.users set last_sign_in_at = $2, updated_at = $2 where id = $1
       returning ${userColumns}`,
    [userId, now],
  );
  const sessions = await tx.query<SessionRow>(
    `insert into auth.sessions (user_id, created_at, updated_at, amr_method)
       values ($1, $2, $2, $3) returning ${sessionColumns}`,
    [userId, now, amrMethod],
  );
  const session = sessions.rows[0]!;
  await tx.query(
    `insert into auth.refresh_tokens (token, user_id, session_id, created_at, updated_at)
       values ($1, $2, $3, $4, $4)`,
    [refreshToken, userId, session.id, now],
  );
  return { user: users.rows[0]!, session, refreshToken };
}

export type RefreshOutcome =
  ({ ok: true } & IssuedSession) | { ok: false; reason: 'not_found' | 'already_used' };

interface TokenRow {
  id: string;
  token: string;
  user_id: string;
  session_id: string;
  revoked: boolean;
  updated_at: Date;
}

/**
 * Rotation as GoTrue does it: the token is revoked and a child issued. A revoked token used again
 * within `graceMs` of its revocation gets the session's current token back (two tabs that
 * refreshed at once both stay signed in); later, it is taken as stolen and the session ends.
 * The rows are locked, so on PostgreSQL a second refresh waits for the first and then sees it.
 */
export async function rotateRefreshToken(
  db: Database,
  token: string,
  now: Date,
  graceMs: number,
): Promise<RefreshOutcome> {
  const childToken = newSecret();
  const outcome = await db.transaction(async (tx): Promise<RefreshOutcome> => {
    const found = await tx.query<TokenRow>(
      `select id, token, user_id, session_id, revoked, updated_at from auth.refresh_tokens
       where token = $1 for update`,
      [token],
    );
    const current = found.rows[0];
    if (!current) return { ok: false, reason: 'not_found' };
    const sessions = await tx.query<SessionRow>(
      `select ${sessionColumns} from auth.sessions where id = $1 for update`,
      [current.session_id],
    );
    const session = sessions.rows[0];
    if (!session) return { ok: false, reason: 'not_found' };

    let issued: string;
    if (!current.revoked) {
      await tx.query(
        'update auth.refresh_tokens set revoked = true, updated_at = $2 where id = $1',
        [current.id, now],
      );
      issued = await insertChild(tx, current, childToken, now);
    } else if (now.getTime() - current.updated_at.getTime() <= graceMs) {
      const active = await tx.query<{ token: string }>(
        `select token from auth.refresh_tokens where session_id = $1 and not revoked
         order by id desc limit 1`,
        [session.id],
      );
      issued = active.rows[0]?.token ?? (await insertChild(tx, current, childToken, now));
    } else {
      // The tokens go with the session (on delete cascade).
      await tx.query('delete from auth.sessions where id = $1', [session.id]);
      return { ok: false, reason: 'already_used' };
    }
    await tx.query('update auth.sessions set refreshed_at = $2, updated_at = $2 where id = $1', [
      session.id,
      now,
    ]);
    const user = await findUserById(tx, current.user_id);
    return { ok: true, user: user!, session, refreshToken: issued };
  });
  if (!outcome.ok && outcome.reason === 'already_used') forgetLiveSessions(db);
  return outcome;
}

async function insertChild(tx: Queryable, parent: TokenRow, token: string, now: Date) {
  await tx.query(
    `insert into auth.refresh_tokens (token, user_id, session_id, parent, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $5)`,
    [token, parent.user_id, parent.session_id, parent.token, now],
  );
  return token;
}

export async function findSession(db: Queryable, id: string) {
  const result = await db.query<SessionRow>(
    `select ${sessionColumns} from auth.sessions where id = $1`,
    [id],
  );
  return result.rows[0];
}

export type LogoutScope = 'global' | 'local' | 'others';

export async function endSessions(
  db: Database,
  userId: string,
  sessionId: string | undefined,
  scope: LogoutScope,
): Promise<void> {
  // Without a session in the token GoTrue ends them all, whatever the scope.
  if (scope === 'local' && sessionId) {
    await db.query('delete from auth.sessions where id = $1', [sessionId]);
  } else if (scope === 'others' && sessionId) {
    await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [
      userId,
      sessionId,
    ]);
  } else {
    await db.query('delete from auth.sessions where user_id = $1', [userId]);
  }
  forgetLiveSessions(db);
}

/**
 * A recovery link for the account: its secret's hash replaces any earlier one (only the newest
 * link works), with the time it was sent for its lifetime.
 */
export async function startRecovery(
  db: Database,
  userId: string,
  recoveryToken: string,
  now: Date,
): Promise<void> {
  await db.query('update auth.users set recovery_token = $2, recovery_sent_at = $3 where id = $1', [
    userId,
    tokenHash(recoveryToken),
    now,
  ]);
}

/** The mail did not go out: its link must not work either. */
export async function forgetRecovery(db: Database, userId: string): Promise<void> {
  await db.query(
    'update auth.users set recovery_token = null, recovery_sent_at = null where id = $1',
    [userId],
  );
}

/**
 * Redeems a recovery link once, within `validForMs` of sending it: the token is cleared and a
 * session begins whose tokens say `amr: otp`, as GoTrue's do. GoTrue also confirms an unconfirmed
 * address here; this gateway confirms it only when the recovery session saves a new password
 * (changePassword): until then the password of whoever signed up with the address, perhaps not
 * its owner, still stands, and a confirmation now would let it sign in.
 */
export async function redeemRecovery(
  db: Database,
  recoveryToken: string,
  now: Date,
  validForMs: number,
): Promise<IssuedSession | undefined> {
  return db.transaction(async (tx) => {
    const redeemed = await tx.query<{ id: string }>(
      `update auth.users
          set recovery_token = null, recovery_sent_at = null, updated_at = $2
        where recovery_token = $1 and recovery_sent_at > $3
        returning id`,
      [tokenHash(recoveryToken), now, new Date(now.getTime() - validForMs)],
    );
    const user = redeemed.rows[0];
    if (!user) return undefined;
    return startSessionIn(tx, user.id, now, 'otp');
  });
}

/**
 * A new password, as GoTrue's UpdatePassword stores it: every mailed link the account still has
 * stops working, and every session but the one that made the change ends (someone who knew the
 * old password is signed out everywhere else). `confirmEmail` (a recovery session sets it: its
 * link proved the mailbox) confirms an unconfirmed address together with the new password.
 */
export async function changePassword(
  db: Database,
  userId: string,
  passwordHash: string,
  keepSessionId: string | undefined,
  now: Date,
  confirmEmail = false,
): Promise<UserRow> {
  const changed = await db.transaction(async (tx) => {
    const updated = await tx.query<UserRow>(
      `update auth.users
          set encrypted_password = $2, recovery_token = null, recovery_sent_at = null,
              confirmation_token = null, updated_at = $3,
              email_confirmed_at = case when $4 then coalesce(email_confirmed_at, $3)
                                        else email_confirmed_at end,
              raw_user_meta_data = case when $4 and email_confirmed_at is null
                then raw_user_meta_data || '{"email_verified": true}'::jsonb
                else raw_user_meta_data end
        where id = $1 returning ${userColumns}`,
      [userId, passwordHash, now, confirmEmail],
    );
    await tx.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [
      userId,
      keepSessionId ?? null,
    ]);
    return updated.rows[0]!;
  });
  forgetLiveSessions(db);
  return changed;
}

/**
 * GoTrue's `PUT /user {data}`: the keys are merged into user_metadata, a null value removes its
 * key. The identity's own claims (sub, email, email_verified) stay as they are.
 */
export async function updateUserMetadata(
  db: Database,
  userId: string,
  data: Record<string, unknown>,
  now: Date,
): Promise<UserRow> {
  const result = await db.query<UserRow>(
    `update auth.users
        set raw_user_meta_data = jsonb_strip_nulls(raw_user_meta_data || $2::jsonb)
                                 || jsonb_build_object('sub', id::text, 'email', email)
                                 || jsonb_build_object('email_verified',
                                      coalesce(raw_user_meta_data -> 'email_verified', 'false')),
            updated_at = $3
      where id = $1 returning ${userColumns}`,
    [userId, JSON.stringify(data), now],
  );
  return result.rows[0]!;
}
