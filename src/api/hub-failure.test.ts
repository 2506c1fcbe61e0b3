import { describe, expect, it } from 'vitest';
import { fetchQuestionnaire } from './get-questions.ts';
import { HubError, type HubConnection } from './hub-client.ts';
import type { HubFailure } from './hub-failure.ts';
import { postBatch } from './post-batch.ts';

const hubUrl = 'https://hub.example';
const timeoutMs = 50;

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function html(text: string, status: number): Response {
  return new Response(`<html><body>${text}</body></html>`, {
    status,
    headers: { 'content-type': 'text/html' },
  });
}

const hubError = (code: string, message: string, status: number) =>
  json({ error: { code, message } }, status);

/** Each way a hub call can fail, and what every call makes of it. */
const cases: { name: string; reply: () => Response | Promise<Response>; failure: HubFailure }[] = [
  {
    name: 'no connection',
    reply: () => Promise.reject(new TypeError('Failed to fetch')),
    failure: { kind: 'network', code: 'network_error', message: 'Keine Verbindung zum Server.' },
  },
  {
    name: 'no answer in time',
    reply: () => new Promise<Response>(() => {}),
    failure: {
      kind: 'timeout',
      code: 'timeout',
      message: 'Der Server hat nicht rechtzeitig geantwortet.',
    },
  },
  {
    name: 'a body that never finishes',
    reply: () => new Response(new ReadableStream({ start() {} }), { status: 200 }),
    failure: {
      kind: 'timeout',
      code: 'timeout',
      message: 'Der Server hat nicht rechtzeitig geantwortet.',
    },
  },
  {
    name: "400 with the hub's error",
    reply: () => hubError('validation_failed', 'Höchstens 50 Einsendungen.', 400),
    failure: {
      kind: 'refused',
      code: 'validation_failed',
      message: 'Höchstens 50 Einsendungen.',
      status: 400,
    },
  },
  {
    name: '400 from a proxy',
    reply: () => html('Bad Request', 400),
    failure: {
      kind: 'refused',
      code: 'bad_request',
      message: 'Der Server hat die Anfrage als ungültig abgelehnt.',
      status: 400,
    },
  },
  {
    name: '413 from a proxy',
    reply: () => html('413 Request Entity Too Large', 413),
    failure: {
      kind: 'refused',
      code: 'payload_too_large',
      message: 'Die Anfrage ist für den Server zu groß.',
      status: 413,
    },
  },
  {
    name: '415 without a body',
    reply: () => new Response('', { status: 415 }),
    failure: {
      kind: 'refused',
      code: 'unsupported_media_type',
      message: 'Der Server hat das Format abgelehnt.',
      status: 415,
    },
  },
  {
    name: "404 with the hub's error",
    reply: () => hubError('unknown_form', 'Fragebogen 999 gibt es nicht.', 404),
    failure: {
      kind: 'not-found',
      code: 'unknown_form',
      message: 'Fragebogen 999 gibt es nicht.',
      status: 404,
    },
  },
  {
    name: '404 from a proxy',
    reply: () => html('Not Found', 404),
    failure: {
      kind: 'not-found',
      code: 'not_found',
      message: 'Diese Adresse gibt es beim Server nicht.',
      status: 404,
    },
  },
  {
    name: "409 with the hub's error",
    reply: () => hubError('conflict', 'Unter dieser client_id gibt es schon etwas.', 409),
    failure: {
      kind: 'conflict',
      code: 'conflict',
      message: 'Unter dieser client_id gibt es schon etwas.',
      status: 409,
    },
  },
  {
    name: '409 without a body',
    reply: () => new Response('', { status: 409 }),
    failure: {
      kind: 'conflict',
      code: 'conflict',
      message: 'Die Anfrage widerspricht dem, was der Server schon gespeichert hat.',
      status: 409,
    },
  },
  {
    name: '429, whatever the hub says',
    reply: () => hubError('rate_limited', 'Zu viele Anfragen.', 429),
    failure: {
      kind: 'busy',
      code: 'rate_limited',
      message: 'Der Server ist gerade ausgelastet.',
      status: 429,
    },
  },
  ...[500, 502, 503].map((status) => ({
    name: `${status}`,
    reply: () => hubError('internal', 'Interner Fehler', status),
    failure: {
      kind: 'server' as const,
      code: 'server_error',
      message: 'Der Server ist gerade nicht erreichbar.',
      status,
    },
  })),
  {
    name: "a captive portal's page with 200",
    reply: () => html('Bitte im WLAN anmelden', 200),
    failure: {
      kind: 'foreign',
      code: 'foreign_reply',
      message: 'Die Antwort kam nicht vom Server (etwa von einer WLAN-Anmeldeseite).',
    },
  },
  {
    name: 'JSON of another shape with 200',
    reply: () => json({ ok: true }, 200),
    failure: {
      kind: 'foreign',
      code: 'foreign_reply',
      message: 'Die Antwort kam nicht vom Server (etwa von einer WLAN-Anmeldeseite).',
    },
  },
  {
    name: "a proxy's 403",
    reply: () => html('Forbidden', 403),
    failure: {
      kind: 'unexpected',
      code: 'unexpected_status',
      message: 'Der Server hat unerwartet geantwortet.',
      status: 403,
    },
  },
  {
    name: "401 with the hub's error",
    reply: () => hubError('unauthorized', 'Anmeldung erforderlich.', 401),
    failure: {
      kind: 'unexpected',
      code: 'unauthorized',
      message: 'Anmeldung erforderlich.',
      status: 401,
    },
  },
];

function hubAnswering(reply: () => Response | Promise<Response>): HubConnection {
  return { fetch: () => Promise.resolve().then(reply), hubUrl };
}

describe('one judgement of hub failures, for every call', () => {
  it.each(cases)('$name: the questions fetch', async ({ reply, failure }) => {
    const error = await fetchQuestionnaire(hubAnswering(reply), 1, { timeoutMs }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HubError);
    expect((error as HubError).failure).toEqual(failure);
    expect((error as HubError).message).toBe(failure.message);
  });

  it.each(cases)('$name: the batch send', async ({ reply, failure }) => {
    const result = await postBatch(hubAnswering(reply), [{ client_id: 'a' }], timeoutMs);
    expect(result).toEqual({ ok: false, failure });
  });
});
