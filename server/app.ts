import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerStaticSite } from './http/static-site.ts';
import { createHubAuth } from './hub/auth.ts';
import { registerFormRoutes } from './hub/forms-routes.ts';
import { registerLoginRoutes } from './hub/login-routes.ts';
import { registerResponseRoutes } from './hub/responses-routes.ts';

export interface AppOptions {
  config: Pick<ServerConfig, 'jwtSecret' | 'hubService' | 'rateLimit' | 'staticDir' | 'logLevel'>;
  db: Database;
  now?: () => Date;
  /** Tests pass false to keep their output clean, or a stream to read what would be logged. */
  logger?: boolean | { stream: NodeJS.WritableStream };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const now = options.now ?? (() => new Date());
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(typeof options.logger === 'object' ? { stream: options.logger.stream } : {}),
            // Request logs carry method, path and status only: no IP address, no query string
            // and no body, because those can identify a visitor.
            serializers: {
              req: (req) => ({ method: req.method, url: req.url.split('?')[0] }),
              res: (res) => ({ statusCode: res.statusCode }),
            },
          },
    bodyLimit: 64 * 1024,
    // A new UUID per request, not a counter: ids stay unique across restarts and instances.
    genReqId: () => crypto.randomUUID(),
  });

  registerErrorHandler(app);
  // The API speaks JSON only: plain text would reach validation as a string and earn a
  // confusing 400 instead of a clear 415.
  app.removeContentTypeParser('text/plain');
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // PDFs and the app are opened from other pages (links in mails): same-origin only would
    // block those downloads.
    crossOriginResourcePolicy: { policy: 'same-site' },
    hsts: false,
  });
  // Limits apply per route (see the routes); the store is in memory, per instance.
  await app.register(rateLimit, { global: false });

  const auth = createHubAuth({ secret: config.jwtSecret, db, service: config.hubService });

  app.get('/api/health', async () => {
    await db.query('select 1');
    return { status: 'ok' };
  });
  registerLoginRoutes(app, auth);
  registerFormRoutes(app, db);
  registerResponseRoutes(app, { db, auth, now, rateLimit: config.rateLimit });
  await registerStaticSite(app, config.staticDir);
  return app;
}
