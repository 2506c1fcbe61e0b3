import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AuthRateLimit } from '../../config.ts';
import { createSharedCounters } from '../../db/shared-counters.ts';
import { claimPrefix } from '../../http/claim-prefix.ts';
import type { GatewayOptions } from '../gateway-options.ts';
import { nestsTooDeep } from '../json-depth.ts';
import type { AuthContext } from './auth-context.ts';
import { authErrorHandler, authNotFound, GotrueError } from './errors.ts';
import { createMailer } from './mail.ts';
import { createMailQueue } from './mail-queue.ts';
import { createMailWindow } from './mail-window.ts';
import { createRateWindow } from './rate-window.ts';
import { createSigninThrottle } from './signin-throttle.ts';
import { recoverRoute } from './recover-route.ts';
import { signupRoute } from './signup-route.ts';
import { tokenRoute } from './token-route.ts';
import { userRoutes } from './user-routes.ts';
import { verifyRoute } from './verify-route.ts';

export const defaultAuthRateLimit: AuthRateLimit = {
  signinsPerMinute: 30,
  signinFailuresPerAddressPerHour: 10,
};

export interface AuthAreaOptions extends GatewayOptions {
  config: GatewayOptions['config'] & { authRateLimit?: AuthRateLimit | undefined };
}

/**
 * GoTrue's API for supabase-js (`/auth/v1`), the part Survey Desk uses: sign-up with e-mail
 * confirmation, the confirmation link, password sign-in, refresh, sign-out, the user and its
 * password and metadata, and password recovery by mail.
 */
export const authArea: FastifyPluginAsync<AuthAreaOptions> = async (auth, options) => {
  auth.setErrorHandler(authErrorHandler);
  auth.setNotFoundHandler(authNotFound);
  acceptEmptyJson(auth);

  const { config } = options;
  const limits = config.authRateLimit ?? defaultAuthRateLimit;
  const counters = createSharedCounters(options.db, config.jwtSecret);
  const host = config.publicUrl ? new URL(config.publicUrl).hostname : 'localhost';
  const context: AuthContext = {
    db: options.db,
    secret: config.jwtSecret,
    now: options.now,
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      dataDir: config.dataDir,
      from: `Survey Desk <noreply@${host}>`,
    }),
    mailQueue: createMailQueue(auth.log),
    publicUrl: config.publicUrl,
    limits: {
      signinsPerClient: createRateWindow(counters, 'signins', limits.signinsPerMinute),
      signinFailures: createSigninThrottle(counters, limits.signinFailuresPerAddressPerHour),
      // Each sign-up sends a mail: as many per client as sign-ins.
      signupsPerClient: createRateWindow(counters, 'signups', limits.signinsPerMinute),
      // Recovery mails and redeeming their links: as many per client as sign-ins.
      recoveriesPerClient: createRateWindow(counters, 'recoveries', limits.signinsPerMinute),
      verifiesPerClient: createRateWindow(counters, 'verifies', limits.signinsPerMinute),
      signupMails: createMailWindow(counters, 'signup-mail'),
      recoveryMails: createMailWindow(counters, 'recovery-mail'),
    },
  };
  // Mails still on their way go out before the database closes.
  auth.addHook('onClose', () => context.mailQueue.idle());
  signupRoute(auth, context);
  verifyRoute(auth, context);
  recoverRoute(auth, context);
  tokenRoute(auth, context);
  userRoutes(auth, context);

  claimPrefix(auth);
};

/**
 * supabase-js sends `Content-Type: application/json` with no body on sign-out, which GoTrue
 * takes as no parameters; Fastify's parser would refuse it.
 */
function acceptEmptyJson(auth: FastifyInstance): void {
  const parseJson = auth.getDefaultJsonParser('error', 'error');
  auth.removeContentTypeParser('application/json');
  auth.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    if (nestsTooDeep(body.toString())) {
      done(new GotrueError(400, 'bad_json', 'Could not parse request body as JSON'));
      return;
    }
    parseJson(request, body.toString(), (error, parsed) => {
      if (error) done(new GotrueError(400, 'bad_json', 'Could not parse request body as JSON'));
      else done(null, parsed);
    });
  });
}
