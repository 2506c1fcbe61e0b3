import type { FastifyInstance } from 'fastify';
import { deskPaths, gatewayPrefixes, signinNoticePaths } from '../../../src/domain/routes.ts';
import { clientKey } from '../../http/client-key.ts';
import {
  bodyOf,
  publicOrigin,
  stringField,
  tooManyRequests,
  type AuthContext,
} from './auth-context.ts';
import { confirmEmail, redeemRecovery } from './auth-store.ts';
import { GotrueError } from './errors.ts';
import { recoveryValidForMs } from './recover-route.ts';
import { sessionJson } from './session-tokens.ts';
import { confirmationValidForMs } from './signup-route.ts';

/**
 * `GET /verify?token=…&type=signup`, the link in the confirmation mail. GoTrue would sign the
 * person in and hand the tokens to `redirect_to`; here the link only confirms and always leads to
 * the desk's sign-in screen (no open redirect, no tokens in an address), with a notice.
 *
 * `GET /verify?token=…&type=recovery` (a recovery link in GoTrue's own format) only leads on to
 * the desk's new-password page with the token as `token_hash`; that page redeems it with
 * `POST /verify` once the new password is typed, so opening the link (or a mail scanner fetching
 * it) uses nothing up.
 *
 * `POST /verify {type: 'recovery', token_hash}` is supabase-js's `verifyOtp`: the link's token
 * for a session, once, within an hour of sending it.
 */
export function verifyRoute(auth: FastifyInstance, context: AuthContext): void {
  const base = () => context.publicUrl?.replace(/\/+$/, '') ?? '';

  auth.get<{ Querystring: Record<string, string | undefined> }>(
    '/verify',
    async (request, reply) => {
      const { token, type } = request.query;
      if (type === 'recovery') {
        const page = new URL(deskPaths.passwordNew, 'http://desk');
        page.searchParams.set('token_hash', token ?? '');
        page.searchParams.set('type', 'recovery');
        return reply.redirect(`${base()}${page.pathname}${page.search}`, 303);
      }
      const confirmed =
        typeof token === 'string' &&
        token.length > 0 &&
        type === 'signup' &&
        (await confirmEmail(context.db, token, context.now(), confirmationValidForMs)) ===
          'confirmed';
      const target = confirmed ? signinNoticePaths.confirmed : signinNoticePaths.linkInvalid;
      return reply.redirect(`${base()}${target}`, 303);
    },
  );

  auth.post('/verify', async (request) => {
    if (!(await context.limits.verifiesPerClient.allow(clientKey(request), context.now()))) {
      throw tooManyRequests();
    }
    const body = bodyOf(request);
    const type = stringField(body, 'type');
    const tokenHash = stringField(body, 'token_hash');
    const token = stringField(body, 'token');
    if (!type) {
      throw new GotrueError(400, 'validation_failed', 'Verify requires a verification type');
    }
    if (!tokenHash && !token) {
      throw new GotrueError(400, 'validation_failed', 'Verify requires a token or a token hash');
    }
    if (type !== 'recovery') {
      throw new GotrueError(400, 'validation_failed', 'Unsupported verification type');
    }
    // No six-digit codes are mailed here, so a code with an address never matches.
    const issued = tokenHash
      ? await redeemRecovery(context.db, tokenHash, context.now(), recoveryValidForMs)
      : undefined;
    if (!issued) {
      throw new GotrueError(403, 'otp_expired', 'Email link is invalid or has expired');
    }
    return sessionJson(issued, {
      secret: context.secret,
      issuer: `${publicOrigin(context, request)}${gatewayPrefixes.auth}`,
      now: context.now(),
    });
  });
}
