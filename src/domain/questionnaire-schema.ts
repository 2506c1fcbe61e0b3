import { z } from 'zod';
import { questionTypes } from './database-enums.ts';
import type { Question, QuestionnaireDefinition } from './questionnaire.ts';

// The questionnaire as the hub sends it, checked and brought into the page's shape. A module of
// its own: the first question paints from the definition the build knows (questionnaire.ts has
// no zod), and this schema loads only when the live definition is read (src/offline/definitions.ts).

/** Options arrive as an object keyed '1', '2', ... (or, from older data, an array). */
const optionsSchema = z
  .union([z.record(z.string(), z.string()), z.array(z.string()), z.null()])
  .optional()
  .transform((options): string[] => {
    if (!options) return [];
    if (Array.isArray(options)) return options;
    return Object.entries(options)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, value]) => value);
  });

export const questionSchema = z.object({
  id: z.number().int(),
  form_id: z.number().int().optional(),
  sequence: z.number(),
  type: z.enum(questionTypes),
  question: z.string(),
  options: optionsSchema,
  multipleAnswers: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  information: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  /** A stable role (questionKeys), or null for an ordinary question. */
  key: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  /**
   * Whether staff ask for an answer; a question without the field (an older device copy) counts
   * as required, so it is never marked optional by mistake.
   */
  required: z
    .boolean()
    .nullish()
    .transform((v) => v ?? true),
  /** How Analyse groups the answers: 'birth_decade' for a year or a date of birth, else null. */
  analysis_bucket: z
    .string()
    .nullish()
    .catch(null)
    .transform((v) => v ?? null),
}) satisfies z.ZodType<Question>;

const bySequence = (questions: Question[]) =>
  [...questions].sort((a, b) => a.sequence - b.sequence || a.id - b.id);

/** A document address the page may link: below this origin, or http(s). */
const documentUrlSchema = z
  .string()
  .refine((url) => /^(\/(?!\/)|https?:\/\/)/.test(url))
  .nullish()
  .catch(null)
  .transform((v) => v ?? null);

/**
 * `GET /api/forms/:id/questions`: `{ data: [...], form: { id, title, document_url } }`, or, as spec
 * 7 also allows (and an older device copy holds), the questions alone; sorted by sequence.
 */
export const questionnaireDefinitionSchema = z
  .union([
    z.array(questionSchema),
    z.object({
      data: z.array(questionSchema),
      form: z.object({ document_url: documentUrlSchema }).nullish(),
    }),
  ])
  .transform((value): QuestionnaireDefinition =>
    Array.isArray(value)
      ? { questions: bySequence(value), documentUrl: null }
      : { questions: bySequence(value.data), documentUrl: value.form?.document_url ?? null },
  );
