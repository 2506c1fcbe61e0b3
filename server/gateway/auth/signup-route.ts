import type { FastifyInstance } from 'fastify';
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
  createUser,
  findUserByEmail,
  forgetConfirmationSent,
  newSecret,
  renewSignup,
  type UserRow,
} from './auth-store.ts';
import { GotrueError } from './errors.ts';
import { mailErrorCode } from './mail-queue.ts';
import { checkPasswordStrength, hashPassword } from './passwords.ts';
import { signupAnswer } from './user-json.ts';

/** GoTrue's default lifetime of a mailed link. */
export const confirmationValidForMs = 24 * 60 * 60 * 1000;

/**
 * `POST /signup` with e-mail confirmation on, as on the hosted project: the account exists but
 * cannot sign in until the link in the mail was opened; no session is issued here.
 */
export function signupRoute(auth: FastifyInstance, context: AuthContext): void {
  const mailWindow = context.limits.signupMails;
  auth.post('/signup', async (request, reply) => {
    if (!(await context.limits.signupsPerClient.allow(clientKey(request), context.now())))
      throw tooManyRequests();
    const body = bodyOf(request);
    const password = stringField(body, 'password');
    const data = metadataOf(body.data);
    if (!password) {
      throw new GotrueError(400, 'validation_failed', 'Signup requires a valid password');
    }
    checkPasswordStrength(password);
    const email = validEmail(stringField(body, 'email'));
    // One mail per address and minute, counted for every address alike: a confirmed address
    // answers a second sign-up within the minute as a new one does, so the 429 tells nothing.
    const waitSeconds = await mailWindow.secondsLeft(email, context.now());
    if (waitSeconds > 0) throw overEmailSendRateLimit(waitSeconds);

    // Hashed before looking the address up, outside any transaction: every answer costs the same
    // time, so timing does not tell which addresses have accounts.
    const passwordHash = await hashPassword(password);
    const existing = await findUserByEmail(context.db, email);
    const now = context.now();
    // One answer for a new, an unconfirmed and a confirmed address alike.
    const answer = signupAnswer(email, data, now);
    if (existing?.email_confirmed_at) return answer;

    const confirmationToken = newSecret();
    let user: UserRow | undefined;
    if (existing) {
      user = await renewSignup(
        context.db,
        existing.id,
        { passwordHash, data },
        confirmationToken,
        now,
      );
    } else {
      user = await createUser(context.db, { email, passwordHash, data }, confirmationToken, now);
    }
    // Taken meanwhile (two sign-ups at once, or confirmed in between): the same answer, no mail.
    if (!user) return answer;

    const link = new URL(`${publicOrigin(context, request)}${gatewayPrefixes.auth}/verify`);
    link.searchParams.set('token', confirmationToken);
    link.searchParams.set('type', 'signup');
    // The mail goes out after the answer: a slow relay would otherwise tell a new or an
    // unconfirmed address (a mail is sent) from a confirmed one (none is). A failed send is
    // logged and frees the address for another try; the caller hears nothing of it, as it hears
    // nothing of a mail that did not go out for a confirmed address.
    const userId = user.id;
    const failed = async (code: string) => {
      await mailWindow.forget(email).catch(() => undefined);
      await forgetConfirmationSent(context.db, userId).catch(() => undefined);
      request.log.error({ code }, 'confirmation mail failed');
    };
    const queued = context.mailQueue.add(async () => {
      try {
        const delivery = await context.mailer.send(confirmationMail(email, link.href));
        request.log.info(delivery, 'confirmation mail sent');
      } catch (error) {
        await failed(mailErrorCode(error));
      }
    });
    if (!queued) await failed('queue_full');
    return reply.send(answer);
  });
}

export function validEmail(text: string): string {
  if (!text) {
    throw new GotrueError(400, 'validation_failed', 'Sign up only available with email provider');
  }
  if (text.length > 255) {
    throw new GotrueError(400, 'validation_failed', 'An email address is too long');
  }
  // The shape GoTrue's checkmail accepts, roughly: something @ a domain with a dot.
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) {
    throw new GotrueError(
      400,
      'validation_failed',
      'Unable to validate email address: invalid format',
    );
  }
  return text.toLowerCase();
}

function metadataOf(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new GotrueError(400, 'bad_json', 'Could not parse request body as JSON');
  }
  return value as Record<string, unknown>;
}

function confirmationMail(to: string, link: string) {
  return {
    to,
    subject: 'Bitte bestätigen Sie Ihre E-Mail-Adresse',
    text: [
      'Guten Tag,',
      '',
      'Sie haben sich bei Survey Desk registriert. Bitte bestätigen Sie Ihre E-Mail-Adresse',
      'über diesen Link:',
      '',
      link,
      '',
      'Der Link ist 24 Stunden gültig. Nach der Bestätigung schaltet ein Administrator Ihr',
      'Konto frei.',
      'Wenn Sie sich nicht registriert haben, können Sie diese E-Mail ignorieren.',
      '',
    ].join('\n'),
  };
}

export function overEmailSendRateLimit(waitSeconds: number): GotrueError {
  return new GotrueError(
    429,
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${waitSeconds} seconds.`,
  );
}
