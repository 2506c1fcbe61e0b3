// The agent's customers live in Germany: calendar rules (the 18th birthday on the contact page)
// are judged by the German date, not the server's UTC midnight. TZ overrides it.
process.env.TZ ??= 'Europe/Berlin';

import { startupMark } from './startup-timing.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { missingApiRoleGrant } from './db/role-grants.ts';
import { setupDatabase } from './db/setup.ts';
import { findTemplate } from './db/template-file.mjs';
import { startBackupService } from './backup/backup-service.ts';
import { listeningOrigin } from './http/listening-origin.ts';
import { errorCode } from './jobs/periodic-job.ts';

startupMark('modules-loaded');
const config = loadConfig();
const db = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  // A new data folder starts from the build's template of a migrated, seeded database (no initdb),
  // when one matches the migrations; the template has the local Supabase schema the gateway needs.
  template: config.gateway ? () => findTemplate() : undefined,
  // Only the error code: a PostgreSQL message may quote data.
  onConnectionError: (error) =>
    process.stderr.write(
      `PostgreSQL-Verbindung getrennt (${(error as { code?: string }).code ?? error.name}); der Pool baut sie neu auf.\n`,
    ),
});
startupMark('database-open');
const setup = await setupDatabase(db, { gateway: config.gateway, admin: config.admin });
startupMark('database-setup');
if (config.gateway && db.kind === 'postgres') {
  // Caught now rather than as a failure of every gateway request later.
  const missingGrant = await missingApiRoleGrant(db);
  if (missingGrant) {
    process.stderr.write(`\n  ${missingGrant}\n\n`);
    await db.close();
    process.exit(1);
  }
}
startupMark('role-check');
// Readable lines for a person at a terminal, JSON for a log collector.
// The daily retention run (docs/retention-and-person-rights.md); on hosted Supabase pg_cron may
// run it too.
const app = await buildApp({
  config,
  db,
  logger: process.stdout.isTTY ? 'terminal' : 'json',
  retention: {},
  // New-lead mails (docs/lead-mail.md).
  leadMail: { delayMs: config.leadMailDelayMs },
  // The mail to an account an admin enabled (docs/survey-desk.md).
  staffMail: {},
});

startupMark('app-built');
// Backups of the embedded database: daily into BACKUP_DIR, and `npm run backup` over the
// control socket (docs/backup.md).
const backups = await startBackupService({
  db,
  dataDir: config.dataDir,
  dailyDir: config.backup.dir,
  manualDir: config.backup.manualDir,
  keep: config.backup.keep,
  log: app.log,
});
let stopping = false;
/**
 * SIGTERM (systemd, a container runtime) and SIGINT: no new connections, requests in flight
 * answered (a lead acknowledged is a lead stored), the jobs ended between two items with their
 * claims given back, then the database closed. A request or a mail relay that hangs does not hold
 * the process beyond SHUTDOWN_GRACE_SECONDS: it ends with code 1, and what was committed stays.
 */
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'stopping');
  const grace = setTimeout(() => {
    app.log.error({ graceMs: config.shutdownGraceMs }, 'shutdown grace exceeded');
    process.exit(1);
  }, config.shutdownGraceMs);
  let exitCode = 0;
  try {
    await backups.stop();
    await app.close();
  } catch (error) {
    exitCode = 1;
    app.log.error({ code: errorCode(error) }, 'shutdown failed');
  }
  try {
    await db.close();
  } catch (error) {
    exitCode = 1;
    app.log.error({ code: errorCode(error) }, 'closing the database failed');
  }
  clearTimeout(grace);
  app.log.info({ signal, exitCode }, 'stopped');
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
startupMark('listening');
// The same address the links in mails name when PUBLIC_URL is unset.
const origin = listeningOrigin(app.server.address());

const lines = [
  '',
  `  Universa Leads läuft: ${origin}/`,
  `  Datenbank: ${db.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
];
lines.push(...backups.banner);
if (!config.gateway) {
  lines.push(
    config.supabase.url && config.supabase.anonKey
      ? `  Gehostetes Supabase: ${config.supabase.url} (GATEWAY=off)`
      : '  GATEWAY=off ohne SUPABASE_URL und SUPABASE_ANON_KEY: Survey Desk findet Supabase nicht.',
  );
}
if (db.fromTemplate) {
  lines.push('  Neue Datenbank aus der Vorlage des Builds: alle Migrationen angewendet');
}
if (setup.migrations.applied.length > 0) {
  lines.push(`  Migrationen angewendet: ${setup.migrations.applied.join(', ')}`);
}
if (setup.seeded || db.fromTemplate) {
  lines.push('  Beispieldaten angelegt: Fragebogen 1 (Tabaluga) und 2 (PKV)');
}
if (setup.admin?.created) {
  lines.push(
    `  Admin-Konto angelegt: ${setup.admin.email}`,
    setup.admin.generatedPassword
      ? `  Passwort (nur jetzt angezeigt): ${setup.admin.generatedPassword}`
      : '  Passwort: wie in ADMIN_PASSWORD gesetzt',
  );
} else if (setup.admin) {
  lines.push(`  Admin-Konto ${setup.admin.email} wurde bereits früher angelegt.`);
}
// Printed on stdout for the person who started the server, deliberately not into the logs.
process.stdout.write(lines.join('\n') + '\n\n');
