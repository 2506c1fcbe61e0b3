import { afterEach, expect, it, vi } from 'vitest';
import { warmDefinitions } from './definitions.ts';
import { startDevice } from './start-device.ts';
import { startSyncScheduler } from './sync-scheduler.ts';

vi.mock('./sync-scheduler.ts', () => ({ startSyncScheduler: vi.fn() }));
vi.mock('./definitions.ts', () => ({ warmDefinitions: vi.fn(() => Promise.resolve()) }));

afterEach(() => {
  vi.unstubAllGlobals();
});

it('does nothing outside a browser, and starts the work once however often it is called', () => {
  startDevice();
  expect(startSyncScheduler).not.toHaveBeenCalled();
  expect(warmDefinitions).not.toHaveBeenCalled();

  vi.stubGlobal('window', {});
  startDevice();
  startDevice();
  expect(startSyncScheduler).toHaveBeenCalledTimes(1);
  expect(warmDefinitions).toHaveBeenCalledTimes(1);
});
