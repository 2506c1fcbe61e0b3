import { fetchQuestions, HubError } from '../api/hub-client.ts';
import {
  PKV_FORM_ID,
  questionListSchema,
  TABALUGA_FORM_ID,
  type Question,
} from '../domain/questionnaire.ts';
import { readDeviceSetting } from './device-settings.ts';
import { offlineDb } from './offline-db.ts';
import { getDefinition, putDefinition } from './outbox-db.ts';

/** On a lie-fi connection a visitor should not wait long before the stored copy is used. */
const NETWORK_TIMEOUT_MS = 5_000;

const notOnDevice =
  'Dieser Fragebogen ist auf diesem Gerät noch nicht gespeichert. Bitte öffnen Sie ihn einmal mit Internetverbindung.';

async function fromDevice(formId: number): Promise<Question[] | undefined> {
  const stored = await getDefinition(offlineDb(), formId).catch(() => undefined);
  if (!stored) return undefined;
  const parsed = questionListSchema.safeParse(stored.questions);
  return parsed.success ? parsed.data : undefined;
}

async function fromNetwork(formId: number, signal?: AbortSignal): Promise<Question[]> {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), NETWORK_TIMEOUT_MS);
  const forward = () => controller.abort();
  signal?.addEventListener('abort', forward);
  try {
    const questions = await fetchQuestions(formId, controller.signal).catch((error: unknown) => {
      if (controller.signal.aborted && !signal?.aborted) {
        throw new HubError('network', 'Der Server antwortet nicht.');
      }
      throw error;
    });
    await putDefinition(offlineDb(), {
      form_id: formId,
      questions,
      fetched_at: Date.now(),
    }).catch(() => undefined);
    return questions;
  } finally {
    clearTimeout(timeout);
    signal?.removeEventListener('abort', forward);
  }
}

/**
 * A questionnaire's questions: from the hub when it answers (and kept on the device), else the
 * copy on the device. With 'Offline simulieren' on, only the device copy, as in a real outage.
 */
export async function loadQuestions(formId: number, signal?: AbortSignal): Promise<Question[]> {
  if (readDeviceSetting('simulateOffline')) {
    const stored = await fromDevice(formId);
    if (stored) return stored;
    throw new HubError('network', notOnDevice);
  }
  try {
    return await fromNetwork(formId, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    const unreachable =
      error instanceof HubError && ['network', 'server', 'invalid-reply'].includes(error.kind);
    if (!unreachable) throw error;
    const stored = await fromDevice(formId);
    if (stored) return stored;
    throw new HubError('network', `${error.message} ${notOnDevice}`);
  }
}

/** Keeps both public questionnaires on the device, so they open offline after any online visit. */
export async function warmDefinitions(): Promise<void> {
  if (readDeviceSetting('simulateOffline')) return;
  await Promise.all(
    [TABALUGA_FORM_ID, PKV_FORM_ID].map((formId) => fromNetwork(formId).catch(() => undefined)),
  );
}
