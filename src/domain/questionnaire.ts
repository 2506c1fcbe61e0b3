import { z } from 'zod';
import { questionTypes } from './database-enums.ts';
import type { QuestionnaireContact } from './contact-forms.ts';
import { messages } from './messages.ts';
import type { SubmissionEnvelope } from './submission.ts';

// In a module of their own so that code without zod (the landing page's warm-up) can use them.
export { PKV_FORM_ID, TABALUGA_FORM_ID } from './form-ids.ts';

// The form id as an address carries it is checked where the addresses live.
export { isFormIdText } from './routes.ts';
export const MAX_CHILDREN = 3;

/**
 * Roles of the questions the Tabaluga flow depends on (questions.key). Staff may add, edit and
 * reorder questions of form 1; the flow finds these by key, never by id or position.
 */
export const questionKeys = {
  childCount: 'tabaluga_child_count',
  childDates: 'tabaluga_child_dates',
  offerAmount: 'tabaluga_offer_amount',
} as const;
export type QuestionKey = (typeof questionKeys)[keyof typeof questionKeys];

/** Which text of the consent checkboxes the visitor saw; stored with every lead. */
export const CONSENT_VERSION = '2026-11-22';

export { questionTypes };

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
});
export type Question = z.output<typeof questionSchema>;

const bySequence = (questions: Question[]) =>
  [...questions].sort((a, b) => a.sequence - b.sequence || a.id - b.id);

/** A questionnaire as the visitor gets it: its questions and the form's document, if any. */
export interface QuestionnaireDefinition {
  questions: Question[];
  /** Where the form's uploaded document (offer PDF) downloads; null without one. */
  documentUrl: string | null;
}

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

/** A question's answer while the visitor works: text, or a list for multi-select and dates. */
export type AnswerValue = string | string[];
export type Answers = Record<number, AnswerValue>;

/**
 * A question that asks for the visitor's year of birth ('In welchem Jahr sind Sie geboren?'): a
 * text question whose answers Analyse groups by birth decade. The Tabaluga children's dates have
 * the same grouping and their own key; they are dates, not years.
 */
export function isBirthYearQuestion(question: Question): boolean {
  return (
    question.type === 'input' &&
    question.analysis_bucket === 'birth_decade' &&
    question.key !== questionKeys.childDates
  );
}

/** The oldest plausible age of a visitor, as for the contact page's birthdate. */
const OLDEST_AGE = 120;

/**
 * The one message for a birth year as typed, or undefined when it is acceptable: four digits,
 * from 120 years ago to this year. An empty answer is acceptable unless the question is required.
 */
export function birthYearProblem(
  text: string,
  options: { required: boolean; today: Date },
): string | undefined {
  const value = text.trim();
  if (value === '') return options.required ? messages.birthYearRequired : undefined;
  if (!/^\d{4}$/.test(value)) return messages.birthYearInvalid;
  const year = Number(value);
  const thisYear = options.today.getFullYear();
  if (year > thisYear || year < thisYear - OLDEST_AGE) return messages.birthYearImplausible;
  return undefined;
}

export function inputPlaceholder(question: Question): string {
  return question.options[0] || 'Antwort eingeben...';
}

/**
 * Eins = 1, Zwei = 2, Drei oder mehr = 3: the answer's place among the child-count question's
 * options, so staff may reword them ('Ein Kind', ...) without breaking the date inputs. Before an
 * answer, one date input.
 */
export function childCount(
  question: Question | undefined,
  answer: AnswerValue | undefined,
): number {
  const position = typeof answer === 'string' ? (question?.options.indexOf(answer) ?? -1) : -1;
  return position < 0 ? 1 : Math.min(position + 1, MAX_CHILDREN);
}

/** The answer to the question with this role, wherever staff have moved it. */
export function answerByKey(
  questions: Question[],
  answers: Answers,
  key: QuestionKey,
): AnswerValue | undefined {
  const question = questions.find((q) => q.key === key);
  return question ? answers[question.id] : undefined;
}

export const tabalugaDocuments = {
  flyer: '/universa/tabaluga/flyer.pdf',
  offers: {
    25: '/universa/tabaluga/angebot-25.pdf',
    50: '/universa/tabaluga/angebot-50.pdf',
    100: '/universa/tabaluga/angebot-100.pdf',
    150: '/universa/tabaluga/angebot-150.pdf',
  },
} as const;

export const pkvDocuments = {
  info: '/universa/pkv/info.pdf',
  /** The bundled sample, offered while form 2 has no uploaded document. */
  offer: '/universa/pkv/angebot.pdf',
} as const;

type OfferAmount = keyof typeof tabalugaDocuments.offers;

/** The Tabaluga sample offer for the amount answer (25, 50, 100, 150 €); 150 € otherwise. */
export function tabalugaOfferPdf(amountAnswer: AnswerValue | undefined): string {
  const amount = Number(/\d+/.exec(String(amountAnswer ?? ''))?.[0]);
  const known = amount in tabalugaDocuments.offers ? (amount as OfferAmount) : 150;
  return tabalugaDocuments.offers[known];
}

/**
 * The answer list as the hub stores it: every question in order, multi-select answers and
 * children's dates joined with ', ', an unanswered question as ''.
 */
export function buildAnswerPayload(
  questions: Question[],
  answers: Answers,
): { question_id: number; answer: string }[] {
  return questions.map((question) => {
    const value = answers[question.id];
    const answer = Array.isArray(value)
      ? value
          .map((v) => v.trim())
          .filter(Boolean)
          .join(', ')
      : (value ?? '').trim();
    return { question_id: question.id, answer };
  });
}

export type QuestionnaireSubmission = Omit<SubmissionEnvelope, 'source'> & {
  source: 'questionnaire';
} & QuestionnaireContact;

export function buildQuestionnaireSubmission(input: {
  clientId: string;
  formId: number;
  questions: Question[];
  answers: Answers;
  contact: QuestionnaireContact;
  now: Date;
  /** The visitor's cookie choice and the banner's text version, when a choice was made. */
  cookieConsent?: { choice: string; version: string } | undefined;
}): QuestionnaireSubmission {
  const timestamp = input.now.toISOString();
  const name = `${input.contact.first_name} ${input.contact.last_name}`.trim();
  return {
    client_id: input.clientId,
    form_id: input.formId,
    source: 'questionnaire',
    answers: buildAnswerPayload(input.questions, input.answers),
    ...input.contact,
    create_date: timestamp,
    changed_date: timestamp,
    captured_at: timestamp,
    create_user: name,
    changed_user: name,
    consent_version: CONSENT_VERSION,
    ...(input.cookieConsent
      ? {
          cookie_consent: input.cookieConsent.choice,
          cookie_consent_version: input.cookieConsent.version,
        }
      : {}),
  };
}
