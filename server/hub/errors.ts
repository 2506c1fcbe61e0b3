import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { ApiErrorBody } from '../../src/domain/submission.ts';

/** An error meant for the caller: its status, a stable code for programs, a German message. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function errorBody(
  code: string,
  message: string,
  details?: unknown,
): { error: ApiErrorBody } {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply.code(error.statusCode).send(errorBody(error.code, error.message, error.details));
}

// Fastify's own client errors, in German and in the hub's error shape.
const fastifyClientErrors: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'invalid_json',
    message: 'Der Inhalt ist kein gültiges JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'Der Inhalt ist leer.' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    message: 'Die Anfrage ist zu groß.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Bitte JSON senden (Content-Type: application/json).',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_content_length',
    message: 'Die Länge der Anfrage stimmt nicht.',
  },
};

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error);
    const known = error.code ? fastifyClientErrors[error.code] : undefined;
    if (known)
      return reply.code(error.statusCode ?? 400).send(errorBody(known.code, known.message));
    if (error.statusCode === 429) {
      return reply
        .code(429)
        .send(
          errorBody(
            'rate_limited',
            'Zu viele Anfragen. Bitte versuchen Sie es gleich noch einmal.',
          ),
        );
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .code(error.statusCode)
        .send(errorBody('bad_request', 'Die Anfrage ist ungültig.'));
    }
    // Only the error itself is logged, never the request body: it holds personal data.
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send(errorBody('internal_error', 'Interner Fehler. Bitte versuchen Sie es später erneut.'));
  });
}
