import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken, verifyGatewayToken } from '../gateway-jwt.ts';
import type { AuthContext } from './auth-context.ts';
import { endSessions, findSession, findUserById, type LogoutScope } from './auth-store.ts';
import { GotrueError } from './errors.ts';
import { userJson } from './user-json.ts';

const nilUuid = '00000000-0000-0000-0000-000000000000';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `GET /user` and `POST /logout?scope=…`, both for the bearer of a user's access token. */
export function userRoutes(auth: FastifyInstance, context: AuthContext): void {
  auth.get('/user', async (request) => {
    const { user } = await requireUser(request, context);
    return userJson(user);
  });

  auth.post<{ Querystring: { scope?: string } }>('/logout', async (request, reply) => {
    const { user, sessionId } = await requireUser(request, context);
    const scope = logoutScope(request.query.scope);
    await endSessions(context.db, user.id, sessionId, scope);
    return reply.code(204).send();
  });
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
    const why = check.reason === 'expired' ? 'token is expired' : 'signature is invalid';
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
  if (!uuidPattern.test(sub)) {
    throw new GotrueError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
  }
  const user = await findUserById(context.db, sub);
  if (!user) {
    throw new GotrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  }
  if (sessionId === undefined || sessionId === '' || sessionId === nilUuid) {
    return { user, sessionId: undefined };
  }
  if (typeof sessionId !== 'string' || !uuidPattern.test(sessionId)) {
    throw new GotrueError(403, 'bad_jwt', 'invalid claim: session_id claim must be a UUID');
  }
  if (!(await findSession(context.db, sessionId))) {
    throw new GotrueError(
      403,
      'session_not_found',
      'Session from session_id claim in JWT does not exist',
    );
  }
  return { user, sessionId };
}
