import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** GoTrue's own error: its HTTP status, an `error_code` programs match on, and a message. */
export class GotrueError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
    /** Fields GoTrue adds to a few errors, e.g. `weak_password: {reasons}`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'GotrueError';
  }
}

const apiVersionHeader = 'x-supabase-api-version';
const apiVersion20240101 = '2024-01-01';

/**
 * Sends a GoTrue error in the shape the caller asked for. supabase-js sends
 * `X-Supabase-Api-Version: 2024-01-01` and then reads `{code, message}`, but only when the header
 * comes back; older clients read the legacy `{code: <status>, error_code, msg}`.
 */
export function sendGotrueError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: GotrueError,
): FastifyReply {
  reply.code(error.statusCode);
  reply.header('x-sb-error-code', error.errorCode);
  if (asksForVersion20240101(request.headers[apiVersionHeader])) {
    reply.header('X-Supabase-Api-Version', apiVersion20240101);
    return reply.send({ code: error.errorCode, message: error.message, ...error.extra });
  }
  return reply.send({
    code: error.statusCode,
    error_code: error.errorCode,
    msg: error.message,
    ...error.extra,
  });
}

function asksForVersion20240101(value: string | string[] | undefined): boolean {
  const text = Array.isArray(value) ? value[0] : value;
  // GoTrue takes any valid date from 2024-01-01 on as that version; anything else as the first.
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text))) return false;
  return text >= apiVersion20240101;
}

/**
 * GoTrue itself answers an unknown path with its router's plain-text 404; the gateway answers in
 * GoTrue's JSON error shape instead, so supabase-js reads it like any other auth error.
 */
export function authNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendGotrueError(request, reply, new GotrueError(404, 'not_found', 'Not found'));
}

export function authErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof GotrueError) return sendGotrueError(request, reply, error);
  if (
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
  ) {
    return sendGotrueError(
      request,
      reply,
      new GotrueError(400, 'bad_json', 'Could not parse request body as JSON'),
    );
  }
  if (isDataException(error)) {
    // Text the database cannot take (a NUL character in an address or token) is the request's
    // fault, not the server's; the database's message would quote the value, so it stays out.
    return sendGotrueError(
      request,
      reply,
      new GotrueError(400, 'validation_failed', 'Unable to process request: invalid input'),
    );
  }
  if (error.statusCode === 429) {
    return sendGotrueError(
      request,
      reply,
      new GotrueError(429, 'over_request_rate_limit', 'Request rate limit reached'),
    );
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return sendGotrueError(
      request,
      reply,
      new GotrueError(error.statusCode, 'validation_failed', error.message),
    );
  }
  // Only the error itself is logged, never the request body: it holds passwords.
  request.log.error({ err: error }, 'unhandled error');
  return sendGotrueError(
    request,
    reply,
    new GotrueError(
      500,
      'unexpected_failure',
      'Unexpected failure, please check server logs for more information',
    ),
  );
}

/** PostgreSQL's class 22 (data exception): invalid text for a type, a value out of range. */
function isDataException(error: FastifyError): boolean {
  return 'severity' in error && typeof error.code === 'string' && error.code.startsWith('22');
}
