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

  constructor(
    readonly statusCode: number,
    code: string,
    message: string,
    extra: { details?: string; hint?: string } = {},
  ) {
    super(message);
    this.name = 'PostgrestError';
    this.body = { code, message, details: extra.details ?? null, hint: extra.hint ?? null };
  }
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
  if (error instanceof PostgrestError) return reply.code(error.statusCode).send(error.body);
  if (
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
  ) {
    return reply.code(400).send(new PostgrestError(400, 'PGRST102', 'Empty or invalid json').body);
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
