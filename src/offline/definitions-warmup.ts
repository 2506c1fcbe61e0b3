import { hubBaseUrl } from '../api/hub-url.ts';
import { PKV_FORM_ID, TABALUGA_FORM_ID } from '../domain/form-ids.ts';
import {
  sameQuestionnaire,
  type Question,
  type QuestionnaireDefinition,
} from '../domain/questionnaire.ts';
import { formQuestionsPath } from '../domain/routes.ts';
import { readDeviceSetting } from './device-settings.ts';
import { keepDocumentOffline } from './document-cache.ts';
import { storeDefinition } from './offline-idb.ts';
import type { DefinitionRecord } from './offline-schema.ts';

// The public questionnaires kept on the device from the landing page, without the questionnaire
// code: no zod, no Dexie. definitions.ts reads the stored copy and validates it with the full
// schema when a questionnaire opens offline; here only the reply's shape is checked, so that a
// captive portal's page or an error body never replaces a good copy.

const NETWORK_TIMEOUT_MS = 5_000;

/** The reply's questions and document address (a bare list of questions is allowed too). */
function readReply(body: unknown): { data: unknown[]; documentUrl: unknown } | undefined {
  const reply = Array.isArray(body)
    ? { data: body, documentUrl: null }
    : typeof body === 'object' && body !== null
      ? {
          data: (body as { data?: unknown }).data,
          documentUrl: (body as { form?: { document_url?: unknown } | null }).form?.document_url,
        }
      : undefined;
  if (!reply || !Array.isArray(reply.data) || reply.data.length === 0) return undefined;
  const questions = reply.data.every(
    (q) =>
      typeof q === 'object' &&
      q !== null &&
      typeof (q as { id?: unknown }).id === 'number' &&
      typeof (q as { question?: unknown }).question === 'string',
  );
  return questions ? { data: reply.data, documentUrl: reply.documentUrl } : undefined;
}

/** One form's questions and document address from the hub; undefined when that failed. */
export async function fetchDefinition(
  formId: number,
  hubUrl: string = hubBaseUrl(),
): Promise<DefinitionRecord | undefined> {
  const response = await fetch(`${hubUrl}${formQuestionsPath(formId)}`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS),
  });
  if (!response.ok) return undefined;
  const reply = readReply(await response.json().catch(() => undefined));
  if (!reply) return undefined;
  const raw = reply.documentUrl;
  // As the questionnaire schema and fetchQuestionnaire do: a path or an http(s) address, and a
  // path is below the hub's address.
  const documentUrl =
    typeof raw === 'string' && /^(\/(?!\/)|https?:\/\/)/.test(raw)
      ? raw.startsWith('/')
        ? `${hubUrl}${raw}`
        : raw
      : null;
  return {
    form_id: formId,
    questions: reply.data,
    document_url: documentUrl,
    fetched_at: Date.now(),
  };
}

/** One form's questions and document from the hub onto the device; false when that failed. */
export async function warmDefinition(
  formId: number,
  hubUrl: string = hubBaseUrl(),
): Promise<boolean> {
  const definition = await fetchDefinition(formId, hubUrl);
  if (!definition) return false;
  await keepDefinition(definition);
  return true;
}

/** Keeps a definition the hub sent on the device, its document too. */
export async function keepDefinition(definition: DefinitionRecord): Promise<void> {
  await storeDefinition(definition);
  if (definition.document_url) {
    void keepDocumentOffline(definition.document_url).catch(() => undefined);
  }
}

/**
 * Keeps both public questionnaires on the device, so they open offline after any online visit.
 * Fetched at once (the connection may drop any moment), stored once `codeOffline` resolved: a
 * questionnaire counts as kept when its screen's code opens offline too.
 */
export async function warmDefinitionsLightly(
  codeOffline: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  if (readDeviceSetting('simulateOffline')) return;
  const definitions = await Promise.all(
    [TABALUGA_FORM_ID, PKV_FORM_ID].map((formId) => fetchDefinition(formId).catch(() => undefined)),
  );
  await codeOffline();
  await Promise.all(
    definitions.map((definition) =>
      definition ? keepDefinition(definition).catch(() => undefined) : null,
    ),
  );
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** The options as the schema reads them: a map keyed '1', '2', ... in key order, or a list. */
function lightOptions(options: unknown): string[] | undefined {
  if (options === null || options === undefined) return [];
  const values = Array.isArray(options)
    ? options
    : typeof options === 'object'
      ? Object.entries(options as Record<string, unknown>)
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([, value]) => value)
      : undefined;
  return values?.every(isString) ? values : undefined;
}

/** One question as questionnaire-schema.ts reads it, or undefined for anything unusual. */
function lightQuestion(raw: unknown): Question | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const q = raw as Record<string, unknown>;
  const options = lightOptions(q['options']);
  const { id, sequence, type, question } = q;
  if (typeof id !== 'number' || typeof sequence !== 'number') return undefined;
  if (!isString(type) || !isString(question) || !options) return undefined;
  const multipleAnswers = q['multipleAnswers'] ?? false;
  const information = q['information'] ?? '';
  const key = q['key'] ?? null;
  const required = q['required'] ?? true;
  const bucket = q['analysis_bucket'];
  if (typeof multipleAnswers !== 'boolean' || !isString(information)) return undefined;
  if ((key !== null && !isString(key)) || typeof required !== 'boolean') return undefined;
  return {
    id,
    sequence,
    type: type as Question['type'],
    question,
    options,
    multipleAnswers,
    information,
    key,
    required,
    analysis_bucket: isString(bucket) ? bucket : null,
  };
}

/**
 * Whether the hub's reply (as fetchDefinition keeps it) is the questionnaire `known` already
 * shows. Read without zod, only to compare: a page whose built questionnaire is current loads
 * neither the schema nor the device database for it. Whatever is shown is read by the schema
 * (definitions.ts); a reply this reading does not understand counts as different.
 */
export function showsSameQuestionnaire(
  record: DefinitionRecord,
  known: QuestionnaireDefinition,
): boolean {
  const questions = record.questions.map(lightQuestion);
  if (!questions.every((q): q is Question => q !== undefined)) return false;
  questions.sort((a, b) => a.sequence - b.sequence || a.id - b.id);
  return sameQuestionnaire(known, { questions, documentUrl: record.document_url ?? null });
}
