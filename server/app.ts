import { tmpdir } from 'node:os';
import path from 'node:path';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { hubPrefix } from '../src/domain/routes.ts';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { goesBeforeAnonymous } from './gateway/concurrency.ts';
import { gatewayArea } from './gateway/gateway-area.ts';
import { createFileStore } from './gateway/storage/file-store.ts';
import { registerApiCompression } from './http/api-compression.ts';
import { appConfigRoute } from './app-config-route.ts';
import { createHubAuth } from './hub/auth.ts';
import { createFormsRepository } from './hub/forms-repository.ts';
import { hubArea } from './hub/hub-area.ts';
import { createReadiness, type JobStatuses } from './hub/readiness.ts';
import { createResponsesRepository } from './hub/responses-repository.ts';
import { createMailer } from './gateway/auth/mail.ts';
import { clientKey } from './http/client-key.ts';
import {
  createSharedCounters,
  processWindowCounts,
  sharedRateLimitStore,
} from './db/shared-counters.ts';
import { listeningOrigin } from './http/listening-origin.ts';
import { startLeadMailJob, type LeadMailJob } from './jobs/lead-mail-job.ts';
import { startRetentionJob, type RetentionJob } from './jobs/retention-job.ts';
import { startStaffMailJob, type StaffMailJob } from './jobs/staff-mail-job.ts';
import { loggerOptions, type LogOutput } from './logging.ts';
import { staticSite } from './site/static-site.ts';

export interface AppOptions {
  config: Pick<ServerConfig, 'jwtSecret' | 'hubService' | 'rateLimit' | 'staticDir' | 'logLevel'> &
    Partial<
      Pick<
        ServerConfig,
        | 'gateway'
        | 'dataDir'
        | 'smtpUrl'
        | 'publicUrl'
        | 'supabase'
        | 'authRateLimit'
        | 'trustProxy'
        | 'gatewayConcurrency'
      >
    >;
  db: Database;
  now?: () => Date;
  /**
   * JSON lines unless told otherwise. Tests pass false to keep their output clean, or a stream
   * to read what would be logged.
   */
  logger?: LogOutput;
  /**
   * The daily retention run (server/jobs/retention-job.ts), started when the app is ready and
   * stopped when it closes. Off unless asked for: server/main.ts turns it on, tests that test it.
   */
  retention?: { now?: () => Date; intervalMs?: number };
  /**
   * The new-lead mail worker (server/jobs/lead-mail-job.ts), started when the app is ready and
   * stopped when it closes; the hub kicks it after storing leads. Off unless asked for, as
   * retention: server/main.ts turns it on, tests that test it.
   */
  leadMail?: { now?: () => Date; pollMs?: number; delayMs?: number };
  /**
   * The mail to an account an admin enabled (server/jobs/staff-mail-job.ts), started when the app
   * is ready and stopped when it closes. Off unless asked for, as the new-lead mail.
   */
  staffMail?: { now?: () => Date; pollMs?: number };
}

