import { apiErrorReplySchema, type ApiErrorBody } from '../domain/submission.ts';

/**
 * What a failed hub call means, the same for every call. Callers decide what to do about it
 * (the outbox retries or rejects, a screen shows the message); this module only says what it was.
 */
export type HubFailureKind =
  /** No answer at all: offline, DNS, connection refused. */
  | 'network'
  /** No complete answer in time. */
  | 'timeout'
  /** 400, 413, 415: the request as a whole was refused; sending it again changes nothing. */
  | 'refused'
  | 'not-found'
  | 'conflict'
  /** 429. */
  | 'busy'
  /** 5xx. */
  | 'server'
  /** A success status without the hub's JSON: a captive portal's page, a proxy, a stale cache. */
  | 'foreign'
  /** Any other status (a proxy's 403, a 401 on a public call). */
  | 'unexpected';

export interface HubFailure {
  kind: HubFailureKind;
  /** Stable, for programs: the hub's code when it sent one, else ours. */
  code: string;
  /** German, for people. */
  message: string;
  status?: number;
}

/** The one set of German messages for failed hub calls. */
const failures: Record<HubFailureKind, { code: string; message: string }> = {
  network: { code: 'network_error', message: 'Keine Verbindung zum Server.' },
  timeout: { code: 'timeout', message: 'Der Server hat nicht rechtzeitig geantwortet.' },
  refused: {
    code: 'bad_request',
    message: 'Der Server hat die Anfrage als ungültig abgelehnt.',
  },
  'not-found': { code: 'not_found', message: 'Diese Adresse gibt es beim Server nicht.' },
  conflict: {
    code: 'conflict',
    message: 'Die Anfrage widerspricht dem, was der Server schon gespeichert hat.',
  },
  busy: { code: 'rate_limited', message: 'Der Server ist gerade ausgelastet.' },
  server: { code: 'server_error', message: 'Der Server ist gerade nicht erreichbar.' },
  foreign: {
    code: 'foreign_reply',
    message: 'Die Antwort kam nicht vom Server (etwa von einer WLAN-Anmeldeseite).',
  },
  unexpected: { code: 'unexpected_status', message: 'Der Server hat unerwartet geantwortet.' },
};

// Proxies answer 413 and 415 with pages of their own; the hub's JSON, when present, wins.
const refusedByStatus: Record<number, { code: string; message: string }> = {
  400: failures.refused,
  413: { code: 'payload_too_large', message: 'Die Anfrage ist für den Server zu groß.' },
  415: { code: 'unsupported_media_type', message: 'Der Server hat das Format abgelehnt.' },
};

/**
 * Failures after which the hub may well answer if asked again later: it was not reached, or
 * could not answer now. A device copy or a later retry is the right response to these.
 */
export const transientFailureKinds: ReadonlySet<HubFailureKind> = new Set([
  'network',
  'timeout',
  'busy',
  'server',
  'foreign',
]);

export function hubFailure(kind: HubFailureKind, status?: number): HubFailure {
  return { kind, ...failures[kind], ...(status === undefined ? {} : { status }) };
}

/** A reply whose status is not 2xx, judged by its status and, where it has one, the hub's body. */
export function failureFromStatus(status: number, body: unknown): HubFailure {
  const kind = kindOfStatus(status);
  const own = kind === 'refused' ? (refusedByStatus[status] ?? failures.refused) : failures[kind];
  const hubError = hubErrorOf(body);
  // The hub's words describe the request's own problem best. For an overload or an outage they
  // add nothing, and a proxy's 5xx never carries them anyway: ours reads the same every time.
  const useHubWords = hubError !== undefined && !transientFailureKinds.has(kind);
  return {
    kind,
    code: useHubWords ? hubError.code : own.code,
    message: useHubWords ? hubError.message : own.message,
    status,
  };
}

function kindOfStatus(status: number): HubFailureKind {
  if (status in refusedByStatus) return 'refused';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'busy';
  if (status >= 500) return 'server';
  return 'unexpected';
}

function hubErrorOf(body: unknown): ApiErrorBody | undefined {
  const parsed = apiErrorReplySchema.safeParse(body);
  return parsed.success ? parsed.data.error : undefined;
}
