import { questionTypes, type QuestionType } from './database-enums.ts';
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

/** A question as the page shows it (questionnaire-schema.ts reads it from the hub's reply). */
export interface Question {
  id: number;
  form_id?: number | undefined;
  sequence: number;
  type: QuestionType;
  question: string;
  /** The options in order (the hub keys them '1', '2', ...). */
  options: string[];
  multipleAnswers: boolean;
  information: string;
  /** A stable role (questionKeys), or null for an ordinary question. */
  key: string | null;
  /** Whether staff ask for an answer. */
  required: boolean;
  /** How Analyse groups the answers: 'birth_decade' for a year or a date of birth, else null. */
  analysis_bucket: string | null;
}

/** A questionnaire as the visitor gets it: its questions and the form's document, if any. */
export interface QuestionnaireDefinition {
  questions: Question[];
  /** Where the form's uploaded document (offer PDF) downloads; null without one. */
  documentUrl: string | null;
}

/** What the visitor sees of a question and what an answer to it means; not its place. */
function sameQuestion(a: Question, b: Question): boolean {
  return (
    a.id === b.id &&
    a.type === b.type &&
    a.question === b.question &&
    a.multipleAnswers === b.multipleAnswers &&
    a.key === b.key &&
    a.options.length === b.options.length &&
    a.options.every((option, index) => option === b.options[index])
  );
}

/**
 * Whether two definitions show the visitor the same questionnaire: the same questions in the same
 * order, worded and marked alike, and the same document. The sequence numbers themselves do not
 * count, only the order they give.
 */
export function sameQuestionnaire(a: QuestionnaireDefinition, b: QuestionnaireDefinition): boolean {
  return (
    a.documentUrl === b.documentUrl &&
    a.questions.length === b.questions.length &&
    a.questions.every((question, index) => {
      const other = b.questions[index];
      return (
        other !== undefined &&
        sameQuestion(question, other) &&
        question.information === other.information &&
        question.required === other.required &&
        question.analysis_bucket === other.analysis_bucket
      );
    })
  );
}

/**
 * A visitor's progress carried over to a changed questionnaire (the live definition replacing the
 * one the page was built with): an answer stays where its question is unchanged; the visitor goes
 * on at the question they were on, or at the first one left without an answer, whichever comes
 * first. `dropped` says an answer was given up, so the visitor may be told.
 */
export function carryProgress(
  before: readonly Question[],
  after: readonly Question[],
  progress: { step: number; answers: Answers },
): { step: number; answers: Answers; dropped: boolean } {
  const kept: Answers = {};
  let dropped = false;
  for (const [id, value] of Object.entries(progress.answers)) {
    const old = before.find((q) => q.id === Number(id));
    const now = after.find((q) => q.id === Number(id));
    if (old && now && sameQuestion(old, now)) kept[now.id] = value;
    else dropped = true;
  }
  const unanswered = after.findIndex((q) => !(q.id in kept));
  const firstOpen = unanswered < 0 ? after.length : unanswered;
  const current = before[progress.step];
  const here = current ? after.findIndex((q) => q.id === current.id) : after.length;
  return { step: Math.min(firstOpen, here < 0 ? firstOpen : here), answers: kept, dropped };
}

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
