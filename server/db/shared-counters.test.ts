import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testSecret } from '../../tests/helpers/hub.ts';
import { createMailWindow } from '../gateway/auth/mail-window.ts';
import { createRateWindow } from '../gateway/auth/rate-window.ts';
import { createSigninThrottle } from '../gateway/auth/signin-throttle.ts';
import { openDatabase, type Database } from './database.ts';
import { setupDatabase } from './setup.ts';
import {
  createSharedCounters,
  processWindowCounts,
  sharedRateLimitStore,
} from './shared-counters.ts';

// The counters in public.request_counters keep the rules the in-memory ones had (fixed windows
// from the first hit, the sign-in waits, the mail minute), on the app's clock. Two counter
// objects on one database stand for two server instances: what one counts, the other sees.

const start = new Date('2026-11-29T09:00:00.000Z');
const after = (ms: number) => new Date(start.getTime() + ms);

describe('shared counters (PGlite)', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({});
    await setupDatabase(db, { gateway: true });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('counts a fixed window from the first hit, across instances, apart per scope and key', async () => {
    const a = createSharedCounters(db, testSecret);
    const b = createSharedCounters(db, testSecret);
    expect(await a.hit('window', 'client-1', 60_000, start)).toEqual({ hits: 1, msLeft: 60_000 });
    expect(await b.hit('window', 'client-1', 60_000, after(10_000))).toEqual({
      hits: 2,
      msLeft: 50_000,
    });
    expect((await a.hit('window', 'client-2', 60_000, after(10_000))).hits).toBe(1);
    expect((await a.hit('other-window', 'client-1', 60_000, after(10_000))).hits).toBe(1);
    expect((await b.hit('window', 'client-1', 60_000, after(59_999))).hits).toBe(3);
    // The window ends 60 s after its first hit; the next hit starts a new one.
    expect(await a.hit('window', 'client-1', 60_000, after(60_000))).toEqual({
      hits: 1,
      msLeft: 60_000,
    });
  });

  it('lets a rate window allow its maximum per minute, counted by every instance together', async () => {
    const a = createRateWindow(createSharedCounters(db, testSecret), 'signins-test', 3);
    const b = createRateWindow(createSharedCounters(db, testSecret), 'signins-test', 3);
    const answers = [
      await a.allow('203.0.113.7', start),
      await b.allow('203.0.113.7', after(1)),
      await a.allow('203.0.113.7', after(2)),
      await b.allow('203.0.113.7', after(3)),
      await a.allow('203.0.113.8', after(4)),
      await b.allow('203.0.113.7', after(60_000)),
    ];
    expect(answers).toEqual([true, true, true, false, true, true]);
  });

  it('sets the sign-in waits of the in-memory throttle, seen by another instance', async () => {
    const a = createSigninThrottle(createSharedCounters(db, testSecret), 10);
    const b = createSigninThrottle(createSharedCounters(db, testSecret), 10);
    const client = '198.51.100.4';
    const email = 'waits@example.de';
    const waits: number[] = [];
    // Each failure comes when the wait before it is over.
    let at = start.getTime();
    for (let failure = 1; failure <= 9; failure++) {
      await (failure % 2 ? a : b).failed(client, email, new Date(at));
      const wait = await (failure % 2 ? b : a).waitSeconds(client, email, new Date(at));
      waits.push(wait);
      at += wait * 1000;
    }
    // Three free failures, then 1, 2, 4 … seconds.
    expect(waits).toEqual([0, 0, 1, 2, 4, 8, 16, 32, 64]);
    // The tenth failure within the hour closes the address to this client until the hour ends.
    await a.failed(client, email, new Date(at));
    const hourEnds = start.getTime() + 60 * 60 * 1000;
    expect(await b.waitSeconds(client, email, new Date(at))).toBe(
      Math.ceil((hourEnds - at) / 1000),
    );
    // Another client is never slowed down by these failures.
    expect(await b.waitSeconds('198.51.100.5', email, new Date(at))).toBe(0);
    // When the hour is over, the count starts again.
    expect(await a.waitSeconds(client, email, new Date(hourEnds))).toBe(0);
    await a.failed(client, email, new Date(hourEnds));
    expect(await b.waitSeconds(client, email, new Date(hourEnds))).toBe(0);
  });

  it('caps the doubling wait at 15 minutes and clears it on a successful sign-in', async () => {
    const a = createSigninThrottle(createSharedCounters(db, testSecret), 1000);
    const b = createSigninThrottle(createSharedCounters(db, testSecret), 1000);
    const client = '198.51.100.9';
    const email = 'cap@example.de';
    for (let failure = 1; failure <= 40; failure++) await a.failed(client, email, start);
    expect(await b.waitSeconds(client, email, start)).toBe(15 * 60);
    await b.succeeded(client, email);
    expect(await a.waitSeconds(client, email, start)).toBe(0);
    await a.failed(client, email, start);
    expect(await a.waitSeconds(client, email, start)).toBe(0);
  });

  it('gives each address one mail a minute per route, forgotten when the mail fails', async () => {
    const signupA = createMailWindow(createSharedCounters(db, testSecret), 'signup-mail-test');
    const signupB = createMailWindow(createSharedCounters(db, testSecret), 'signup-mail-test');
    const recovery = createMailWindow(createSharedCounters(db, testSecret), 'recovery-mail-test');
    const email = 'minute@example.de';
    expect(await signupA.secondsLeft(email, start)).toBe(0);
    expect(await signupB.secondsLeft(email, after(500))).toBe(60);
    expect(await signupB.secondsLeft(email, after(20_000))).toBe(40);
    // A refused request does not restart the minute.
    expect(await signupA.secondsLeft(email, after(59_001))).toBe(1);
    expect(await recovery.secondsLeft(email, after(1000))).toBe(0);
    expect(await signupA.secondsLeft(email, after(60_000))).toBe(0);
    await signupB.forget(email);
    expect(await signupA.secondsLeft(email, after(61_000))).toBe(0);
    expect(await signupB.secondsLeft(email, after(62_000))).toBe(59);
  });

  it('stores no address or IP, only keyed hashes, and deletes rows whose window is over', async () => {
    const counters = createSharedCounters(db, testSecret);
    const late = new Date('2026-11-30T09:00:00.000Z');
    await counters.hit('privacy', 'privacy@example.de', 60_000, late);
    await counters.hit('privacy', '192.0.2.77', 60_000, late);
    const { rows } = await db.query<{ scope: string; key_hash: string }>(
      'select scope, key_hash from public.request_counters',
    );
    const text = JSON.stringify(rows);
    expect(text).not.toContain('example.de');
    expect(text).not.toContain('192.0.2');
    for (const row of rows) expect(row.key_hash).toMatch(/^[\w-]{43}$/);
    // Another secret makes other hashes: a guessed address cannot be checked without it.
    const other = createSharedCounters(db, `${testSecret}-other`);
    expect((await other.hit('privacy', 'privacy@example.de', 60_000, late)).hits).toBe(1);
    expect((await counters.hit('privacy', 'privacy@example.de', 60_000, late)).hits).toBe(2);

    // A minute later every row of the earlier tests and of this one has expired; the sweep (at
    // most once a minute per process) deletes them and keeps the one the hit makes.
    const sweeper = createSharedCounters(db, testSecret);
    await sweeper.hit('privacy', 'privacy@example.de', 60_000, new Date(late.getTime() + 60_000));
    const left = await db.query<{ scope: string; hits: number }>(
      'select scope, hits from public.request_counters',
    );
    expect(left.rows).toEqual([{ scope: 'privacy', hits: 1 }]);
  });

  it('counts the routes’ windows in memory on PGlite by the same rules, writing no row', async () => {
    const memory = processWindowCounts();
    const late = new Date('2026-12-01T09:00:00.000Z');
    const later = (ms: number) => new Date(late.getTime() + ms);
    const rowsBefore = await db.query('select scope, key_hash, hits from public.request_counters');
    expect(await memory.hit('window', 'client-1', 60_000, late)).toEqual({
      hits: 1,
      msLeft: 60_000,
    });
    expect(await memory.hit('window', 'client-1', 60_000, later(10_000))).toEqual({
      hits: 2,
      msLeft: 50_000,
    });
    expect((await memory.hit('window', 'client-2', 60_000, later(10_000))).hits).toBe(1);
    expect((await memory.hit('other-window', 'client-1', 60_000, later(10_000))).hits).toBe(1);
    expect((await memory.hit('window', 'client-1', 60_000, later(59_999))).hits).toBe(3);
    expect(await memory.hit('window', 'client-1', 60_000, later(60_000))).toEqual({
      hits: 1,
      msLeft: 60_000,
    });
    const rowsAfter = await db.query('select scope, key_hash, hits from public.request_counters');
    expect(rowsAfter.rows).toEqual(rowsBefore.rows);
  });

  it('counts each route of @fastify/rate-limit apart, and across two apps', async () => {
    const now = () => start;
    const build = async () => {
      const app = Fastify();
      await app.register(rateLimit, {
        global: false,
        store: sharedRateLimitStore(createSharedCounters(db, testSecret), now),
      });
      const limited = { config: { rateLimit: { max: 2, timeWindow: 60_000 } } };
      app.post('/one', limited, async () => ({ ok: true }));
      app.post('/two', limited, async () => ({ ok: true }));
      const reads = app.rateLimit({ max: 1, timeWindow: 60_000, keyGenerator: () => 'reads x' });
      app.get('/read', { onRequest: reads }, async () => ({ ok: true }));
      return app;
    };
    const first = await build();
    const second = await build();
    try {
      const statuses = [];
      for (const [app, url] of [
        [first, '/one'],
        [second, '/one'],
        [first, '/one'],
        [second, '/two'],
        [first, '/two'],
      ] as const) {
        statuses.push((await app.inject({ method: 'POST', url })).statusCode);
      }
      expect(statuses).toEqual([200, 200, 429, 200, 200]);
      const limited = await second.inject({ method: 'POST', url: '/two' });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect((await first.inject({ method: 'GET', url: '/read' })).statusCode).toBe(200);
      expect((await second.inject({ method: 'GET', url: '/read' })).statusCode).toBe(429);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
