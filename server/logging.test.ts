import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { openDatabase } from './db/database.ts';
import { setupDatabase } from './db/setup.ts';
import { loggedError } from './logging.ts';

describe('request logs', () => {
  it('hold no personal data: no names, e-mail, phone, address, IP or query string', async () => {
    const db = await openDatabase({});
    await setupDatabase(db, { gateway: true, admin: undefined });
    const stream = new PassThrough();
    let logged = '';
    stream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    const app = await buildApp({
      config: {
        jwtSecret: 'log-test-secret-log-test-secret-log-test',
        hubService: undefined,
        rateLimit: { submissionsPerMinute: 100, batchesPerMinute: 100 },
        staticDir: '/nonexistent-dist',
        logLevel: 'info',
      },
      db,
      logger: { stream },
    });
    try {
      const lead = questionnaireLead({
        email: 'geheim.person@example.de',
        phone: '+49 170 5550123',
      });
      await app.inject({ method: 'POST', url: '/api/responses', payload: lead });
      await app.inject({
        method: 'POST',
        url: '/api/responses',
        payload: { ...lead, first_name: 'Anders' },
      });
      await app.inject({ method: 'GET', url: '/api/responses?since=geheim.person@example.de' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(logged).toContain('"url":"/api/responses"');
      for (const secret of [
        'geheim.person',
        // Numbers as they would appear in a logged body: a bare digit run can turn up inside a
        // logged timing or timestamp.
        '170 5550123',
        'Jürgen',
        'Weiß',
        'Hauptstraße',
        '"10115"',
        '127.0.0.1',
        'remoteAddress',
        'since=',
      ]) {
        expect(logged, secret).not.toContain(secret);
      }
    } finally {
      await app.close();
      await db.close();
    }
  });
});

describe('logged errors', () => {
  it('keep only the SQLSTATE of a database error, never its parameters or quoted values', async () => {
    const db = await openDatabase({});
    await setupDatabase(db, { gateway: true, admin: undefined });
    const failure = await db
      .query('insert into public.users (first_name, last_name, email) values ($1, $2, $3)', [
        'Geheim',
        'Person',
        'Geheim.Person@Example.de',
      ])
      .catch((error: unknown) => error);
    await db.close();
    const logged = JSON.stringify(loggedError(failure));
    expect(logged).toContain('23514');
    for (const secret of ['Geheim', 'Person', 'example.de']) expect(logged).not.toContain(secret);
  });

  it('keep message and stack of our own errors', () => {
    const logged = loggedError(new TypeError('x is undefined'));
    expect(logged).toMatchObject({ type: 'TypeError', message: 'x is undefined' });
    expect(String(logged.stack)).toContain('logging.test.ts');
  });
});
