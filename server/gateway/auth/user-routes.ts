import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, verifyGatewayToken } from '../gateway-jwt.ts';
import { clientKey } from '../../http/client-key.ts';
import { bodyOf, stringField, tooManyRequests, type AuthContext } from './auth-context.ts';
import {
  changePassword,
  endSessions,
  findSession,
  findUserById,
  updateUserMetadata,
  type LogoutScope,
  type SessionRow,
  type UserRow,
} from './auth-store.ts';
import { GotrueError } from './errors.ts';
import { recoveryValidForMs } from './recover-route.ts';
import { checkPasswordStrength, hashPassword, verifyPassword } from './passwords.ts';
import { userJson } from './user-json.ts';
import { isUuid } from '../../http/uuid.ts';

const nilUuid = '00000000-0000-0000-0000-000000000000';

/**
 * `GET /user`, `PUT /user` (new password, metadata) and `POST /logout?scope=…`, all for the
 * bearer of a user's access token.
 */
export function userRoutes(auth: FastifyInstance, context: AuthContext): void {
  auth.get('/user', async (request) => {
    const { user } = await requireUser(request, context);
    return userJson(user);
  });

  auth.put('/user', async (request, reply) => {
    const caller = await requireUser(request, context);
    const body = bodyOf(request);
    const data = metadataOf(body.data);
    if (typeof body.email === 'string' && body.email.toLowerCase() !== caller.user.email) {
      // No e-mail change flow here: an address is changed by an admin, not by its owner.
      throw new GotrueError(
        422,
        'validation_failed',
        'Changing the email address is not supported',
      );
    }
    let user = caller.user;
    const password = stringField(body, 'password');
    if (password) user = await newPassword(request, reply, context, caller, body, password);
    if (data) user = await updateUserMetadata(context.db, user.id, data, context.now());
    return userJson(user);
  });

  auth.post<{ Querystring: { scope?: string } }>('/logout', async (request, reply) => {
    const { user, sessionId } = await requireUser(request, context);
    const scope = logoutScope(request.query.scope);
    await endSessions(context.db, user.id, sessionId, scope);
    return reply.code(204).send();
  });
}

/**
 * Whether this session may set a password without the current one: only the session a recovery
 * link opened, within the link's hour and before it was ever refreshed. GoTrue lets every session
 * with a recovery `amr` do so for as long as it lives (refreshed for weeks); here a refresh token
 * taken from a recovery session gives no way to a new password.
 */
export function isFreshRecovery(session: SessionRow | undefined, now: Date): boolean {
  return (
    session?.amr_method === 'otp' &&
    session.refreshed_at === null &&
    now.getTime() - session.created_at.getTime() <= recoveryValidForMs
  );
}

/**
 * A new password as GoTrue sets it with UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD on: the current
 * password is required unless this is a fresh recovery session (isFreshRecovery), and a wrong one
 * counts as a failed sign-in (the same per-client limits), so this is no side door for guessing it.
 */
async function newPassword(
  request: FastifyRequest,
  reply: FastifyReply,
  context: AuthContext,
  caller: { user: UserRow; session: SessionRow | undefined },
  body: Record<string, unknown>,
  password: string,
): Promise<UserRow> {
  checkPasswordStrength(password);
  const { user, session } = caller;
  const recovery = isFreshRecovery(session, context.now());
  if (!recovery) {
    const current = stringField(body, 'current_password');
    if (!current) {
      throw new GotrueError(
        400,
        'current_password_required',
        'Current password required when setting new password.',
      );
    }
    const client = clientKey(request);
    if (!(await context.limits.signinsPerClient.allow(client, context.now())))
      throw tooManyRequests();
    const wait = await context.limits.signinFailures.waitSeconds(client, user.email, context.now());
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw tooManyRequests();
    }
    if (!(await verifyPassword(current, user.encrypted_password))) {
      await context.limits.signinFailures.failed(client, user.email, context.now());
      throw new GotrueError(
        400,
        'current_password_invalid',
        'Current password required when setting new password.',
      );
    }
    await context.limits.signinFailures.succeeded(client, user.email);
  }
  if (await verifyPassword(password, user.encrypted_password)) {
    throw new GotrueError(
      422,
      'same_password',
      'New password should be different from the old password.',
    );
  }
  const hash = await hashPassword(password);
  return changePassword(context.db, user.id, hash, session?.id, context.now(), recovery);
}

/** GoTrue's `data`: keys merged into user_metadata, a null value removes its key. */
function metadataOf(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new GotrueError(400, 'bad_json', 'Could not parse request body as JSON');
  }
  return value as Record<string, unknown>;
}

function logoutScope(value: string | undefined): LogoutScope {
  if (value === undefined || value === '' || value === 'global') return 'global';
  if (value === 'local' || value === 'others') return value;
  throw new GotrueError(400, 'validation_failed', `Unsupported logout scope "${value}"`);
}

/** GoTrue's checks of a bearer token, in its order, with its statuses and codes. */
async function requireUser(request: FastifyRequest, context: AuthContext) {
  const token = bearerToken(request.headers.authorization);
  if (!token) {
    throw new GotrueError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  }
  const check = await verifyGatewayToken(token, context.secret);
  if (!check.ok) {
    // A well-signed token of another role (the hub's own service token) is no caller of the
    // gateway at all: 401, like PostgREST for a role that does not exist.
    if (check.reason === 'role') {
      throw new GotrueError(401, 'bad_jwt', 'invalid JWT: role is not a role of the API');
    }
    const why =
      check.reason === 'expired'
        ? 'token is expired'
        : check.reason === 'no_exp'
          ? 'token is missing required claim: exp claim is required'
          : 'signature is invalid';
    throw new GotrueError(
      403,
      'bad_jwt',
      `invalid JWT: unable to parse or verify signature, ${why}`,
    );
  }
  const { sub, session_id: sessionId } = check.claims;
  if (typeof sub !== 'string' || sub === '') {
    throw new GotrueError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  }
  if (!isUuid(sub)) {
    throw new GotrueError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
  }
  const user = await findUserById(context.db, sub);
  if (!user) {
    throw new GotrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  }
  if (sessionId === undefined || sessionId === '' || sessionId === nilUuid) {
    return { user, sessionId: undefined, session: undefined };
  }
  if (!isUuid(sessionId)) {
    throw new GotrueError(403, 'bad_jwt', 'invalid claim: session_id claim must be a UUID');
  }
  const session = await findSession(context.db, sessionId);
  if (!session) {
    throw new GotrueError(
      403,
      'session_not_found',
      'Session from session_id claim in JWT does not exist',
    );
  }
  return { user, sessionId, session };
}
