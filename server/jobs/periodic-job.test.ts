import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob, type PeriodicJob } from './periodic-job.ts';

/** Gates a test left shut (a failed assertion): opened after it, so stop() can end. */
const shut: Array<() => void> = [];

/** A promise the test settles by hand. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  shut.push(resolve);
  return { promise, resolve };
}

function fakeLog() {
  return { error: vi.fn<(fields: { code: string }, message: string) => void>() };
}

describe('startPeriodicJob', () => {
  let job: PeriodicJob<unknown> | undefined;
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(async () => {
    for (const open of shut.splice(0)) open();
    await job?.stop();
    job = undefined;
    vi.useRealTimers();
  });

  it('runs at once and then every interval, never two passes at the same time', async () => {
    let active = 0;
    let most = 0;
    let passes = 0;
    const gates: Array<ReturnType<typeof deferred>> = [];
    job = startPeriodicJob({
      run: async () => {
        active += 1;
        most = Math.max(most, active);
        passes += 1;
        const gate = deferred();
        gates.push(gate);
        await gate.promise;
        active -= 1;
      },
      intervalMs: 100,
      log: fakeLog(),
      failure: 'test run failed',
      first: 'at-once',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    // Five ticks and two asks while the first pass hangs: one pass waits behind it, no more.
    await vi.advanceTimersByTimeAsync(500);
    expect(passes).toBe(1);
    const asked = job.runNow();
    job.tick();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    gates[0]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(2);
    gates[1]!.resolve();
    await asked;
    await vi.advanceTimersByTimeAsync(100);
    expect(passes).toBe(3);
    gates[2]!.resolve();
    expect(most).toBe(1);
  });

  it('stop waits for the running pass and ends the timer', async () => {
    const gate = deferred();
    let passes = 0;
    let finished = false;
    job = startPeriodicJob({
      run: async () => {
        passes += 1;
        await gate.promise;
        finished = true;
      },
      intervalMs: 100,
      log: fakeLog(),
      failure: 'test run failed',
      first: 'at-once',
    });
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    job.tick();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
  });

  it('stop aborts the signal of the running pass, so it can end between two items', async () => {
    const gate = deferred();
    const items: number[] = [];
    job = startPeriodicJob({
      run: async (signal) => {
        for (let item = 1; item <= 5 && !signal.aborted; item += 1) {
          items.push(item);
          if (item === 2) await gate.promise;
        }
      },
      intervalMs: 100,
      log: fakeLog(),
      failure: 'test run failed',
      first: 'at-once',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(items).toEqual([1, 2]);
    const stopping = job.stop();
    gate.resolve();
    await stopping;
    expect(items).toEqual([1, 2]);
  });

  it('tells its status: when the running pass started, when the last ended, and how', async () => {
    const gate = deferred();
    let passes = 0;
    const started = Date.now();
    job = startPeriodicJob({
      run: async () => {
        passes += 1;
        if (passes === 1) await gate.promise;
        if (passes === 2) throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
      },
      intervalMs: 100,
      log: fakeLog(),
      failure: 'test run failed',
      first: 'at-once',
    });
    expect(job.status()).toEqual({
      intervalMs: 100,
      startedAt: started,
      stopped: false,
      runningSince: undefined,
      lastFinishedAt: undefined,
      lastFailureCode: undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(job.status().runningSince).toBe(started);
    await vi.advanceTimersByTimeAsync(50);
    gate.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(job.status()).toMatchObject({ runningSince: undefined, lastFinishedAt: started + 50 });
    await vi.advanceTimersByTimeAsync(100);
    expect(job.status()).toMatchObject({
      lastFinishedAt: started + 100,
      lastFailureCode: 'ECONNREFUSED',
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(job.status().lastFailureCode).toBeUndefined();
    await job.stop();
    expect(job.status().stopped).toBe(true);
  });

  it('logs a failed pass by its code only, and the next tick runs again', async () => {
    const log = fakeLog();
    let passes = 0;
    job = startPeriodicJob({
      run: async () => {
        passes += 1;
        if (passes === 1) {
          throw Object.assign(new Error('duplicate key (email)=(erika@example.org)'), {
            code: '23505',
          });
        }
        return 'ok';
      },
      intervalMs: 100,
      log,
      failure: 'test run failed',
      first: 'at-once',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledWith({ code: '23505' }, 'test run failed');
    expect(JSON.stringify(log.error.mock.calls)).not.toContain('erika');
    await vi.advanceTimersByTimeAsync(100);
    expect(passes).toBe(2);
    expect(log.error).toHaveBeenCalledTimes(1);
    await expect(job.runNow()).resolves.toBe('ok');
  });

  it('starts with a due check: a pass only when it says so, a failed check logged', async () => {
    const log = fakeLog();
    let passes = 0;
    const run = async () => {
      passes += 1;
    };
    job = startPeriodicJob({ run, intervalMs: 100, log, failure: 'f', first: async () => false });
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(0);
    await job.stop();

    job = startPeriodicJob({ run, intervalMs: 100, log, failure: 'f', first: async () => true });
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    await job.stop();

    job = startPeriodicJob({
      run,
      intervalMs: 100,
      log,
      failure: 'f',
      first: () => Promise.reject(Object.assign(new Error('x'), { code: '57P01' })),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(log.error).toHaveBeenCalledWith({ code: '57P01' }, 'f');
    await vi.advanceTimersByTimeAsync(100);
    expect(passes).toBe(2);
  });
});
