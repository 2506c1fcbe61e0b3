import { z } from 'zod';

/**
 * The spec names the fields name, e-mail and message. Name and address are the account's own
 * (display name, else address): the form shows them and the database writes them into the message
 * whatever is sent (support_messages' trigger, 20261128120000_names_and_labels.sql), so that a
 * message cannot pretend to come from someone else. What the sender types is the message; its
 * limits are the table's.
 */
export const supportSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'Bitte gib deine Nachricht ein.')
    .max(5000, 'Die Nachricht darf höchstens 5000 Zeichen lang sein.'),
});

/** How the form names the sender: the account's display name, else its address. */
export function senderName(displayName: string | null | undefined, email: string): string {
  return displayName?.trim() || email;
}

export type SupportValues = z.infer<typeof supportSchema>;

/** Spec 8, word for word. */
export const supportSentMessage = 'Vielen Dank! Ihre Nachricht wurde gesendet.';

export const supportFailedMessage =
  'Deine Nachricht konnte nicht gesendet werden. Bitte prüfe deine Internetverbindung und versuche es erneut.';
