import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** A Storage error: the real status travels in the body, as a string, beside a code and a kind. */
export class StorageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly error: string,
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

/** The errors the routes raise, with Storage's codes, kinds and messages. */
export const storageErrors = {
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'not_found', 'Object not found'),
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  keyAlreadyExists: () =>
    new StorageError(409, 'KeyAlreadyExists', 'Duplicate', 'The resource already exists'),
  accessDenied: (message: string) => new StorageError(403, 'AccessDenied', 'Unauthorized', message),
  entityTooLarge: () =>
    new StorageError(
      413,
      'EntityTooLarge',
      'Payload too large',
      'The object exceeded the maximum allowed size',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError(
      415,
      'InvalidMimeType',
      'invalid_mime_type',
      `mime type ${mimeType} is not supported`,
    ),
  invalidJwt: (message: string) => new StorageError(400, 'InvalidJWT', 'InvalidJWT', message),
  invalidSignature: (message = 'Invalid signature') =>
    new StorageError(400, 'InvalidSignature', 'InvalidSignature', message),
  invalidRequest: (message: string) =>
    new StorageError(400, 'InvalidRequest', 'InvalidRequest', message),
};

/**
 * Sends a Storage error the way Storage does: every status below 500 goes out as HTTP 400, the
 * real one in `statusCode` (`{statusCode: "404", code: "NoSuchKey", error: "not_found", ...}`).
 */
export function sendStorageError(reply: FastifyReply, error: StorageError): FastifyReply {
  return reply.code(error.statusCode >= 500 ? error.statusCode : 400).send({
    statusCode: String(error.statusCode),
    code: error.code,
    error: error.error,
    message: error.message,
  });
}

/**
 * Storage runs on Fastify, so an unknown path gets Fastify's own 404 body, naming the path as
 * Storage sees it (below the prefix).
 */
export function storageNotFound(method: string, pathBelowPrefix: string) {
  return {
    statusCode: 404,
    error: 'Not Found',
    message: `Route ${method}:${pathBelowPrefix} not found`,
  } as const;
}

export function storageErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof StorageError) return sendStorageError(reply, error);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return sendStorageError(reply, storageErrors.entityTooLarge());
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return sendStorageError(
      reply,
      new StorageError(415, 'InvalidMimeType', 'invalid_mime_type', 'Invalid Content-Type header'),
    );
  }
  if (isDataException(error)) {
    // A value the database cannot take as its type is the request's doing, not the server's:
    // a token signed with the secret whose `sub` is no UUID fails in the policies' auth.uid().
    return sendStorageError(reply, storageErrors.invalidRequest(error.message));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Storage passes Fastify's own client errors on with their status.
    return reply.code(error.statusCode).send({
      statusCode: String(error.statusCode),
      code: 'InvalidRequest',
      error: error.name,
      message: error.message,
    });
  }
  // Only the error itself is logged, never the request body; a file system error only by its
  // code, as its message names the file and object names may name customers.
  const fileError = (error as NodeJS.ErrnoException).syscall !== undefined;
  request.log.error(
    fileError
      ? { code: error.code, syscall: (error as NodeJS.ErrnoException).syscall }
      : { err: error },
    'unhandled error',
  );
  return sendStorageError(
    reply,
    new StorageError(500, 'InternalError', 'Internal', 'Internal Server Error'),
  );
}

/** PostgreSQL's class 22 (data exception): invalid text for a type, a value out of range. */
function isDataException(error: FastifyError): boolean {
  return 'severity' in error && typeof error.code === 'string' && error.code.startsWith('22');
}
