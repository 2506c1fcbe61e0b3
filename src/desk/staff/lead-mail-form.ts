import { z } from 'zod';
import type { LeadMailChange, LeadMailSettings } from '../api/lead-mail.ts';

/** 'sofort', or the hour (Berlin) of the daily digest as text: one select offers both. */
export const scheduleOptions = [
  { value: 'sofort', label: 'sofort' },
  ...Array.from({ length: 24 }, (_, hour) => ({
    value: String(hour),
    label: `täglich um ${hour} Uhr`,
  })),
];

/** The setting as an admin enters it; the address is needed only while the mail is on. */
export const leadMailFormSchema = z
  .object({
    enabled: z.boolean(),
    address: z.string().trim().max(254, 'Die E-Mail-Adresse ist zu lang.'),
    schedule: z.enum(scheduleOptions.map((option) => option.value) as [string, ...string[]], {
      error: 'Bitte wähle, wann die Benachrichtigung kommen soll.',
    }),
  })
  .superRefine((values, ctx) => {
    if (values.address === '') {
      if (values.enabled) {
        ctx.addIssue({
          code: 'custom',
          path: ['address'],
          message: 'Bitte gib die E-Mail-Adresse ein, an die die Benachrichtigung gehen soll.',
        });
      }
    } else if (!z.email().safeParse(values.address).success) {
      ctx.addIssue({
        code: 'custom',
        path: ['address'],
        message: 'Bitte gib eine gültige E-Mail-Adresse ein, z. B. makler@example.de.',
      });
    }
  });

export type LeadMailFormValues = z.infer<typeof leadMailFormSchema>;

export function formValues(settings: LeadMailSettings): LeadMailFormValues {
  return {
    enabled: settings.enabled,
    address: settings.address ?? '',
    schedule: settings.mode === 'immediate' ? 'sofort' : String(settings.digest_hour),
  };
}

/** What is saved; the digest's hour stays as it was while the mail goes out at once. */
export function settingsChange(
  values: LeadMailFormValues,
  previous: LeadMailSettings,
): LeadMailChange {
  return {
    enabled: values.enabled,
    address: values.address === '' ? null : values.address,
    mode: values.schedule === 'sofort' ? 'immediate' : 'digest',
    digestHour: values.schedule === 'sofort' ? previous.digest_hour : Number(values.schedule),
  };
}

export function savedMessage(values: LeadMailFormValues): string {
  if (!values.enabled) return 'Gespeichert: Es werden keine Benachrichtigungen verschickt.';
  return values.schedule === 'sofort'
    ? `Gespeichert: Jede neue Anfrage wird sofort an ${values.address} gemeldet.`
    : `Gespeichert: Neue Anfragen werden täglich um ${values.schedule} Uhr an ${values.address} gemeldet.`;
}

export const leadMailSaveFailedMessage =
  'Die Benachrichtigung konnte nicht gespeichert werden. Bitte versuche es erneut.';
