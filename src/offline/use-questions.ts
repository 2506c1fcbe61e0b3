import { useCallback, useEffect, useState } from 'react';
import { sameQuestionnaire, type QuestionnaireDefinition } from '../domain/questionnaire.ts';
import { fetchDefinition, keepDefinition, showsSameQuestionnaire } from './definitions-warmup.ts';
import { readDeviceSetting } from './device-settings.ts';
import { whenIdle } from './when-idle.ts';

export type QuestionsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | ({ status: 'success' } & QuestionnaireDefinition);

const generalFailure = 'Der Fragebogen konnte nicht geladen werden. Bitte versuchen Sie es erneut.';

/**
 * The live definition for a page that shows `built`: undefined while that one is current, or
 * when no other arrives (offline, the hub down), so the built one stays.
 *
 * First the hub's reply (through the service worker, which answers from its cache offline) is
 * compared without zod; only a different or unreadable one loads the schema and the device
 * database (definitions.ts), which also try the device's copy.
 */
async function liveDefinition(
  formId: number,
  built: QuestionnaireDefinition,
  signal: AbortSignal,
): Promise<QuestionnaireDefinition | undefined> {
  const reply = readDeviceSetting('simulateOffline')
    ? undefined
    : await fetchDefinition(formId).catch(() => undefined);
  if (signal.aborted) return undefined;
  if (reply) {
    void keepDefinition(reply).catch(() => undefined);
    if (showsSameQuestionnaire(reply, built)) return undefined;
  }
  const { loadQuestionnaire, readDefinition } = await import('./definitions.ts');
  const live = reply ? readDefinition(reply) : await loadQuestionnaire(formId, signal);
  return live && !sameQuestionnaire(built, live) ? live : undefined;
}

/**
 * A questionnaire (hub, else the device's copy), with a retry for the error screen.
 *
 * With `built`, the definition the build rendered into the page, that one shows at once: on the
 * server and in the first render, so the page paints its first question from the HTML and the
 * island hydrates it. The live definition is read when the page is idle and takes over only when
 * it differs; when it does not arrive, the built one stays, offline too.
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

    if (built) {
      const cancel = whenIdle(() => {
        liveDefinition(formId, built, controller.signal).then(
          (live) => {
            if (live && !controller.signal.aborted) setState({ status: 'success', ...live });
          },
          // Not arrived, not even from the device: the built questionnaire goes on.
          () => undefined,
        );
      });
      return () => {
        cancel();
        controller.abort();
      };
    }

    import('./definitions.ts')
      .then(async ({ loadQuestionnaire, loadFailureMessage }) => {
        try {
          setState({ status: 'success', ...(await loadQuestionnaire(formId, controller.signal)) });
        } catch (error) {
          if (!controller.signal.aborted) {
            setState({ status: 'error', message: loadFailureMessage(error) });
          }
        }
      })
      .catch(() => {
        // The loading code itself did not arrive (offline before the service worker held it).
        if (!controller.signal.aborted) setState({ status: 'error', message: generalFailure });
      });
    return () => controller.abort();
  }, [formId, key, built]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
