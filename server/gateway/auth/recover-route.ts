import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deskPaths } from '../../../src/domain/routes.ts';
import { clientKey } from '../../http/client-key.ts';
import {
  bodyOf,
  publicOrigin,
  stringField,
  tooManyRequests,
  type AuthContext,
} from './auth-context.ts';
import { findUserByEmail, forgetRecovery, newSecret, startRecovery } from './auth-store.ts';
import { GotrueError } from './errors.ts';
import { mailErrorCode } from './mail-queue.ts';
import type { MailWindow } from './mail-window.ts';
import { overEmailSendRateLimit, validEmail } from './signup-route.ts';

/**
 * How long a recovery link works. GoTrue's built-in default (MAILER_OTP_EXP) is a day; hosted
 * Supabase projects start at one hour, and a link that opens a session without the password
 * should not live longer than it must.
 */
export const recoveryValidForMs = 60 * 60 * 1000;

/**
 * `POST /recover {email}`: mails a link that sets a new password. The answer is `{}` for every
 * valid address, with or without an account, and the mail goes out after the answer (through
 * the mail queue), so neither the answer nor its timing tells who has an account.
 */
export function recoverRoute(auth: FastifyInstance, context: AuthContext): void {
  const mailWindow = context.limits.recoveryMails;
  auth.post('/recover', async (request) => {
    const body = bodyOf(request);
    const text = stringField(body, 'email');
    if (!text) {
      throw new GotrueError(400, 'validation_failed', 'Password recovery requires an email');
    }
    const email = validEmail(text);
    if (!(await context.limits.recoveriesPerClient.allow(clientKey(request), context.now()))) {
      throw tooManyRequests();
    }
    // Counted per address for known and unknown ones alike (see createMailWindow); a new link
    // replaces the old, so this also bounds how often someone else can void the owner's link.
    const waitSeconds = await mailWindow.secondsLeft(email, context.now());
    if (waitSeconds > 0) throw overEmailSendRateLimit(waitSeconds);

    const origin = publicOrigin(context, request);
    const queued = context.mailQueue.add(() =>
      sendRecovery(request, context, mailWindow, email, origin),
    );
    if (!queued) {
      await mailWindow.forget(email).catch(() => undefined);
      request.log.error({ code: 'queue_full' }, 'recovery mail failed');
    }
    return {};
  });
}

async function sendRecovery(
  request: FastifyRequest,
  context: AuthContext,
  mailWindow: MailWindow,
  email: string,
  origin: string,
): Promise<void> {
  let userId: string | undefined;
  try {
    const user = await findUserByEmail(context.db, email);
    if (!user) return;
    userId = user.id;
    const token = newSecret();
    await startRecovery(context.db, user.id, token, context.now());
    const link = new URL(`${origin}${deskPaths.passwordNew}`);
    link.searchParams.set('token_hash', token);
    link.searchParams.set('type', 'recovery');
    const delivery = await context.mailer.send(recoveryMail(user.email, link.href));
    request.log.info(delivery, 'recovery mail sent');
  } catch (error) {
    await mailWindow.forget(email).catch(() => undefined);
    if (userId) await forgetRecovery(context.db, userId).catch(() => undefined);
    // The code only: a relay's refusal quotes the address.
    request.log.error({ code: mailErrorCode(error) }, 'recovery mail failed');
  }
}

function recoveryMail(to: string, link: string) {
  return {
    to,
    subject: 'Passwort für Survey Desk zurücksetzen',
    text: [
      'Guten Tag,',
      '',
      'für Ihr Konto bei Survey Desk wurde ein neues Passwort angefordert. Über diesen Link',
      'legen Sie es fest:',
      '',
      link,
      '',
      'Der Link ist eine Stunde gültig und funktioniert nur einmal. Ein neuerer Link ersetzt ihn.',
      'Wenn Sie kein neues Passwort angefordert haben, können Sie diese E-Mail ignorieren; Ihr',
      'Passwort bleibt dann unverändert.',
      '',
    ].join('\n'),
  };
}
