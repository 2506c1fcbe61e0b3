import { questionListSchema, type Question } from '../domain/questionnaire.ts';
import { formQuestionsPath } from '../domain/routes.ts';
import { callHub, HubError, type HubConnection } from './hub-client.ts';

/** `GET /api/forms/:id/questions`. Throws a HubError when the hub gives no list of questions. */
export async function fetchQuestions(
  hub: HubConnection,
  formId: number,
  options: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<Question[]> {
  const reply = await callHub(
    hub,
    { path: formQuestionsPath(formId), ...options },
    questionListSchema,
  );
  if (!reply.ok) throw new HubError(reply.failure);
  return reply.data;
}
