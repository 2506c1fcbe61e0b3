// `npm start`: build the app when needed, then run the one server (app, hub API, gateway).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const envFile = path.join(root, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

// STARTUP_TIMING=1: marks of the start's phases on stderr (server/startup-timing.ts).
const mark = (phase) => {
  if (process.env.STARTUP_TIMING === '1')
    process.stderr.write(`[startup] ${phase} ${Date.now()}\n`);
};
mark('launcher-ready');
buildIfStale();
mark('build-checked');

const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
