import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { createGate, goesBeforeAnonymous } from './concurrency.ts';

const limits = { maxConcurrent: 4, staffShare: 2, perClient: 2, queueMs: 1000 };

describe('the gateway’s gate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets one client run at most perClient requests; the next waits for a place', async () => {
    const gate = createGate({ ...limits, staffShare: 0 });
    const first = await gate.enter('a', false);
    const second = await gate.enter('a', false);
    expect(first && second).toBeTruthy();
    let third: (() => void) | undefined;
    const waiting = gate.enter('a', false).then((release) => (third = release));
    // Another client is not held up by it.
    expect(await gate.enter('b', false)).toBeTypeOf('function');
    await Promise.resolve();
    expect(third).toBeUndefined();
    first!();
    await waiting;
    expect(third).toBeTypeOf('function');
    expect(gate.running()).toEqual({ all: 3, anonymous: 3 });
  });

  it('keeps the staff share from anonymous requests', async () => {
    const gate = createGate({ ...limits, perClient: 10 });
    vi.useFakeTimers();
    await gate.enter('a', false);
    await gate.enter('b', false);
    // The anonymous share (4 − 2) is taken: a third anonymous request waits, then is refused.
    const refused = gate.enter('c', false);
    vi.advanceTimersByTime(1000);
    expect(await refused).toBeUndefined();
    // Signed-in requests still find their two places.
    expect(await gate.enter('staff-1', true)).toBeTypeOf('function');
    expect(await gate.enter('staff-2', true)).toBeTypeOf('function');
    expect(gate.running()).toEqual({ all: 4, anonymous: 2 });
  });

  it('lets a waiting signed-in request pass an anonymous one that does not fit', async () => {
    const gate = createGate({ ...limits, maxConcurrent: 3, staffShare: 1 });
    const a = await gate.enter('a', false);
    await gate.enter('b', false);
    const staff = await gate.enter('s', true);
    const anonymous = gate.enter('c', false);
    const signedIn = gate.enter('t', true);
    staff!();
    expect(await signedIn).toBeTypeOf('function');
    a!();
    expect(await anonymous).toBeTypeOf('function');
  });

  it('refuses at once when too many of one client wait already', async () => {
    const gate = createGate({ ...limits, perClient: 1 });
    await gate.enter('a', false);
    const queued = Array.from({ length: 8 }, () => gate.enter('a', false));
    expect(await gate.enter('a', false)).toBeUndefined();
    void queued;
  });

  it('never refuses a signed-in request because anonymous ones fill the queue', async () => {
    const gate = createGate({ maxConcurrent: 1, staffShare: 0, perClient: 1, queueMs: 1000 });
    const running = await gate.enter('a0', false);
    const queued = Array.from({ length: 16 }, (_, i) => gate.enter(`a${i + 1}`, false));
    expect(await gate.enter('a99', false)).toBeUndefined();
    const signedIn = gate.enter('staff', true);
    running!();
    // The first anonymous one waited longer and goes first; the signed-in one still gets its turn.
    (await queued[0])!();
    void queued;
    expect(await Promise.race([signedIn, Promise.resolve('waiting')])).toBe('waiting');
  });

  it('tells which requests go before anonymous work from their address and token', () => {
    const token = (role: string) =>
      `Bearer x.${Buffer.from(JSON.stringify({ role })).toString('base64url')}.y`;
    expect(goesBeforeAnonymous('/api/responses', undefined)).toBe(true);
    expect(goesBeforeAnonymous('/auth/v1/token?grant_type=password', undefined)).toBe(true);
    expect(goesBeforeAnonymous('/rest/v1/forms', undefined)).toBe(false);
    expect(goesBeforeAnonymous('/rest/v1/forms', token('anon'))).toBe(false);
    expect(goesBeforeAnonymous('/rest/v1/forms', token('authenticated'))).toBe(true);
    expect(goesBeforeAnonymous('/storage/v1/object/documents/a', token('service_role'))).toBe(true);
    expect(goesBeforeAnonymous('/rest/v1/forms', 'Bearer not-a-token')).toBe(false);
    expect(goesBeforeAnonymous('/universa', token('authenticated'))).toBe(false);
  });
});

describe('the gateway’s caps in the configuration', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gate-config-'));
  const base = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('has defaults and reads each variable once', () => {
    expect(loadConfig(base).gatewayConcurrency).toEqual({
      maxConcurrent: 8,
      staffShare: 4,
      perClient: 2,
      queueMs: 1000,
    });
    expect(
      loadConfig({
        ...base,
        GATEWAY_MAX_CONCURRENT: '20',
        GATEWAY_STAFF_SHARE: '5',
        GATEWAY_MAX_PER_CLIENT: '6',
        GATEWAY_QUEUE_MS: '0',
      }).gatewayConcurrency,
    ).toEqual({ maxConcurrent: 20, staffShare: 5, perClient: 6, queueMs: 0 });
  });

  it('refuses a staff share that leaves anonymous requests nothing, naming the variable', () => {
    expect(() =>
      loadConfig({ ...base, GATEWAY_MAX_CONCURRENT: '4', GATEWAY_STAFF_SHARE: '4' }),
    ).toThrow(/GATEWAY_STAFF_SHARE/);
    expect(() => loadConfig({ ...base, GATEWAY_MAX_PER_CLIENT: '0' })).toThrow(
      /GATEWAY_MAX_PER_CLIENT/,
    );
    rmSync(dataDir, { recursive: true, force: true });
  });
});
