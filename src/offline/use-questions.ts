import { useCallback, useEffect, useState } from 'react';
import type { QuestionnaireDefinition } from '../domain/questionnaire.ts';
import { HubError } from '../api/hub-client.ts';
import { loadQuestionnaire } from './definitions.ts';

export type QuestionsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | ({ status: 'success' } & QuestionnaireDefinition);

/** A questionnaire (hub, else the device's copy), with a retry for the error screen. */
export function useQuestions(formId: number): QuestionsState & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  // The result belongs to one form and attempt; anything else still counts as loading, which
  // spares the effect from resetting state before each fetch.
  const key = `${formId}:${attempt}`;
  const [result, setResult] = useState<{ key: string; state: QuestionsState }>();
  const state: QuestionsState = result?.key === key ? result.state : { status: 'loading' };

  useEffect(() => {
    const controller = new AbortController();
    const setState = (next: QuestionsState) => setResult({ key, state: next });
    loadQuestionnaire(formId, controller.signal).then(
      (definition) => setState({ status: 'success', ...definition }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message =
          error instanceof HubError
            ? error.message
            : 'Der Fragebogen konnte nicht geladen werden. Bitte versuchen Sie es erneut.';
        setState({ status: 'error', message });
      },
    );
    return () => controller.abort();
  }, [formId, key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
