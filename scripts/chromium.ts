import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

/** Debian's Chromium: no browser download is possible on these machines. */
const systemChromium = '/usr/bin/chromium';

/**
 * How tests and scripts start Chromium: Debian's build when installed, else Playwright's own.
 * As root it needs --no-sandbox; the closed network refuses Chromium's own connections, so
 * those are switched off.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  ...(existsSync(systemChromium) ? { executablePath: systemChromium } : {}),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-dev-shm-usage',
  ],
};
