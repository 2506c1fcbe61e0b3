import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './http/client-key.ts';
import type { GatewayConcurrency } from './gateway/concurrency.ts';

// The one place that reads process.env: parsed once at start, and a bad value stops the
// server with a message naming the variable instead of surfacing later as a strange error.
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET muss mindestens 32 Zeichen lang sein').optional(),
  ADMIN_EMAIL: z.string().email().default('admin@example.de'),
  ADMIN_PASSWORD: z.string().min(10, 'ADMIN_PASSWORD braucht mindestens 10 Zeichen').optional(),
  HUB_SERVICE_EMAIL: z.string().email().optional(),
  HUB_SERVICE_PASSWORD: z.string().min(12).optional(),
  SMTP_URL: z.string().url().optional(),
  GATEWAY: z.enum(['on', 'off']).default('on'),
  PUBLIC_URL: z.string().url().optional(),
  // Hosted mode (GATEWAY=off): the project's API address and public key for the browser, and
  // its legacy JWT secret when staff tokens are still HS256 (else the project's JWKS decides).
  SUPABASE_URL: z.url({ protocol: /^https?$/, error: 'muss eine http(s)-Adresse sein' }).optional(),
  SUPABASE_ANON_KEY: z.string().trim().min(1).optional(),
  SUPABASE_JWT_SECRET: z
    .string()
    .min(32, 'SUPABASE_JWT_SECRET muss mindestens 32 Zeichen lang sein')
    .optional(),
  RATE_LIMIT_SUBMISSIONS_PER_MINUTE: z.coerce.number().int().positive().default(300),
  RATE_LIMIT_BATCHES_PER_MINUTE: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_LEAD_READS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  // The reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client; unset:
  // none, the connection's address is the client.
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const parsed = parseTrustProxy(value);
      if ('error' in parsed) {
        context.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.value;
    }),
  AUTH_RATE_LIMIT_SIGNINS_PER_MINUTE: z.coerce.number().int().positive().default(30),
  AUTH_SIGNIN_FAILURES_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(10),
  // Gateway requests at once (server/gateway/concurrency.ts): in all, the part only signed-in
  // callers may take, per client, and how long a request waits for a place before a 503.
  GATEWAY_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(8),
  GATEWAY_STAFF_SHARE: z.coerce.number().int().min(0).max(999).default(4),
  GATEWAY_MAX_PER_CLIENT: z.coerce.number().int().min(1).max(1000).default(2),
  GATEWAY_QUEUE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  // Seconds a new lead waits before its mail goes out (0: at once). Tests set it to kill the
  // server between a lead and its mail.
  LEAD_MAIL_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(0),
  // Backups of the embedded database (docs/backup.md): the folder of `npm run backup` and of the
  // daily backup (unset: no daily backup; `npm run backup` writes to ./backups), and how many of
  // the daily ones stay.
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  // Hosted mode: the project's service-role key, with which the retention job removes documents
  // through the Storage API.
  SUPABASE_SERVICE_ROLE_KEY: z.string().trim().min(1).optional(),
  // Seconds a SIGTERM gives requests in flight and the mail being sent before the process ends
  // anyway (exit code 1); below the service manager's own stop timeout (systemd: 90 s).
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(3600).default(20),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STATIC_DIR: z.string().min(1).default('./dist'),
});

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  admin: { email: string; password: string | undefined };
  hubService: { email: string; password: string } | undefined;
  smtpUrl: string | undefined;
  gateway: boolean;
  publicUrl: string | undefined;
  supabase: SupabaseProject;
  rateLimit: HubRateLimit;
  /**
   * The proxies whose `X-Forwarded-For` names the client (TRUST_PROXY), as Fastify's `trustProxy`
   * takes them; undefined: none. Every per-client limit keys on that client (clientKey).
   */
  trustProxy: TrustProxy | undefined;
  /** Sign-in attempts at the gateway per client address, and per e-mail address, and minute. */
  authRateLimit: AuthRateLimit;
  /** How many gateway requests run at once, and how long one waits for a place. */
  gatewayConcurrency: GatewayConcurrency;
  /** How long a new lead's mail waits in the queue before the worker sends it. */
  leadMailDelayMs: number;
  /** Where backups go and how many daily ones stay (docs/backup.md). */
  backup: BackupSettings;
  /** How long a SIGTERM waits for requests in flight and the jobs before the process ends. */
  shutdownGraceMs: number;
  logLevel: string;
  staticDir: string;
}

/** The hub's limits per client and minute. */
export interface HubRateLimit {
  submissionsPerMinute: number;
  batchesPerMinute: number;
  /** Reads of leads (GET /api/responses and /api/responses/:id); 60 when unset. */
  leadReadsPerMinute?: number | undefined;
}

