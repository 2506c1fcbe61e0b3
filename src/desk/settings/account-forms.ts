import { z } from 'zod';
import type { PasswordChangeFailure } from '../api/account.ts';
import {
  newPasswordField,
  passwordsDifferMessage,
  samePasswordMessage,
  weakPasswordMessage,
} from '../shared/new-password.ts';

export const displayNameMessages = {
  tooLong: 'Der Name darf höchstens 80 Zeichen lang sein.',
  address: 'Ein Anzeigename ist keine E-Mail-Adresse. Bitte gib einen Namen ein.',
  lineBreak: 'Der Name darf keine Zeilenumbrüche oder Steuerzeichen enthalten.',
  taken: 'Diesen Namen zeigt schon ein anderes Konto. Bitte wähle einen anderen.',
} as const;

// Control, line-breaking and bidi/zero-width characters, as set_display_name refuses them.
const controlCharacters =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/u;

/**
 * The name colleagues see (staff.display_name: at most 80 characters, empty shows the e-mail):
 * never an address (no '@') and no line break, as the database holds it (set_display_name, which
 * also refuses a name another account shows).
 */
export const nameSchema = z.object({
  name: z
    .string()
    .refine((name) => !controlCharacters.test(name), {
      error: displayNameMessages.lineBreak,
      abort: true,
    })
    .trim()
    .max(80, { error: displayNameMessages.tooLong, abort: true })
    .refine((name) => !name.includes('@'), { error: displayNameMessages.address, abort: true }),
});
export type NameValues = z.infer<typeof nameSchema>;

export const passwordChangeSchema = z
  .object({
    current: z.string().min(1, 'Bitte gib dein aktuelles Passwort ein.'),
    // The gateway's and the hosted project's minimum (docs/gateway.md): checked before the current
    // password is, so a too short one never costs a sign-in.
    password: newPasswordField.refine((value) => value.length >= 8, {
      message: weakPasswordMessage(['length']),
    }),
    confirmation: z.string(),
  })
  .refine((values) => values.password === values.confirmation, {
    path: ['confirmation'],
    message: passwordsDifferMessage,
  })
  .refine((values) => values.password !== values.current, {
    path: ['password'],
    message: samePasswordMessage,
  });
export type PasswordChangeValues = z.infer<typeof passwordChangeSchema>;

export const currentPasswordWrongMessage = 'Das aktuelle Passwort stimmt nicht.';

/** Which field a refused change belongs to, and what to say; `form` when no field is at fault. */
export function passwordChangeError(failure: PasswordChangeFailure): {
  field: 'current' | 'password' | 'form';
  message: string;
} {
  switch (failure.kind) {
    case 'current-missing':
      return { field: 'current', message: 'Bitte gib dein aktuelles Passwort ein.' };
    case 'current-wrong':
      return { field: 'current', message: currentPasswordWrongMessage };
    case 'same':
      return { field: 'password', message: samePasswordMessage };
    case 'weak':
      return { field: 'password', message: weakPasswordMessage(failure.reasons) };
    case 'rate-limited':
      return {
        field: 'form',
        message:
          'Zu viele falsche Versuche. Bitte warte einige Minuten und versuche es dann erneut.',
      };
    case 'session':
      return {
        field: 'form',
        message: 'Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.',
      };
    case 'unreachable':
      return {
        field: 'form',
        message:
          'Das Passwort konnte gerade nicht geändert werden. Bitte prüfe deine Internetverbindung und versuche es erneut.',
      };
  }
}
