// `npm start`: build the app when needed, then run the one server (app, hub API, gateway) in
// this process, from its compiled module (scripts/build-if-stale.mjs): no second Node and no
// TypeScript loader on the way to the first answer.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale, buildServerIfStale } from './build-if-stale.mjs';

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
const bundle = await buildServerIfStale();
mark('server-compiled');

if (bundle) {
  // Stack traces name the compiled module's lines; `node --enable-source-maps` with the module
  // names the sources (reading the source map cost a start a fifth of a second).
  process.chdir(root);
  await import(pathToFileURL(bundle).href);
} else {
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => server.kill(signal));
  }
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
