import { z } from 'zod';

// A questionnaire's title and description, as the list's sidebar and the editor check them
// (spec 5 and 9: title at least 3, description at least 10 characters).

export const formDetailMessages = {
  titleTooShort: 'Der Titel muss mindestens 3 Zeichen lang sein.',
  titleTooLong: 'Der Titel darf höchstens 200 Zeichen lang sein.',
  descriptionTooShort: 'Die Beschreibung muss mindestens 10 Zeichen lang sein.',
  descriptionTooLong: 'Die Beschreibung darf höchstens 2000 Zeichen lang sein.',
  imageNotUrl: 'Bitte gib eine Bild-URL ein, die mit http:// oder https:// beginnt.',
} as const;

export const newFormSchema = z.object({
  title: z
    .string()
    .trim()
    .min(3, formDetailMessages.titleTooShort)
    .max(200, formDetailMessages.titleTooLong),
  description: z
    .string()
    .trim()
    .min(10, formDetailMessages.descriptionTooShort)
    .max(2000, formDetailMessages.descriptionTooLong),
});

export type NewFormValues = z.infer<typeof newFormSchema>;

/** An absolute http(s) address: the only kind of image the desk stores. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export const formDetailsSchema = newFormSchema.extend({
  image: z
    .string()
    .trim()
    .refine((value) => value === '' || isHttpUrl(value), formDetailMessages.imageNotUrl),
});

export type FormDetailsValues = z.infer<typeof formDetailsSchema>;
