import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import type { Database } from './db/database.ts';

/** A database that has gone away: every query fails, as when PostgreSQL is down. */
const goneDatabase: Database = {
  kind: 'postgres',
  query: () => Promise.reject(new Error('connection terminated')),
  exec: () => Promise.reject(new Error('connection terminated')),
  transaction: () => Promise.reject(new Error('connection terminated')),
  close: () => Promise.resolve(),
};

describe('each server area answers in its own error shape', () => {
  let dir: string;
  let app: FastifyInstance;
  let logged = '';
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'areas-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write('index.html', '<title>Shell</title>');
    write('404.html', '<title>Nicht gefunden</title>');
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    app = await buildApp({
      config: {
        jwtSecret: 'areas-test-secret-areas-test-secret-areas',
        hubService: undefined,
        rateLimit: { submissionsPerMinute: 100, batchesPerMinute: 100 },
        staticDir: dir,
        logLevel: 'error',
        gateway: true,
      },
      db: goneDatabase,
      logger: { stream },
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['GET', 'POST'] as const)(
    'the hub answers an unknown /api address (%s) with its JSON 404',
    async (method) => {
      const res = await app.inject({ method, url: '/api/gibt-es-nicht?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toEqual({
        error: { code: 'not_found', message: 'Diese Adresse gibt es nicht.' },
      });
    },
  );

  it('the hub answers a malformed JSON body in its shape', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/responses',
      headers: { 'content-type': 'application/json' },
      payload: '{"client_id": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'invalid_json', message: 'Der Inhalt ist kein gültiges JSON.' },
    });
  });

  it('the hub answers its own failure with a German 500 and logs the error, not the lead', async () => {
    const lead = questionnaireLead({ email: 'vertraulich.person@example.de' });
    const res = await app.inject({ method: 'POST', url: '/api/responses', payload: lead });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: {
        code: 'internal_error',
        message: 'Interner Fehler. Bitte versuchen Sie es später erneut.',
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged).toContain('connection terminated');
    expect(logged).not.toContain('vertraulich.person');
    expect(logged).not.toContain('Jürgen');
  });

  it('the REST gateway answers an unknown table as PostgREST does', async () => {
    const res = await app.inject({ method: 'GET', url: '/rest/v1/gibt_es_nicht?select=*' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 'PGRST205',
      message: "Could not find the table 'public.gibt_es_nicht' in the schema cache",
      details: null,
      hint: null,
    });
  });

  it('the REST gateway answers an invalid path as PostgREST does', async () => {
    const res = await app.inject({ method: 'POST', url: '/rest/v1/rest/v1/forms' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 'PGRST125',
      message: 'Invalid path specified in request URL',
      details: null,
      hint: null,
    });
  });

  it('the auth gateway answers an unknown path in GoTrue’s shape, by the API version asked for', async () => {
    const legacy = await app.inject({ method: 'GET', url: '/auth/v1/gibt-es-nicht' });
    expect(legacy.statusCode).toBe(404);
    expect(legacy.json()).toEqual({ code: 404, error_code: 'not_found', msg: 'Not found' });

    const versioned = await app.inject({
      method: 'POST',
      url: '/auth/v1/gibt-es-nicht',
      headers: { 'x-supabase-api-version': '2024-01-01' },
    });
    expect(versioned.statusCode).toBe(404);
    expect(versioned.headers['x-supabase-api-version']).toBe('2024-01-01');
    expect(versioned.json()).toEqual({ code: 'not_found', message: 'Not found' });
  });

  it('the auth gateway answers a malformed JSON body in GoTrue’s shape', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, error_code: 'bad_json' });
  });

  it('the storage gateway answers an unknown path in Storage’s shape', async () => {
    const res = await app.inject({ method: 'GET', url: '/storage/v1/gibt-es-nicht' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET:/gibt-es-nicht not found',
    });
  });

  it('the static site answers an unknown page with the 404 page', async () => {
    const res = await app.inject({ method: 'GET', url: '/gibt-es-nicht' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toBe('<title>Nicht gefunden</title>');
  });

  it('a server address no area claims still gets the hub’s JSON 404, never HTML', async () => {
    const res = await app.inject({ method: 'GET', url: '/rest/v2/forms' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'not_found', message: 'Diese Adresse gibt es nicht.' },
    });
  });
});

describe('without the gateway', () => {
  it('its addresses get the hub’s JSON 404, as every server address no area claims', async () => {
    const app = await buildApp({
      config: {
        jwtSecret: 'areas-test-secret-areas-test-secret-areas',
        hubService: undefined,
        rateLimit: { submissionsPerMinute: 100, batchesPerMinute: 100 },
        staticDir: '/nonexistent-dist',
        logLevel: 'silent',
        gateway: false,
      },
      db: goneDatabase,
      logger: false,
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/rest/v1/forms' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: { code: 'not_found', message: 'Diese Adresse gibt es nicht.' },
      });
    } finally {
      await app.close();
    }
  });
});
