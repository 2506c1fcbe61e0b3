import { z } from 'zod';
import { questionTypes } from '../../domain/database-enums.ts';
import {
  optionsFromObject,
  optionsToObject,
  type QuestionChange,
  type QuestionRow,
} from '../api/questions.ts';

// The question sidebar's fields (spec 2 and 5). Options are edited as a list of objects,
// because react-hook-form's field arrays key their rows that way, and stored as the map the
// table keeps ('1', '2', ... in list order).

/**
 * The two question types in words staff use (the spec's "Multiple-Choice" and "Input" are the
 * stored values): a choice among given answers, one or several as the checkbox below says, or a
 * field the visitor types into.
 */
export const questionTypeOptions = [
  { value: 'multiple-choice', label: 'Auswahl aus vorgegebenen Antworten' },
  { value: 'input', label: 'Freitext (Eingabefeld)' },
] as const;

/** What an answer field of the sidebar shows while it is empty. */
export function optionPlaceholder(type: QuestionFormValues['type'], index: number): string {
  if (type === 'input') return index === 0 ? 'Platzhalter, z. B. „TT.MM.JJJJ“' : '';
  return index === 0 ? 'Antworttext, z. B. „Ja“' : 'Antworttext, z. B. „Nein“';
}

export const questionFormSchema = z
  .object({
    sequence: z
      .number({ error: 'Bitte gib die Position als Zahl ein.' })
      .int('Die Position muss eine ganze Zahl sein.')
      .min(1, 'Die Position beginnt bei 1.'),
    question: z
      .string()
      .trim()
      .min(1, 'Bitte gib die Frage ein.')
      .max(500, 'Die Frage darf höchstens 500 Zeichen lang sein.'),
    type: z.enum(questionTypes),
    options: z.array(
      z.object({
        value: z.string().max(200, 'Eine Antwort darf höchstens 200 Zeichen lang sein.'),
      }),
    ),
    multipleAnswers: z.boolean(),
    // Optional (the spec requires it; docs/spec-deviations.md): many questions need no hint.
    information: z
      .string()
      .trim()
      .max(2000, 'Die Information darf höchstens 2000 Zeichen lang sein.'),
    custome_description: z
      .string()
      .trim()
      .max(2000, 'Die Anmerkung darf höchstens 2000 Zeichen lang sein.'),
  })
  .superRefine((values, context) => {
    // An input question's options only give its placeholder: blanks there are dropped.
    if (values.type !== 'multiple-choice') return;
    values.options.forEach((option, index) => {
      if (option.value.trim() === '') {
        context.addIssue({
          code: 'custom',
          path: ['options', index, 'value'],
          message: 'Bitte gib einen Wert für diese Antwort ein oder entferne sie.',
        });
      }
    });
    if (values.options.filter((option) => option.value.trim() !== '').length < 2) {
      context.addIssue({
        code: 'custom',
        path: ['options'],
        message: 'Eine Auswahlfrage braucht mindestens zwei Antworten.',
      });
    }
  });

export type QuestionFormValues = z.infer<typeof questionFormSchema>;

/** A blank question in add mode; the spec's default type is multiple-choice. */
export function newQuestionValues(sequence: number): QuestionFormValues {
  return {
    sequence,
    question: '',
    type: 'multiple-choice',
    options: [{ value: '' }, { value: '' }],
    multipleAnswers: false,
    information: '',
    custome_description: '',
  };
}

/** A stored question in edit mode, its options rebuilt from the map. */
export function questionValues(row: QuestionRow): QuestionFormValues {
  return {
    sequence: row.sequence,
    question: row.question,
    type: row.type,
    options: optionsFromObject(row.options).map((value) => ({ value })),
    multipleAnswers: row.multipleAnswers,
    information: row.information ?? '',
    custome_description: row.custome_description ?? '',
  };
}

export function questionChange(values: QuestionFormValues): QuestionChange {
  return {
    sequence: values.sequence,
    question: values.question,
    type: values.type,
    options: optionsToObject(values.options.map((option) => option.value)),
    multipleAnswers: values.multipleAnswers,
    information: values.information || null,
    custome_description: values.custome_description || null,
  };
}
