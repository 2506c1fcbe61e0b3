import { useCallback, useEffect, useState } from 'react';
import { sameQuestionnaire, type QuestionnaireDefinition } from '../domain/questionnaire.ts';
import { whenIdle } from './when-idle.ts';

export type QuestionsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | ({ status: 'success' } & QuestionnaireDefinition);

const generalFailure = 'Der Fragebogen konnte nicht geladen werden. Bitte versuchen Sie es erneut.';

/**
 * A questionnaire (hub, else the device's copy), with a retry for the error screen.
 *
 * With `built`, the definition the build rendered into the page, that one shows at once: on the
 * server and in the first render, so the page paints its first question from the HTML and the
 * island hydrates it. The live definition (hub, the service worker's cached reply, the device's
 * copy) is read when the page is idle, with its checks (zod) and the device database (Dexie), and
 * takes over only when it differs. When it does not arrive, the built one stays: it answers as
 * well offline.
 */
export function useQuestions(
  formId: number,
  built?: QuestionnaireDefinition,
): QuestionsState & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  // The result belongs to one form and attempt; anything else still counts as loading (or as the
  // built definition), which spares the effect from resetting state before each fetch.
  const key = `${formId}:${attempt}`;
  const [result, setResult] = useState<{ key: string; state: QuestionsState }>();
  const state: QuestionsState =
    result?.key === key
      ? result.state
      : built
        ? { status: 'success', ...built }
        : { status: 'loading' };

  useEffect(() => {
    const controller = new AbortController();
    const setState = (next: QuestionsState) => setResult({ key, state: next });
    async function load() {
      try {
        const { loadQuestionnaire, loadFailureMessage } = await import('./definitions.ts');
        try {
          const definition = await loadQuestionnaire(formId, controller.signal);
          if (controller.signal.aborted) return;
          // The same questionnaire keeps the same objects: the steps go on undisturbed.
          if (built && sameQuestionnaire(built, definition)) return;
          setState({ status: 'success', ...definition });
        } catch (error) {
          if (!controller.signal.aborted && !built) {
            setState({ status: 'error', message: loadFailureMessage(error) });
          }
        }
      } catch {
        // The loading code itself did not arrive (offline before the service worker held it).
        if (!controller.signal.aborted && !built) {
          setState({ status: 'error', message: generalFailure });
        }
      }
    }
    // Without a built definition nothing shows until it arrives: then at once.
    const cancel = built ? whenIdle(() => void load()) : undefined;
    if (!built) void load();
    return () => {
      cancel?.();
      controller.abort();
    };
  }, [formId, key, built]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
