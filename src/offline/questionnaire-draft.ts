import type { Answers } from '../domain/questionnaire.ts';

/** How long an unfinished questionnaire stays on the device. */
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface QuestionnaireDraft {
  /** The step: a question index, or the number of questions for the contact form. */
  step: number;
  answers: Answers;
  contact: Record<string, unknown>;
  savedAt: number;
}

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const key = (formId: number) => `fragebogen-entwurf:${formId}`;

function defaultStorage(): DraftStorage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage can be switched off (private mode, blocked site data): then no draft, no error.
    return undefined;
  }
}

export function loadDraft(
  formId: number,
  now: number,
  storage = defaultStorage(),
): QuestionnaireDraft | undefined {
  try {
    const raw = storage?.getItem(key(formId));
    if (!raw) return undefined;
    const draft = JSON.parse(raw) as QuestionnaireDraft;
    if (typeof draft.savedAt !== 'number' || now - draft.savedAt > DRAFT_MAX_AGE_MS) {
      storage?.removeItem(key(formId));
      return undefined;
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
    storage?.setItem(key(formId), JSON.stringify({ ...draft, savedAt: now }));
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
