import { z } from 'zod';

/** The spec names the fields only; the limits are the support_messages table's. */
export const supportSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Bitte gib deinen Namen ein.')
    .max(200, 'Der Name darf höchstens 200 Zeichen lang sein.'),
  email: z
    .string()
    .trim()
    .min(1, 'Bitte gib deine E-Mail-Adresse ein.')
    .max(320, 'Die E-Mail-Adresse ist zu lang.')
    .email('Bitte gib eine gültige E-Mail-Adresse ein.'),
  message: z
    .string()
    .trim()
    .min(1, 'Bitte gib deine Nachricht ein.')
    .max(5000, 'Die Nachricht darf höchstens 5000 Zeichen lang sein.'),
});

export type SupportValues = z.infer<typeof supportSchema>;

/** Spec 8, word for word. */
export const supportSentMessage = 'Vielen Dank! Ihre Nachricht wurde gesendet.';

export const supportFailedMessage =
  'Deine Nachricht konnte nicht gesendet werden. Bitte prüfe deine Internetverbindung und versuche es erneut.';
