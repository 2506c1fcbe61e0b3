import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '../../src/domain/submission.ts';

/** An error for the hub's caller: its status, a stable code for programs, a German message. */
export class HubError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'HubError';
  }
}

export function errorBody(
  code: string,
  message: string,
  details?: unknown,
): { error: ApiErrorBody } {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function sendHubError(reply: FastifyReply, error: HubError): FastifyReply {
  return reply.code(error.statusCode).send(errorBody(error.code, error.message, error.details));
}

export interface FieldIssue {
  path: string;
  message: string;
}

/** A 400 naming each field's problem, in the words of the zod schema that found it. */
export function validationFailed(issues: FieldIssue[]): HubError {
  return new HubError(
    400,
    'validation_failed',
    'Die Angaben sind unvollständig oder ungültig.',
    issues,
  );
}

export function sendHubNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send(errorBody('not_found', 'Diese Adresse gibt es nicht.'));
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

export function hubErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof HubError) return sendHubError(reply, error);
  if (hasZodFastifySchemaValidationErrors(error)) {
    // The type provider reports each zod issue with its path as a JSON pointer ('/answers/0').
    const issues = error.validation.map((issue) => ({
      path: issue.instancePath.slice(1).replaceAll('/', '.'),
      message: issue.message ?? '',
    }));
    return sendHubError(reply, validationFailed(issues));
  }
  const known = error.code ? fastifyClientErrors[error.code] : undefined;
  if (known) return reply.code(error.statusCode ?? 400).send(errorBody(known.code, known.message));
  if (error.statusCode === 429) {
    return reply
      .code(429)
      .send(
        errorBody('rate_limited', 'Zu viele Anfragen. Bitte versuchen Sie es gleich noch einmal.'),
      );
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return reply.code(error.statusCode).send(errorBody('bad_request', 'Die Anfrage ist ungültig.'));
  }
  // Only the error itself is logged, never the request body: it holds personal data.
  request.log.error({ err: error }, 'unhandled error');
  return reply
    .code(500)
    .send(errorBody('internal_error', 'Interner Fehler. Bitte versuchen Sie es später erneut.'));
}
