// `npm test`: unit and integration tests, the size budget, then the browser tests, and one
// closing line `tests: N passed, M failed` that counts both runners.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const reports = path.join(root, '.tmp', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);

function step(name, args, env = {}) {
  console.log(`\n── ${name} ──`);
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

const vitestReport = path.join(reports, 'vitest.json');
const playwrightReport = path.join(reports, 'playwright.json');
const steps = [
  () =>
    step('Unit- und Integrationstests (Vitest)', [
      bin('vitest', 'vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestReport}`,
    ]),
  () => step('Build', [path.join(root, 'scripts', 'build-if-stale.mjs')]),
  () => step('Größenbudget', [path.join(root, 'scripts', 'check-size.mjs')]),
  () => step('PWA-Prüfung', [path.join(root, 'scripts', 'check-pwa.mjs')]),
  () =>
    step(
      'Browsertests (Playwright)',
      [bin('@playwright/test', 'cli.js'), 'test', '--reporter=list,json'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
      },
    ),
];

let ok = true;
for (const run of steps) {
  if (!run()) {
    ok = false;
    break;
  }
}

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const vitest = read(vitestReport);
const playwright = read(playwrightReport);
const passed =
  (vitest?.numPassedTests ?? 0) +
  (playwright?.stats?.expected ?? 0) +
  (playwright?.stats?.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 && passed > 0 ? 0 : 1);
