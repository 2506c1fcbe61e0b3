// Starts the real server for Playwright on a throwaway database, so every run begins empty and
// nothing is left behind. Playwright ends the web server with SIGTERM (see gracefulShutdown in
// playwright.config.ts); the temporary data folder is removed once the server has exited.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.E2E_PORT ?? '4173';
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'universa-e2e-'));

// The account tests read the confirmation mails the server writes below DATA_DIR/mail/. Named by
// port: two runs on one machine must not read each other's mails.
mkdirSync(path.join(root, '.tmp'), { recursive: true });
writeFileSync(path.join(root, '.tmp', `e2e-data-dir-${port}`), dataDir);

if (!existsSync(path.join(root, 'dist', 'index.html'))) {
  console.error('e2e/serve.mjs: dist/ fehlt, zuerst `npm run build` ausführen.');
}

const child = spawn('npx', ['tsx', 'server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // A DATABASE_URL from the developer's shell would point the tests at a real database.
    DATABASE_URL: '',
    ADMIN_PASSWORD: 'e2e-Admin-Passwort-1',
    // The tests read stored leads back through the hub, as an integration would.
    HUB_SERVICE_EMAIL: 'e2e-crm@example.de',
    HUB_SERVICE_PASSWORD: 'e2e-Service-Passwort-1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // The journeys sign the seeded admin in far more often than a person would; the limits
    // themselves are tested in the server's tests, and their German message with a faked answer.
    AUTH_RATE_LIMIT_SIGNINS_PER_MINUTE: '1000',
    AUTH_SIGNIN_FAILURES_PER_ADDRESS_PER_HOUR: '1000',
    // The journeys poll stored leads through the hub (e2e/helpers/hub.ts), all workers from one
    // address; the read limit is tested in the server's tests.
    RATE_LIMIT_LEAD_READS_PER_MINUTE: '100000',
  },
});

let stopRequested = false;

function removeDataDir() {
  rmSync(dataDir, { recursive: true, force: true });
}

function stop(signal) {
  if (stopRequested) return;
  stopRequested = true;
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  // A server that hangs on shutdown must not keep the test run (and the temp folder) alive.
  setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
process.on('exit', removeDataDir);

child.on('error', (error) => {
  console.error(`e2e/serve.mjs: Server konnte nicht gestartet werden: ${error.message}`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  removeDataDir();
  if (stopRequested) process.exit(0);
  console.error(`e2e/serve.mjs: Server beendet (Code ${code ?? '-'}, Signal ${signal ?? '-'}).`);
  process.exit(code || 1);
});
