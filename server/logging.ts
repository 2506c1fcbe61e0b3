import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';
import { stdSerializers } from 'pino';

/** Where log lines go: nowhere or a stream (tests), a terminal, or JSON on stdout. */
export type LogOutput = false | { stream: NodeJS.WritableStream } | 'terminal' | 'json';

/** The logger's options: the same fields whatever the output, so no output can carry more. */
export function loggerOptions(level: string, output: LogOutput): FastifyServerOptions['logger'] {
  if (output === false) return false;
  return {
    level,
    // Request logs carry method, path and status only: no IP address, no query string
    // and no body, because those can identify a visitor.
    serializers: {
      req: (req) => ({ method: req.method, url: req.url.split('?')[0] }),
      res: (res) => ({ statusCode: res.statusCode }),
      err: loggedError,
    },
    ...(output === 'terminal' ? { stream: readableLines() } : {}),
    ...(typeof output === 'object' ? { stream: output.stream } : {}),
  };
}

/** A person reading along (`npm start` in a terminal) gets one readable line per entry. */
function readableLines(): NodeJS.WritableStream {
  // In this process, not in a worker thread: nothing is lost when the server exits.
  return pretty({
    translateTime: 'SYS:HH:MM:ss',
    // One line per entry: "10:15:02 INFO: incoming request GET /api/forms", then
    // "10:15:02 INFO: request completed 200".
    messageFormat:
      '{msg}{if req.method} {req.method} {req.url}{end}{if res.statusCode} {res.statusCode}{end}',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    singleLine: true,
    sync: true,
  });
}

/**
 * An error as the log may keep it. A database error carries the statement's parameters and a
 * detail or message that quotes values (`Key (email)=(...)`, `invalid input syntax for type uuid:
 * "..."`): those can be a visitor's address or a password hash, so only its SQLSTATE and where
 * PostgreSQL raised it are kept. Other errors are bugs of ours and keep message and stack.
 */
export function loggedError(error: unknown): LoggedError {
  if (isDatabaseError(error)) {
    return {
      type: error.constructor.name,
      message: `database error ${error.code}`,
      // The frames only: the stack's first line repeats the message.
      stack: (error.stack ?? '').split('\n').slice(1).join('\n'),
      code: error.code,
      routine: error.routine,
    };
  }
  return stdSerializers.err(error as Error);
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

function isDatabaseError(error: unknown): error is Error & { code: string; routine?: string } {
  if (!(error instanceof Error)) return false;
  const code: unknown = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    ('severity' in error || 'routine' in error || 'query' in error)
  );
}
