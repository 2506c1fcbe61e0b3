import type { QuestionnaireDefinition } from '../domain/questionnaire.ts';
import { questionnaireDefinitionSchema } from '../domain/questionnaire-schema.ts';
import { formQuestionsPath } from '../domain/routes.ts';
import { callHub, HubError, type HubConnection } from './hub-client.ts';

/**
 * `GET /api/forms/:id/questions`: the questions and the form's document. Throws a HubError when
 * the hub gives no questionnaire.
 */
export async function fetchQuestionnaire(
  hub: HubConnection,
  formId: number,
  options: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<QuestionnaireDefinition> {
  const reply = await callHub(
    hub,
    { path: formQuestionsPath(formId), ...options },
    questionnaireDefinitionSchema,
  );
  if (!reply.ok) throw new HubError(reply.failure);
  // The hub names the document below its own address, which need not be the page's.
  const { documentUrl } = reply.data;
  return {
    ...reply.data,
    documentUrl: documentUrl?.startsWith('/')
      ? `${hub.hubUrl.replace(/\/+$/, '')}${documentUrl}`
      : documentUrl,
  };
}
