import { z } from 'zod';
import { berlinToday, isCalendarDay } from '../../domain/calendar.ts';

/**
 * A retention hold as an admin enters it: the customer by e-mail address (what staff know them
 * by), why their data must stay (a contract, a dispute) and, optionally, until when.
 */
export const retentionHoldSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Bitte gib die E-Mail-Adresse des Kunden ein.')
    .max(320, 'Die E-Mail-Adresse ist zu lang.')
    .email('Bitte gib eine gültige E-Mail-Adresse ein.'),
  reason: z
    .string()
    .trim()
    .min(3, 'Bitte nenne den Grund (mindestens 3 Zeichen), z. B. den Vertrag.')
    .max(500, 'Der Grund darf höchstens 500 Zeichen lang sein.'),
  until: z
    .string()
    .refine((value) => value === '' || isCalendarDay(value), 'Bitte gib ein gültiges Datum ein.')
    .refine(
      (value) => value === '' || value >= berlinToday(),
      'Das Datum darf nicht in der Vergangenheit liegen.',
    ),
});

export type RetentionHoldValues = z.infer<typeof retentionHoldSchema>;

export const unknownCustomerMessage = 'Zu dieser E-Mail-Adresse gibt es keinen Kunden.';
export const holdSaveFailedMessage =
  'Die Aufbewahrungssperre konnte nicht gespeichert werden. Bitte versuche es erneut.';
export const holdLiftFailedMessage =
  'Die Aufbewahrungssperre konnte nicht aufgehoben werden. Bitte versuche es erneut.';