/**
 * The server: plugins, then the database's repositories, then the areas. Each area is an
 * encapsulated plugin with its own error and not-found handler, so each answers in its own shape:
 * the hub under /api, the gateway under /auth/v1, /rest/v1 and /storage/v1, the static site for
 * everything else.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const now = options.now ?? (() => new Date());
  // Tests that build the app without a data folder get a throwaway one per process.
  const dataDir = config.dataDir ?? path.join(tmpdir(), `universa-gateway-${process.pid}`);
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logger ?? 'json'),
    bodyLimit: 64 * 1024,
    // A new UUID per request, not a counter: ids stay unique across restarts and instances.
    genReqId: () => crypto.randomUUID(),
    // TRUST_PROXY: only these proxies' X-Forwarded-For names the client (request.ip, clientKey);
    // without it the header is ignored. Links and origins never come from forwarded headers
    // (PUBLIC_URL or the listening address), whatever this says.
    trustProxy: config.trustProxy && config.trustProxy.length > 0 ? config.trustProxy : false,
  });

  // Plugins. Route schemas are zod schemas, the same ones the browser validates with.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The APIs speak JSON only: plain text would reach validation as a string and earn a
  // confusing 400 instead of a clear 415.
  app.removeContentTypeParser('text/plain');
  // Hosted mode: Survey Desk talks to the project's own origin, which 'self' does not cover.
  const supabaseOrigin =
    !config.gateway && config.supabase?.url ? new URL(config.supabase.url).origin : undefined;
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // A questionnaire's image may be any http(s) address staff enter in the editor (spec 5);
        // on an https page the browser upgrades or blocks an http one itself.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        connectSrc: ["'self'", ...(supabaseOrigin ? [supabaseOrigin] : [])],
        // blob: for the XLSX writer's zip library, which deflates large files in workers it
        // makes from blob: addresses; blocked, an export of more than a few hundred leads hangs.
        workerSrc: ["'self'", 'blob:'],
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
  // Limits apply per route (see the routes), per client (clientKey: behind a trusted proxy the
  // client it names); on PostgreSQL every instance counts in the same table, on PGlite (one
  // process) this process counts in memory (server/db/shared-counters.ts).
  const store = sharedRateLimitStore(
    db.kind === 'pglite' ? processWindowCounts() : createSharedCounters(db, config.jwtSecret),
    now,
  );
  // A counter the database cannot give (it is down) lets the request through to its handler, which
  // meets the same database and answers for itself (a malformed body still gets its 400).
  await app.register(rateLimit, {
    global: false,
    keyGenerator: clientKey,
    store,
    skipOnError: true,
  });
  // PGlite: from a lead's or the desk's arrival until its answer, no anonymous gateway work
  // starts (server/db/database.ts), so it waits at most for the one piece that is running.
  if (db.hold) {
    const hold = db.hold.bind(db);
    app.addHook('onRequest', (request, reply, done) => {
      if (goesBeforeAnonymous(request.url, request.headers.authorization)) {
        reply.raw.once('close', hold());
      }
      done();
    });
  }

  // The database and its repositories.
  const forms = createFormsRepository(db);
  const responses = createResponsesRepository(db);
  let leadMailJob: LeadMailJob | undefined;
  // Filled as the jobs start (onReady): /api/ready reports each of them.
  const jobs: JobStatuses = new Map();
  const readiness = createReadiness({ db, jobs });
  const auth = createHubAuth({
    secret: config.jwtSecret,
    db,
    service: config.hubService,
    supabase: config.gateway ? undefined : config.supabase,
  });

  // The areas. The APIs compress their answers on the fly in a scope of their own; the static
  // site sends the files the build compressed and must never compress them a second time.
  await app.register(async (apis) => {
    await registerApiCompression(apis);
    await apis.register(hubArea, {
      prefix: hubPrefix,
      db,
      auth,
      forms,
      responses,
      now,
      rateLimit: config.rateLimit,
      onLeadsStored: () => leadMailJob?.kick(),
      readiness,
    });
    if (config.gateway) {
      await apis.register(gatewayArea, {
        db,
        now,
        config: {
          jwtSecret: config.jwtSecret,
          dataDir,
          smtpUrl: config.smtpUrl,
          publicUrl: config.publicUrl,
          authRateLimit: config.authRateLimit,
          gatewayConcurrency: config.gatewayConcurrency,
        },
      });
    }
    await apis.register(appConfigRoute, {
      gateway: config.gateway ?? false,
      jwtSecret: config.jwtSecret,
      publicUrl: config.publicUrl,
      supabase: config.supabase ?? { url: undefined, anonKey: undefined },
    });
  });
  await app.register(staticSite, { staticDir: config.staticDir });

  if (options.retention) {
    const retention = options.retention;
    let job: RetentionJob | undefined;
    app.addHook('onReady', async () => {
      job = startRetentionJob({
        db,
        log: app.log,
        ...(retention.now ? { now: retention.now } : {}),
        ...(retention.intervalMs ? { intervalMs: retention.intervalMs } : {}),
        // Locally the gateway keeps the bodies in DATA_DIR; hosted Storage keeps its own and
        // removes them through its API with the service-role key.
        ...(config.gateway ? { files: createFileStore(dataDir) } : {}),
        ...(!config.gateway && config.supabase?.url && config.supabase.serviceRoleKey
          ? {
              storage: {
                url: config.supabase.url,
                serviceRoleKey: config.supabase.serviceRoleKey,
              },
            }
          : {}),
      });
      jobs.set('retention', job.status);
    });
    app.addHook('onClose', async () => {
      await job?.stop();
    });
  }
  const host = config.publicUrl ? new URL(config.publicUrl).hostname : 'localhost';
  const jobMailer = () =>
    createMailer({ smtpUrl: config.smtpUrl, dataDir, from: `Universa Leads <noreply@${host}>` });
  // Links in mails name the configured address; never a request's Host header.
  const mailBaseUrl = () => config.publicUrl ?? listeningOrigin(app.server.address());
  if (options.leadMail) {
    const leadMail = options.leadMail;
    app.addHook('onReady', async () => {
      leadMailJob = startLeadMailJob({
        db,
        log: app.log,
        mailer: jobMailer(),
        baseUrl: mailBaseUrl,
        ...(leadMail.now ? { now: leadMail.now } : {}),
        ...(leadMail.pollMs ? { pollMs: leadMail.pollMs } : {}),
        ...(leadMail.delayMs ? { delayMs: leadMail.delayMs } : {}),
      });
      jobs.set('lead-mail', leadMailJob.status);
    });
    app.addHook('onClose', async () => {
      await leadMailJob?.stop();
    });
  }
  if (options.staffMail) {
    const staffMail = options.staffMail;
    let job: StaffMailJob | undefined;
    app.addHook('onReady', async () => {
      job = startStaffMailJob({
        db,
        log: app.log,
        mailer: jobMailer(),
        baseUrl: mailBaseUrl,
        ...(staffMail.now ? { now: staffMail.now } : {}),
        ...(staffMail.pollMs ? { pollMs: staffMail.pollMs } : {}),
      });
      jobs.set('staff-mail', job.status);
    });
    app.addHook('onClose', async () => {
      await job?.stop();
    });
  }
  return app;
}
