import type { FastifyInstance } from 'fastify';
import { signinNoticePaths } from '../../../src/domain/routes.ts';
import type { AuthContext } from './auth-context.ts';
import { confirmEmail } from './auth-store.ts';
import { confirmationValidForMs } from './signup-route.ts';

/**
 * `GET /verify?token=…&type=signup`, the link in the confirmation mail. GoTrue would sign the
 * person in and hand the tokens to `redirect_to`; here the link only confirms and always leads to
 * the desk's sign-in screen (no open redirect, no tokens in an address), with a notice.
 */
export function verifyRoute(auth: FastifyInstance, context: AuthContext): void {
  auth.get<{ Querystring: Record<string, string | undefined> }>(
    '/verify',
    async (request, reply) => {
      const { token, type } = request.query;
      const confirmed =
        typeof token === 'string' &&
        token.length > 0 &&
        type === 'signup' &&
        (await confirmEmail(context.db, token, context.now(), confirmationValidForMs)) ===
          'confirmed';
      const target = confirmed ? signinNoticePaths.confirmed : signinNoticePaths.linkInvalid;
      const base = context.publicUrl?.replace(/\/+$/, '') ?? '';
      return reply.redirect(`${base}${target}`, 303);
    },
  );
}
