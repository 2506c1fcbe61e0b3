import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.ts';
import {
  createAccount,
  startGatewayServer,
  type GatewayServer,
} from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';

// The security review's first finding, in the browser it was exploited in: a staff upload served
// as a page of our origin read the session from localStorage and called the API as an admin.
// Every hostile payload is uploaded (or planted as an older version stored it) and opened in
// Chromium on our origin; its script would copy the session and call home. Nothing may run.

// Our pages' policy is script-src 'self', so the review's page loaded its script from a second
// upload of our origin: both halves are planted each time.
const script = (marker: string) =>
  `localStorage.setItem('gestohlen-${marker}', String(localStorage.getItem('user')));
   fetch('/api/gestohlen/${marker}');`;
const hostilePage = (scriptName: string) =>
  `<!doctype html><html><body><script src="/storage/v1/object/public/documents/${scriptName}"></script></body></html>`;

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Each hostile page type, the script type beside it, and how the bodies are disguised. */
const hostile: { page: string; script: string; prefix?: Buffer }[] = [
  { page: 'application/pdf;,text/html', script: 'image/png;,text/javascript' },
  { page: 'image/jpeg;,text/html', script: 'application/pdf;,application/javascript' },
  { page: 'text/html', script: 'text/javascript' },
  { page: 'image/svg+xml', script: 'application/javascript' },
  { page: 'application/xhtml+xml', script: 'text/javascript' },
  // Polyglots: the right first bytes, a page or script behind them.
  { page: 'application/pdf', script: 'application/pdf', prefix: Buffer.from('%PDF-1.4\n') },
  { page: 'image/png', script: 'image/png', prefix: pngSignature },
];

describe('hostile uploads opened in Chromium', () => {
  let server: GatewayServer;
  let browser: Browser;
  let token: string;
  let anonKey: string;

  beforeAll(async () => {
    server = await startGatewayServer('pglite');
    token = (await createAccount(server.db, 'angreifer@example.de', 'staff')).accessToken;
    ({ anonKey } = await apiKeys(testSecret));
    browser = await chromium.launch(chromiumLaunchOptions);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('runs no script of any stored file on our origin', async () => {
    const addresses: string[] = [];
    const put = (name: string, type: string, body: Uint8Array | string) =>
      fetch(`${server.url}/storage/v1/object/documents/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, apikey: anonKey, 'content-type': type },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
    for (const [index, upload] of hostile.entries()) {
      const prefix = upload.prefix ?? Buffer.alloc(0);
      const scriptName = `forms/7/skript-${index}.js`;
      await put(
        scriptName,
        upload.script,
        Buffer.concat([prefix, Buffer.from(script(`${index}`))]),
      );
      const pageName = `forms/7/seite-${index}.html`;
      const answer = await put(
        pageName,
        upload.page,
        Buffer.concat([prefix, Buffer.from(hostilePage(scriptName))]),
      );
      if (answer.ok) addresses.push(pageName);
    }
    // As an older version stored them: a real PDF's row, then the type as sent and a page or a
    // script as the body.
    const plant = async (name: string, type: string, body: string) => {
      expect((await put(name, 'application/pdf', '%PDF-1.4\n%%EOF\n')).status).toBe(200);
      const row = await server.db.query<{ version: string }>(
        `update storage.objects set metadata = jsonb_set(metadata, '{mimetype}', to_jsonb($2::text))
         where name = $1 returning version`,
        [name, type],
      );
      writeFileSync(bodyPath(server, name, row.rows[0]!.version), body);
    };
    for (const [index, [pageType, scriptType]] of [
      ['application/pdf;,text/html', 'image/png;,text/javascript'],
      ['text/html', 'text/javascript'],
    ].entries()) {
      const scriptName = `forms/7/alt-skript-${index}.js`;
      await plant(scriptName, scriptType!, script(`alt-${index}`));
      const pageName = `forms/7/alt-seite-${index}.html`;
      await plant(pageName, pageType!, hostilePage(scriptName));
      addresses.push(pageName, scriptName);
    }
    expect(addresses.length).toBeGreaterThanOrEqual(3);

    const context = await browser.newContext({ acceptDownloads: true });
    const calledHome: string[] = [];
    context.on('request', (request) => {
      if (request.url().includes('/api/gestohlen/')) calledHome.push(request.url());
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/api/health`);
    await page.evaluate(() => localStorage.setItem('user', 'geheime-sitzung'));

    for (const name of addresses) {
      for (const route of ['object/public/documents', 'object/documents']) {
        const tab = await context.newPage();
        // A file sent as an attachment is a download, which Playwright reports as a failed
        // navigation: that is the safe outcome, not an error of the test.
        await tab.goto(`${server.url}/storage/v1/${route}/${name}`).catch(() => undefined);
        await tab.waitForTimeout(150);
        await tab.close();
      }
    }

    const stolen = await page.evaluate(() =>
      Object.keys(localStorage).filter((key) => key.startsWith('gestohlen')),
    );
    expect(stolen).toEqual([]);
    expect(calledHome).toEqual([]);
    await context.close();
  });
});

function bodyPath(server: GatewayServer, name: string, version: string): string {
  return path.join(server.dataDir, 'storage', 'documents', ...name.split('/'), version);
}
