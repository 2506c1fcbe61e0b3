// An unfinished questionnaire on a visitor's own device, so a reload loses nothing. It keeps the
// answers only: never the contact step (name, address, phone, e-mail) nor the children's birth
// dates, since the device may be shared; those are typed again after a reload. Kiosk mode keeps
// no draft at all (questionnaire-flow.tsx).

import { questionKeys, type Answers, type Question } from '../domain/questionnaire.ts';

/** How long an unfinished questionnaire stays on the device. */
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface QuestionnaireDraft {
  /** The step: a question index, or the number of questions for the contact form. */
  step: number;
  answers: Answers;
  savedAt: number;
}

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const key = (formId: number) => `fragebogen-entwurf:${formId}`;

/** Questions whose answers are personal details rather than answers: never kept in a draft. */
const personalKeys: ReadonlySet<string> = new Set([questionKeys.childDates]);

function defaultStorage(): DraftStorage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage can be switched off (private mode, blocked site data): then no draft, no error.
    return undefined;
  }
}

function isAnswers(value: unknown): value is Answers {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The draft stored for `formId`, if younger than 24 hours. A draft stored before drafts left out
 * the contact step (it held `contact`) is rewritten without it here, at once.
 */
export function loadDraft(
  formId: number,
  now: number,
  storage = defaultStorage(),
): QuestionnaireDraft | undefined {
  try {
    const raw = storage?.getItem(key(formId));
    if (!raw) return undefined;
    const stored = JSON.parse(raw) as Partial<QuestionnaireDraft> & Record<string, unknown>;
    if (
      typeof stored.savedAt !== 'number' ||
      now - stored.savedAt > DRAFT_MAX_AGE_MS ||
      typeof stored.step !== 'number' ||
      !isAnswers(stored.answers)
    ) {
      storage?.removeItem(key(formId));
      return undefined;
    }
    const draft: QuestionnaireDraft = {
      step: stored.step,
      answers: stored.answers,
      savedAt: stored.savedAt,
    };
    if (Object.keys(stored).some((field) => !(field in draft))) {
      storage?.setItem(key(formId), JSON.stringify(draft));
    }
    return draft;
  } catch {
    storage?.removeItem(key(formId));
    return undefined;
  }
}

export function saveDraft(
  formId: number,
  draft: Omit<QuestionnaireDraft, 'savedAt'>,
  now: number,
  storage = defaultStorage(),
): void {
  try {
    // Field by field: whatever else a caller passes is not stored.
    const stored: QuestionnaireDraft = { step: draft.step, answers: draft.answers, savedAt: now };
    storage?.setItem(key(formId), JSON.stringify(stored));
  } catch {
    // A full or blocked storage only costs the draft; the visitor can go on answering.
  }
}

export function clearDraft(formId: number, storage = defaultStorage()): void {
  try {
    storage?.removeItem(key(formId));
  } catch {
    // Nothing to clear when storage is blocked.
  }
}

type DraftQuestion = Pick<Question, 'id' | 'key'>;

/** The answers a draft may keep: all but those of personal questions (children's birth dates). */
export function draftAnswers(questions: readonly DraftQuestion[], answers: Answers): Answers {
  const personal = new Set(
    questions.filter((q) => q.key !== null && personalKeys.has(q.key)).map((q) => q.id),
  );
  return Object.fromEntries(
    Object.entries(answers).filter(([id]) => !personal.has(Number(id))),
  ) as Answers;
}

/**
 * Where a stored draft resumes: its kept answers, at its step or at the first personal question
 * before it, whose answer the draft did not keep.
 */
export function resumeDraft(
  questions: readonly DraftQuestion[],
  draft: Pick<QuestionnaireDraft, 'step' | 'answers'>,
): Pick<QuestionnaireDraft, 'step' | 'answers'> {
  const answers = draftAnswers(questions, draft.answers);
  const missing = questions.findIndex((q) => q.key !== null && personalKeys.has(q.key));
  const step = missing >= 0 && missing < draft.step ? missing : draft.step;
  return { step: Math.max(0, Math.min(step, questions.length)), answers };
}

/**
 * Where the draft stored for `formId` resumes with these questions (resumeDraft), or undefined
 * without one.
 */
export function resumeStoredDraft(
  formId: number,
  questions: readonly DraftQuestion[],
  now = Date.now(),
  storage = defaultStorage(),
): Pick<QuestionnaireDraft, 'step' | 'answers'> | undefined {
  const draft = loadDraft(formId, now, storage);
  return draft ? resumeDraft(questions, draft) : undefined;
}
