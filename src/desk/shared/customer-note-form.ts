import { z } from 'zod';

/** A note's text, as customer_notes takes it (1 to 2000 characters, blanks trimmed). */
export const noteFormSchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, { error: 'Bitte eine Notiz eingeben.' })
    .max(2000, { error: 'Höchstens 2000 Zeichen.' }),
});

export type NoteFormValues = z.output<typeof noteFormSchema>;
