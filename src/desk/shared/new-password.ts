import { z } from 'zod';

// What every screen that chooses a password shares (registration, a new password after a
// recovery link, a change in Einstellungen): the password twice, and GoTrue's reasons for a weak
// one in German. How strong a password must be is the server's rule (the gateway's minimum
// length, a hosted project's settings); the screens only say what it answered.

export const passwordsDifferMessage = 'Die Passwörter stimmen nicht überein.';
export const samePasswordMessage = 'Das neue Passwort muss sich vom alten unterscheiden.';

/** bcrypt reads 72 bytes; GoTrue refuses a longer password rather than cutting it. */
const maxPasswordBytes = 72;

export const newPasswordField = z
  .string()
  .min(1, 'Bitte gib ein Passwort ein.')
  .refine((value) => new TextEncoder().encode(value).length <= maxPasswordBytes, {
    message: 'Das Passwort darf höchstens 72 Zeichen lang sein.',
  });

/** The two fields of a new password; the repetition must equal the password. */
export const newPasswordSchema = z
  .object({ password: newPasswordField, confirmation: z.string() })
  .refine((values) => values.password === values.confirmation, {
    path: ['confirmation'],
    message: passwordsDifferMessage,
  });

export type NewPasswordValues = z.infer<typeof newPasswordSchema>;

const reasonTexts: Record<string, string> = {
  length: 'mindestens 8 Zeichen',
  characters: 'Klein- und Großbuchstaben, Ziffern und Sonderzeichen',
};

/**
 * GoTrue's `weak_password.reasons` as one sentence: `length`, `characters` (a hosted project
 * may ask for kinds of characters) and `pwned` (the password appears in known data leaks).
 */
export function weakPasswordMessage(reasons: readonly string[] = ['length']): string {
  const needs = reasons.flatMap((reason) => (reasonTexts[reason] ? [reasonTexts[reason]] : []));
  const parts = ['Das Passwort ist zu schwach.'];
  if (needs.length > 0) parts.push(`Bitte wähle ein Passwort mit ${needs.join(' sowie ')}.`);
  if (reasons.includes('pwned')) {
    parts.push('Dieses Passwort ist aus Datenlecks bekannt; bitte wähle ein anderes.');
  }
  if (parts.length === 1) parts.push('Bitte wähle ein längeres Passwort.');
  return parts.join(' ');
}
