import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { setupDatabase } from '../../server/db/setup.ts';

export const testSecret = 'test-secret-that-is-long-enough-for-hs256-signing';
export const hubService = { email: 'crm@example.de', password: 'service-passwort-123' };

export interface TestHub {
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}

/** A hub on a fresh in-memory PGlite, migrated and seeded, driven with `app.inject`. */
export async function createTestHub(
  options: {
    rateLimit?: { submissionsPerMinute: number; batchesPerMinute: number };
    db?: Database;
  } = {},
): Promise<TestHub> {
  const db = options.db ?? (await openDatabase({}));
  await setupDatabase(db, {
    gateway: true,
    admin: { email: 'admin@example.de', password: 'admin-passwort-1' },
  });
  const app = await buildApp({
    config: {
      jwtSecret: testSecret,
      hubService,
      rateLimit: options.rateLimit ?? { submissionsPerMinute: 10_000, batchesPerMinute: 10_000 },
      staticDir: '/nonexistent-dist',
      logLevel: 'silent',
      gateway: true,
    },
    db,
    logger: false,
  });
  return {
    app,
    db,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

let counter = 0;

/** A valid questionnaire submission for form 1 (Tabaluga), unique per call. */
export function tabalugaSubmission(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    client_id: randomUUID(),
    form_id: 1,
    source: 'questionnaire',
    answers: [
      { question_id: 1, answer: 'Zwei' },
      { question_id: 2, answer: '2019-05-01, 2021-09-14' },
      { question_id: 3, answer: '50 €' },
    ],
    first_name: 'Jürgen',
    last_name: 'Weiß',
    adress: 'Hauptstraße 1',
    postcode: '10115',
    city: 'Berlin',
    phone: '+49 30 123456',
    email: `juergen.weiss.${counter}.${randomUUID().slice(0, 8)}@example.de`,
    offer_info: true,
    terms_accepted: true,
    data_processing_consent: true,
    consent_version: '2026-11-01',
    create_date: '2026-11-22T09:00:00.000Z',
    changed_date: '2026-11-22T09:00:00.000Z',
    captured_at: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
}

export async function countRows(db: Database, table: 'responses' | 'answers' | 'users') {
  const result = await db.query<{ n: number }>(`select count(*)::int as n from public.${table}`);
  return result.rows[0]!.n;
}
