import { deskPaths } from '../../src/domain/routes.ts';
import type { StaffRole } from '../../src/domain/database-enums.ts';
import type { Mail } from '../gateway/auth/mail.ts';

/** What the approval mail tells: the address it goes to and the role the account now has. */
export interface ApprovalFacts {
  to: string;
  role: Exclude<StaffRole, 'pending'>;
}

const roleNames: Record<ApprovalFacts['role'], string> = {
  staff: 'Mitarbeiter',
  admin: 'Admin',
};

/**
 * The mail to a colleague an admin has enabled: German, plain text, with the way to the sign-in
 * (below PUBLIC_URL, or the address the server listens on; never a request's Host header). It
 * names no other account, no customer and not who enabled it. It speaks formally, as the
 * registration's confirmation mail does.
 */
export function approvalMail(baseUrl: string, facts: ApprovalFacts): Mail {
  const signin = new URL(deskPaths.signin, baseUrl).toString();
  const forgotten = new URL(deskPaths.passwordForgotten, baseUrl).toString();
  return {
    to: facts.to,
    subject: 'Ihr Zugang zu Survey Desk ist freigeschaltet',
    text: [
      'Guten Tag,',
      '',
      `Ihr Konto für Survey Desk ist freigeschaltet. Ihre Rolle: ${roleNames[facts.role]}.`,
      '',
      'Melden Sie sich mit der E-Mail-Adresse und dem Passwort Ihrer Registrierung an:',
      signin,
      '',
      'Passwort vergessen? Hier legen Sie ein neues fest:',
      forgotten,
      '',
      'Diese Nachricht wurde automatisch versandt.',
      '',
    ].join('\n'),
  };
}
