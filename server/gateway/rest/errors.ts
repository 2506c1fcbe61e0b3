import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** PostgREST's error body: every field present, null where PostgREST has nothing to say. */
export interface PostgrestErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

/** A refusal in PostgREST's words; the REST area's error handler sends it as is. */
export class PostgrestError extends Error {
  readonly body: PostgrestErrorBody;
  /** Response headers that go with the refusal (`WWW-Authenticate` for a bad token). */
  readonly headers: Record<string, string>;

  constructor(
    readonly statusCode: number,
    code: string,
    message: string,
    extra: { details?: string; hint?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'PostgrestError';
    this.body = { code, message, details: extra.details ?? null, hint: extra.hint ?? null };
    this.headers = extra.headers ?? {};
  }
}

/** Asked for one object (`.single()`), the result had another number of rows. */
export function notSingle(rows: number): PostgrestError {
  return new PostgrestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', {
    details: `The result contains ${rows} rows`,
  });
}

/**
 * What PostgREST answers for an address it has nothing at, below `/rest/v1`: a table it does
 * not know (PGRST205), a function it does not know (PGRST202), any other path (PGRST125).
 * Schema `public`, the only one the gateway exposes.
 */
export function restNotFound(pathBelowPrefix: string): PostgrestError {
  const segments = pathBelowPrefix.split('/').filter(Boolean).map(decodeSegment);
  if (segments.length === 1) {
    return new PostgrestError(
      404,
      'PGRST205',
      `Could not find the table 'public.${segments[0]}' in the schema cache`,
    );
  }
  if (segments.length === 2 && segments[0] === 'rpc') {
    return new PostgrestError(
      404,
      'PGRST202',
      `Could not find the function public.${segments[1]} without parameters in the schema cache`,
      {
        details: `Searched for the function public.${segments[1]} without parameters, but no matches were found in the schema cache.`,
      },
    );
  }
  return new PostgrestError(404, 'PGRST125', 'Invalid path specified in request URL');
}

export function restErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof PostgrestError) {
    return reply.code(error.statusCode).headers(error.headers).send(error.body);
  }
  if (
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
  ) {
    return reply.code(400).send(new PostgrestError(400, 'PGRST102', 'Empty or invalid json').body);
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const type = request.headers['content-type'] ?? '';
    const body = new PostgrestError(415, 'PGRST107', `Content-Type not acceptable: ${type}`).body;
    return reply.code(415).send(body);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const body: PostgrestErrorBody = {
      code: error.code,
      message: error.message,
      details: null,
      hint: null,
    };
    return reply.code(error.statusCode).send(body);
  }
  // Only the error itself is logged, never the request body: it may hold personal data.
  request.log.error({ err: error }, 'unhandled error');
  // XX000 is PostgreSQL's internal_error, which PostgREST passes on with status 500.
  return reply.code(500).send(new PostgrestError(500, 'XX000', 'Internal server error').body);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A refusal from PostgreSQL itself (it carries a SQLSTATE and a severity). */
export function isDatabaseError(
  error: unknown,
): error is Error & { code: string; detail?: string; hint?: string } {
  return (
    error instanceof Error &&
    typeof (error as { code?: unknown }).code === 'string' &&
    'severity' in error
  );
}

/**
 * PostgREST's status for a SQLSTATE: a refused privilege is 401 for anon (who may sign in) and
 * 403 for anyone else; conflicts are 409; everything a request can provoke otherwise is 400.
 */
export function fromDatabaseError(
  error: Error & { code: string; detail?: string; hint?: string },
  role: string,
): PostgrestError {
  const { code } = error;
  let status = 400;
  if (code === '42501') status = role === 'anon' ? 401 : 403;
  else if (code === '23505' || code === '23503') status = 409;
  else if (code === '42883' || code === '42P01') status = 404;
  else if (code === '25006') status = 405;
  else if (code.startsWith('08') || code.startsWith('53') || code === '57P01') status = 503;
  // A statement cancelled by statement_timeout (57014), as PostgREST answers it.
  else if (code.startsWith('57')) status = 500;
  else if (code.startsWith('XX')) status = 500;
  const extra: { details?: string; hint?: string } = {};
  if (error.detail) extra.details = error.detail;
  if (error.hint) extra.hint = error.hint;
  return new PostgrestError(status, code, error.message, extra);
}
