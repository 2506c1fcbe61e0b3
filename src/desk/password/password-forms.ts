import { z } from 'zod';
import type { RecoveryRequestFailure } from '../api/password-recovery.ts';

/** 'Passwort vergessen?': the address the link goes to. */
export const forgottenSchema = z.object({
  email: z.string().trim().min(1, 'Bitte gib deine E-Mail-Adresse ein.'),
});
export type ForgottenValues = z.infer<typeof forgottenSchema>;

/** The same answer whether the address has an account or not: nobody learns who has one. */
export const recoverySentMessage =
  'Wenn ein Konto mit dieser Adresse besteht, haben wir einen Link geschickt.';

export const recoveryRequestFailureMessages: Record<RecoveryRequestFailure, string> = {
  'invalid-email': 'Bitte gib eine gültige E-Mail-Adresse ein.',
  'rate-limited':
    'Für diese Adresse wurde gerade erst ein Link angefordert, oder es kamen zu viele Anfragen. Bitte warte eine Minute und versuche es dann erneut.',
  unreachable:
    'Der Server ist gerade nicht erreichbar. Bitte prüfe deine Internetverbindung und versuche es erneut.',
};

export const invalidLinkMessage =
  'Dieser Link ist ungültig oder abgelaufen. Ein Link gilt eine Stunde und nur einmal; ein neuerer Link ersetzt ältere. Bitte fordere einen neuen Link an.';
