import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import { listeningOrigin } from '../../http/listening-origin.ts';
import { GotrueError } from './errors.ts';
import type { Mailer } from './mail.ts';
import type { MailQueue } from './mail-queue.ts';
import type { MailWindow } from './mail-window.ts';
import type { RateWindow } from './rate-window.ts';
import type { SigninThrottle } from './signin-throttle.ts';

/** What the auth routes share, built once per gateway. */
export interface AuthContext {
  db: Database;
  secret: string;
  now: () => Date;
  mailer: Mailer;
  /** Sends the routes' mails after their answers (see mail-queue.ts). */
  mailQueue: MailQueue;
  /**
   * PUBLIC_URL, else undefined: then links and the token issuer use the address the server
   * listens on, as `npm start` prints it.
   */
  publicUrl: string | undefined;
  /** The limits, in the counters every instance shares (server/db/shared-counters.ts). */
  limits: {
    signinsPerClient: RateWindow;
    signinFailures: SigninThrottle;
    signupsPerClient: RateWindow;
    recoveriesPerClient: RateWindow;
    verifiesPerClient: RateWindow;
    /** One mail per address and minute, each route its own minute. */
    signupMails: MailWindow;
    recoveryMails: MailWindow;
  };
}

/**
 * The origin of links in mails and of the tokens' `iss`: PUBLIC_URL, else the address the server
 * listens on, as `npm start` prints it (a wildcard address as localhost). Never a request header:
 * a forged `Host` would otherwise put a stranger's server into a genuine mail, and the token in
 * its link into their hands.
 */
export function publicOrigin(context: AuthContext, request: FastifyRequest): string {
  if (context.publicUrl) return context.publicUrl.replace(/\/+$/, '');
  return listeningOrigin(request.server.server.address());
}

export function tooManyRequests(): GotrueError {
  return new GotrueError(429, 'over_request_rate_limit', 'Request rate limit reached');
}

/**
 * Reads the JSON body's fields the way GoTrue decodes into a struct: absent is fine, a wrong type
 * is a body it cannot parse.
 */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body: unknown = request.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body) || body === null) throw badJson();
  return body as Record<string, unknown>;
}

export function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw badJson();
  return value;
}

function badJson(): GotrueError {
  return new GotrueError(400, 'bad_json', 'Could not parse request body as JSON');
}
