import { fetchQuestionnaire } from '../api/get-questions.ts';
import { HubError } from '../api/hub-client.ts';
import { hubConnection } from '../api/hub-connection.ts';
import { hubFailure, transientFailureKinds } from '../api/hub-failure.ts';
import {
  PKV_FORM_ID,
  TABALUGA_FORM_ID,
  type QuestionnaireDefinition,
} from '../domain/questionnaire.ts';
import { questionnaireDefinitionSchema } from '../domain/questionnaire-schema.ts';
import { readDeviceSetting } from './device-settings.ts';
import { keepDocumentOffline } from './document-cache.ts';
import { offlineDb } from './offline-db.ts';
import type { DefinitionRecord } from './offline-schema.ts';
import { getDefinition, putDefinition } from './outbox-db.ts';

/** On a lie-fi connection a visitor should not wait long before the stored copy is used. */
const NETWORK_TIMEOUT_MS = 5_000;

const notOnDevice =
  'Dieser Fragebogen ist auf diesem Gerät noch nicht gespeichert. Bitte öffnen Sie ihn einmal mit Internetverbindung.';

/** A definition as the device keeps it, read through the schema; undefined when it does not fit. */
export function readDefinition(
  stored: Pick<DefinitionRecord, 'questions' | 'document_url'>,
): QuestionnaireDefinition | undefined {
  const parsed = questionnaireDefinitionSchema.safeParse({
    data: stored.questions,
    form: { document_url: stored.document_url },
  });
  return parsed.success ? parsed.data : undefined;
}

async function fromDevice(formId: number): Promise<QuestionnaireDefinition | undefined> {
  const stored = await getDefinition(offlineDb(), formId).catch(() => undefined);
  return stored ? readDefinition(stored) : undefined;
}

async function fromNetwork(formId: number, signal?: AbortSignal): Promise<QuestionnaireDefinition> {
  const definition = await fetchQuestionnaire(hubConnection(), formId, {
    signal,
    timeoutMs: NETWORK_TIMEOUT_MS,
  });
  await putDefinition(offlineDb(), {
    form_id: formId,
    questions: definition.questions,
    document_url: definition.documentUrl,
    fetched_at: Date.now(),
  }).catch(() => undefined);
  if (definition.documentUrl)
    void keepDocumentOffline(definition.documentUrl).catch(() => undefined);
  return definition;
}

/**
 * A questionnaire's questions and document: from the hub when it answers (and kept on the
 * device, the document too), else the copy on the device. With 'Offline simulieren' on, only the
 * device copy, as in a real outage.
 */
export async function loadQuestionnaire(
  formId: number,
  signal?: AbortSignal,
): Promise<QuestionnaireDefinition> {
  if (readDeviceSetting('simulateOffline')) {
    const stored = await fromDevice(formId);
    if (stored) return stored;
    throw new HubError({ ...hubFailure('network'), message: notOnDevice });
  }
  try {
    return await fromNetwork(formId, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    // A hub that was not reached says nothing about the questionnaire; one that answered (it
    // does not exist, say) is believed over the device's copy.
    if (!(error instanceof HubError && transientFailureKinds.has(error.kind))) throw error;
    const stored = await fromDevice(formId);
    if (stored) return stored;
    throw new HubError({ ...error.failure, message: `${error.message} ${notOnDevice}` });
  }
}

/** The German line for a questionnaire that did not load: the hub's own, or a general one. */
export function loadFailureMessage(error: unknown): string {
  return error instanceof HubError
    ? error.message
    : 'Der Fragebogen konnte nicht geladen werden. Bitte versuchen Sie es erneut.';
}

/** Keeps both public questionnaires on the device, so they open offline after any online visit. */
export async function warmDefinitions(): Promise<void> {
  if (readDeviceSetting('simulateOffline')) return;
  await Promise.all(
    [TABALUGA_FORM_ID, PKV_FORM_ID].map((formId) => fromNetwork(formId).catch(() => undefined)),
  );
}
