import { z } from 'zod';
import type { SignInFailure } from '../api/session.ts';
import { deskBase, deskPaths } from '../../domain/routes.ts';

/** Spec 5: e-mail and password are both required; the server judges the rest. */
export const signinSchema = z.object({
  email: z.string().trim().min(1, 'Bitte gib deine E-Mail-Adresse ein.'),
  password: z.string().min(1, 'Bitte gib dein Passwort ein.'),
});

export type SigninValues = z.infer<typeof signinSchema>;

export const signinFailureMessages: Record<SignInFailure, string> = {
  // Spec 2 and 8, word for word.
  credentials: 'Login fehlgeschlagen. Bitte überprüfe deine Anmeldedaten und versuche es erneut.',
  unconfirmed:
    'Deine E-Mail-Adresse ist noch nicht bestätigt. Bitte öffne den Link in der Bestätigungs-E-Mail und melde dich danach an.',
  'rate-limited':
    'Zu viele Anmeldeversuche. Bitte warte einige Minuten und versuche es dann erneut.',
  unreachable:
    'Der Server ist gerade nicht erreichbar. Bitte prüfe deine Internetverbindung und versuche es erneut.',
};

/**
 * Only a desk screen other than the sign-in is a place to go back to: anything else in `?weiter=`
 * (another site, `//host`) would make the sign-in an open redirect.
 */
export function returnPath(candidate: string | null | undefined): string {
  if (!candidate?.startsWith(`${deskBase}/`) || candidate.startsWith('//')) {
    return deskPaths.dashboard;
  }
  if (candidate.startsWith(deskPaths.signin)) return deskPaths.dashboard;
  return candidate;
}
