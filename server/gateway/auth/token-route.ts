import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gatewayPrefixes } from '../../../src/domain/routes.ts';
import { clientKey } from '../../http/client-key.ts';
import {
  bodyOf,
  publicOrigin,
  stringField,
  tooManyRequests,
  type AuthContext,
} from './auth-context.ts';
import {
  findUserByEmail,
  rotateRefreshToken,
  startSession,
  type IssuedSession,
} from './auth-store.ts';
import { GotrueError } from './errors.ts';
import { verifyPassword } from './passwords.ts';
import { sessionJson } from './session-tokens.ts';

/** GoTrue's default reuse interval of a refresh token (GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL). */
export const refreshReuseGraceMs = 10_000;

/** `POST /token?grant_type=password|refresh_token`: sign-in and refresh. */
export function tokenRoute(auth: FastifyInstance, context: AuthContext): void {
  auth.post<{ Querystring: { grant_type?: string } }>('/token', async (request, reply) => {
    const grantType = request.query.grant_type;
    if (grantType === 'password') return passwordGrant(request, reply, context);
    if (grantType === 'refresh_token') return refreshTokenGrant(request, context);
    throw new GotrueError(400, 'invalid_credentials', 'unsupported_grant_type');
  });
}

async function passwordGrant(request: FastifyRequest, reply: FastifyReply, context: AuthContext) {
  const client = clientKey(request);
  if (!(await context.limits.signinsPerClient.allow(client, context.now())))
    throw tooManyRequests();
  const body = bodyOf(request);
  const email = stringField(body, 'email').toLowerCase();
  const password = stringField(body, 'password');
  if (!email) throw new GotrueError(400, 'validation_failed', 'missing email or phone');
  // Wrong passwords slow down this client for this address only, never its owner elsewhere.
  const wait = await context.limits.signinFailures.waitSeconds(client, email, context.now());
  if (wait > 0) {
    reply.header('retry-after', String(wait));
    throw tooManyRequests();
  }

  const user = await findUserByEmail(context.db, email);
  // An unknown address is compared against a dummy hash: both failures take the same time.
  const valid = await verifyPassword(password, user?.encrypted_password);
  if (!user || !valid) {
    await context.limits.signinFailures.failed(client, email, context.now());
    throw new GotrueError(400, 'invalid_credentials', 'Invalid login credentials');
  }
  await context.limits.signinFailures.succeeded(client, email);
  if (!user.email_confirmed_at) {
    throw new GotrueError(400, 'email_not_confirmed', 'Email not confirmed');
  }
  return respond(request, context, await startSession(context.db, user.id, context.now()));
}

async function refreshTokenGrant(request: FastifyRequest, context: AuthContext) {
  const token = stringField(bodyOf(request), 'refresh_token');
  if (token.length < 12) {
    throw new GotrueError(400, 'validation_failed', 'Refresh token is not valid');
  }
  const outcome = await rotateRefreshToken(context.db, token, context.now(), refreshReuseGraceMs);
  if (outcome.ok) return respond(request, context, outcome);
  if (outcome.reason === 'already_used') {
    throw new GotrueError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  }
  throw new GotrueError(
    400,
    'refresh_token_not_found',
    'Invalid Refresh Token: Refresh Token Not Found',
  );
}

function respond(request: FastifyRequest, context: AuthContext, issued: IssuedSession) {
  return sessionJson(issued, {
    secret: context.secret,
    issuer: `${publicOrigin(context, request)}${gatewayPrefixes.auth}`,
    now: context.now(),
  });
}