/** The hosted project (hosted mode); every part unset locally, where the gateway stands in. */
export interface SupabaseProject {
  /** Without a trailing slash. */
  url: string | undefined;
  anonKey: string | undefined;
  jwtSecret: string | undefined;
  /** The service-role key (SUPABASE_SERVICE_ROLE_KEY); never sent to a browser. */
  serviceRoleKey?: string | undefined;
}

export interface BackupSettings {
  /** BACKUP_DIR, absolute; undefined: no daily backup. */
  dir: string | undefined;
  /** The folder `npm run backup` writes to: BACKUP_DIR, else ./backups. */
  manualDir: string;
  keep: number;
}

export interface AuthRateLimit {
  signinsPerMinute: number;
  /** Wrong passwords one client may try for one address in an hour (with growing waits). */
  signinFailuresPerAddressPerHour: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = envSchema.safeParse(stripEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Ungültige Konfiguration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.GATEWAY_STAFF_SHARE >= e.GATEWAY_MAX_CONCURRENT) {
    throw new Error(
      'Ungültige Konfiguration:\n  GATEWAY_STAFF_SHARE: muss kleiner als GATEWAY_MAX_CONCURRENT sein',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET ?? readOrCreateSecret(dataDir),
    admin: { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD },
    hubService:
      e.HUB_SERVICE_EMAIL && e.HUB_SERVICE_PASSWORD
        ? { email: e.HUB_SERVICE_EMAIL.toLowerCase(), password: e.HUB_SERVICE_PASSWORD }
        : undefined,
    smtpUrl: e.SMTP_URL,
    gateway: e.GATEWAY === 'on',
    publicUrl: e.PUBLIC_URL,
    supabase: {
      url: e.SUPABASE_URL?.replace(/\/+$/, ''),
      anonKey: e.SUPABASE_ANON_KEY,
      jwtSecret: e.SUPABASE_JWT_SECRET,
      serviceRoleKey: e.SUPABASE_SERVICE_ROLE_KEY,
    },
    rateLimit: {
      submissionsPerMinute: e.RATE_LIMIT_SUBMISSIONS_PER_MINUTE,
      batchesPerMinute: e.RATE_LIMIT_BATCHES_PER_MINUTE,
      leadReadsPerMinute: e.RATE_LIMIT_LEAD_READS_PER_MINUTE,
    },
    trustProxy: e.TRUST_PROXY,
    authRateLimit: {
      signinsPerMinute: e.AUTH_RATE_LIMIT_SIGNINS_PER_MINUTE,
      signinFailuresPerAddressPerHour: e.AUTH_SIGNIN_FAILURES_PER_ADDRESS_PER_HOUR,
    },
    gatewayConcurrency: {
      maxConcurrent: e.GATEWAY_MAX_CONCURRENT,
      staffShare: e.GATEWAY_STAFF_SHARE,
      perClient: e.GATEWAY_MAX_PER_CLIENT,
      queueMs: e.GATEWAY_QUEUE_MS,
    },
    leadMailDelayMs: e.LEAD_MAIL_DELAY_SECONDS * 1000,
    backup: backupSettings(e.BACKUP_DIR, e.BACKUP_KEEP),
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    logLevel: e.LOG_LEVEL,
    staticDir: path.resolve(e.STATIC_DIR),
  };
}

function backupSettings(dir: string | undefined, keep: number): BackupSettings {
  const resolved = dir === undefined ? undefined : path.resolve(dir);
  return { dir: resolved, manualDir: resolved ?? path.resolve('backups'), keep };
}

/**
 * What `npm run restore` needs, read without side effects: unlike loadConfig it neither creates
 * DATA_DIR nor a secret in it (a restore wants an empty folder).
 */
export function loadRestoreConfig(env: NodeJS.ProcessEnv = process.env): {
  dataDir: string;
  databaseUrl: string | undefined;
  port: number;
  jwtSecretSet: boolean;
} {
  const schema = envSchema.pick({ DATA_DIR: true, DATABASE_URL: true, PORT: true });
  const parsed = schema.safeParse(stripEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Ungültige Konfiguration:\n${lines.join('\n')}`);
  }
  return {
    dataDir: path.resolve(parsed.data.DATA_DIR),
    databaseUrl: parsed.data.DATABASE_URL,
    port: parsed.data.PORT,
    jwtSecretSet: Boolean(stripEmpty(env).JWT_SECRET),
  };
}

/** An unset variable and an empty one (`FOO=` in a .env file) mean the same: the default. */
function stripEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  }
}
