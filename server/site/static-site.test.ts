import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticSite } from './static-site.ts';

async function siteOn(staticDir: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(staticSite, { staticDir });
  await app.ready();
  return app;
}

describe('the static site', () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'static-site-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write('index.html', '<title>Shell</title>');
    write('404.html', '<title>Nicht gefunden</title>');
    write('tiptoptabaluga/index.html', '<title>Tabaluga</title>');
    write('universa/kfz/index.html', '<title>KFZ</title>');
    write('universa/pkv/info.pdf', '%PDF-1.7');
    write('.vite/manifest.json', '{"index.html":{}}');
    write('.build-hash', 'abc');
    app = await siteOn(dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it.each(['/.vite/manifest.json', '/.build-hash'])(
    'keeps the build bookkeeping %s to itself',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('<title>Nicht gefunden</title>');
    },
  );

  it.each([
    ['/tiptoptabaluga', 'Tabaluga'],
    ['/tiptoptabaluga/', 'Tabaluga'],
    ['/tiptoptabaluga?utm_source=flyer', 'Tabaluga'],
    ['/universa/kfz', 'KFZ'],
  ])('answers the public page %s with its own HTML file', async (url, title) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`<title>${title}</title>`);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/', '/login', '/surveydesk', '/surveydesk/customer', '/fragebogen/7'])(
    'answers the app address %s with the shell',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('<title>Shell</title>');
    },
  );

  it.each([
    '/gibt-es-nicht',
    '/fragebogen/abc',
    '/fragebogen/0',
    '/fragebogen/7/mehr',
    '/universa/pkv',
    '/..%2f..%2fetc%2fpasswd',
  ])('answers the unknown address %s with 404 and the 404 page', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('<title>Nicht gefunden</title>');
  });

  it('serves files as they are', async () => {
    const res = await get('/universa/pkv/info.pdf');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('%PDF-1.7');
  });

  it.each([
    ['GET', '/api/gibt-es-nicht'],
    ['GET', '/rest/v1'],
    ['POST', '/tiptoptabaluga'],
  ] as const)('answers %s %s with a JSON 404, never HTML', async (method, url) => {
    const res = await app.inject({ method, url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'not_found', message: 'Diese Adresse gibt es nicht.' },
    });
  });

  it('without a build says in German how to build the app', async () => {
    const empty = await siteOn(path.join(dir, 'fehlt'));
    try {
      const res = await empty.inject({ method: 'GET', url: '/universa' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build');
    } finally {
      await empty.close();
    }
  });
});
