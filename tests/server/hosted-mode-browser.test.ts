import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfigPath, isServerPath } from '../../src/domain/routes.ts';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { testSecret } from '../helpers/hub.ts';

// What the browser learns at run time (/app-config.json), the CSP it runs under and the CORS
// answers of the gateway, locally and in hosted mode. No route here touches the database.
const noDatabase: Database = {
  kind: 'pglite',
  query: () => Promise.reject(new Error('no database in this test')),
  exec: () => Promise.reject(new Error('no database in this test')),
  transaction: () => Promise.reject(new Error('no database in this test')),
  close: () => Promise.resolve(),
};

async function appWith(config: Partial<AppOptions['config']>): Promise<FastifyInstance> {
  return buildApp({
    config: {
      jwtSecret: testSecret,
      hubService: undefined,
      rateLimit: { submissionsPerMinute: 100, batchesPerMinute: 100 },
      staticDir: '/nonexistent-dist',
      logLevel: 'silent',
      ...config,
    },
    db: noDatabase,
    logger: false,
  });
}

const connectSrc = (csp: unknown) =>
  String(csp)
    .split(';')
    .find((d) => d.trim().startsWith('connect-src'))
    ?.trim();

describe('locally (GATEWAY=on)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith({ gateway: true });
  });
  afterAll(() => app.close());

  it('names the serving origin as the browser addressed it and the anon key of the secret', async () => {
    const res = await app.inject({
      url: appConfigPath,
      headers: { host: 'leads.example.de:8080', 'x-forwarded-host': 'evil.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      supabaseUrl: 'http://leads.example.de:8080',
      supabaseAnonKey: (await apiKeys(testSecret)).anonKey,
    });
  });

  it('refuses a Host that is no host name instead of echoing it', async () => {
    const res = await app.inject({
      url: appConfigPath,
      headers: { host: 'evil.example/x?' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'bad_host' } });
  });

  it('prefers PUBLIC_URL over the Host header', async () => {
    const withPublicUrl = await appWith({ gateway: true, publicUrl: 'https://leads.example.de/' });
    try {
      const res = await withPublicUrl.inject({
        url: appConfigPath,
        headers: { host: 'other.example' },
      });
      expect(res.json()).toMatchObject({ supabaseUrl: 'https://leads.example.de' });
    } finally {
      await withPublicUrl.close();
    }
  });

  it('lets the browser connect to its own origin only', async () => {
    const res = await app.inject({ url: '/api/health' });
    expect(connectSrc(res.headers['content-security-policy'])).toBe("connect-src 'self'");
  });

  it.each(['/auth/v1/token', '/rest/v1/users', '/storage/v1/object/documents/a.pdf'])(
    'answers a preflight to %s as Supabase does',
    async (url) => {
      const res = await app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://desk.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,apikey,content-type,x-client-info',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-methods'])).toContain('PATCH');
      const allowed = String(res.headers['access-control-allow-headers']).split(/,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining([
          'authorization',
          'apikey',
          'content-type',
          'x-client-info',
          'x-supabase-api-version',
          'prefer',
          'range',
          'accept-profile',
          'content-profile',
          'x-upsert',
          'cache-control',
        ]),
      );
    },
  );

  it('exposes the headers supabase-js reads on a cross-origin answer', async () => {
    const res = await app.inject({
      url: '/rest/v1/gibt-es-nicht',
      headers: { origin: 'https://desk.example' },
    });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-expose-headers']).split(/,\s*/)).toEqual([
      'Content-Range',
      'X-Supabase-Api-Version',
      'x-sb-error-code',
    ]);
  });

  it('keeps the hub and the site same-origin: no CORS there', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/responses',
      headers: { origin: 'https://desk.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const health = await app.inject({
      url: '/api/health',
      headers: { origin: 'https://desk.example' },
    });
    expect(health.headers['access-control-allow-origin']).toBeUndefined();
    const config = await app.inject({
      url: appConfigPath,
      headers: { origin: 'https://desk.example', host: 'localhost' },
    });
    expect(config.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('hosted mode (GATEWAY=off)', () => {
  it('names the hosted project and lets the browser connect to it', async () => {
    const app = await appWith({
      gateway: false,
      supabase: {
        url: 'https://abcd.supabase.co',
        anonKey: 'hosted-anon-key',
        jwtSecret: undefined,
      },
    });
    try {
      const res = await app.inject({ url: appConfigPath });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        supabaseUrl: 'https://abcd.supabase.co',
        supabaseAnonKey: 'hosted-anon-key',
      });
      expect(connectSrc(res.headers['content-security-policy'])).toBe(
        "connect-src 'self' https://abcd.supabase.co",
      );
      // No gateway: nothing answers for Supabase here.
      const rest = await app.inject({ url: '/rest/v1/forms' });
      expect(rest.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('says clearly what is missing when the project is not configured', async () => {
    const app = await appWith({ gateway: false });
    try {
      const res = await app.inject({ url: appConfigPath });
      expect(res.statusCode).toBe(503);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        error: {
          code: 'supabase_not_configured',
          message:
            'Survey Desk ist nicht eingerichtet: Dem Server fehlen SUPABASE_URL und SUPABASE_ANON_KEY.',
        },
      });
    } finally {
      await app.close();
    }
  });
});

describe('the service worker', () => {
  it('never keeps /app-config.json: no such file to precache, and a server path', () => {
    expect(existsSync(new URL(`../../public${appConfigPath}`, import.meta.url))).toBe(false);
    // Server paths pass the worker's navigation fallback and the dev server proxies them.
    expect(isServerPath(appConfigPath)).toBe(true);
  });
});

describe('the hosted project in the configuration', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hosted-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('reads SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_JWT_SECRET', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      GATEWAY: 'off',
      SUPABASE_URL: 'https://abcd.supabase.co/',
      SUPABASE_ANON_KEY: 'hosted-anon-key',
      SUPABASE_JWT_SECRET: 'the-projects-legacy-jwt-secret-of-at-least-32-chars',
    });
    expect(config.gateway).toBe(false);
    expect(config.supabase).toEqual({
      url: 'https://abcd.supabase.co',
      anonKey: 'hosted-anon-key',
      jwtSecret: 'the-projects-legacy-jwt-secret-of-at-least-32-chars',
    });
  });

  it('stops at a SUPABASE_URL that is no http(s) address, naming it', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, SUPABASE_URL: 'javascript:alert(1)' })).toThrow(
      /SUPABASE_URL: muss eine http\(s\)-Adresse sein/,
    );
  });
});
