import { questionnaireLead } from '../src/testing/lead-fixtures.ts';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { openDatabase } from './db/database.ts';
import { setupDatabase } from './db/setup.ts';

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
