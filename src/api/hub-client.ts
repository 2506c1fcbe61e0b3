import { questionListSchema, type Question } from '../domain/questionnaire.ts';
import type { ApiErrorBody } from '../domain/submission.ts';
import { appConfig } from '../config/env.ts';

/** Why a hub call failed, so screens can say the right thing and decide about retrying. */
export type HubErrorKind = 'network' | 'server' | 'rejected' | 'not-found' | 'invalid-reply';

export class HubError extends Error {
  constructor(
    readonly kind: HubErrorKind,
    message: string,
    readonly status?: number,
    readonly body?: ApiErrorBody,
  ) {
    super(message);
    this.name = 'HubError';
  }
}

const messages: Record<HubErrorKind, string> = {
  network: 'Keine Verbindung zum Server. Bitte prüfen Sie Ihre Internetverbindung.',
  server: 'Der Server ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
  rejected: 'Die Angaben wurden nicht angenommen.',
  'not-found': 'Diesen Fragebogen gibt es nicht.',
  'invalid-reply': 'Der Server hat unerwartet geantwortet. Bitte versuchen Sie es erneut.',
};

async function request(path: string, init: RequestInit = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${appConfig.hubUrl}${path}`, {
      ...init,
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new HubError('network', messages.network);
  }
  const body: unknown = await response.json().catch(() => undefined);
  const apiError = (body as { error?: ApiErrorBody } | undefined)?.error;
  if (response.status === 404) {
    throw new HubError('not-found', apiError?.message ?? messages['not-found'], 404, apiError);
  }
  if (response.status >= 500 || response.status === 429) {
    throw new HubError('server', messages.server, response.status, apiError);
  }
  if (!response.ok) {
    throw new HubError(
      'rejected',
      apiError?.message ?? messages.rejected,
      response.status,
      apiError,
    );
  }
  // A captive portal answers 200 with its own page: that is no answer from the hub.
  if (body === undefined) throw new HubError('invalid-reply', messages['invalid-reply']);
  return body;
}

export async function fetchQuestions(formId: number, signal?: AbortSignal): Promise<Question[]> {
  const body = await request(`/api/forms/${formId}/questions`, { signal: signal ?? null });
  const parsed = questionListSchema.safeParse(body);
  if (!parsed.success) throw new HubError('invalid-reply', messages['invalid-reply']);
  return parsed.data;
}
