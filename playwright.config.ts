import { execFileSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium.ts';

// A free port unless one is given: two runs on one machine (a developer's and a CI clone) must
// not collide. Set in the environment so the test workers, started later, see the same port.
process.env.E2E_PORT ??= execFileSync(
  process.execPath,
  [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ],
  { encoding: 'utf8' },
).trim();
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  // CI has two cores; one of them runs the server.
  workers: 1,
  // The desk journeys sign in, edit and check accessibility several times: about 30 s on a quiet
  // two-core machine, more while other work runs. A generous bound, not a speed goal.
  timeout: 90_000,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  use: {
    baseURL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    trace: 'retain-on-failure',
    storageState: '.tmp/e2e-consented-state.json',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunchOptions,
      },
    },
  ],
  webServer: {
    command: 'node e2e/serve.mjs',
    url: `${baseURL}/api/health`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 180_000,
    // Without this the process group is SIGKILLed and serve.mjs cannot delete its temp folder.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
