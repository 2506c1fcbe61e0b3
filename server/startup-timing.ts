// Start-up timing marks (bench:startup): with STARTUP_TIMING=1 each phase of the start prints
// `[startup] <phase> <epoch ms>` to stderr, and the bench subtracts neighbouring marks. Imported
// first by server/main.ts, so its first mark is when the server's code starts to run: run by tsx,
// before the server's own modules are loaded; compiled (`npm start`), after the packages it
// imports are.
const enabled = process.env.STARTUP_TIMING === '1';

export function startupMark(phase: string): void {
  if (enabled) process.stderr.write(`[startup] ${phase} ${Date.now()}\n`);
}

startupMark('server-entered');
