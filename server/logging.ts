import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';

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
