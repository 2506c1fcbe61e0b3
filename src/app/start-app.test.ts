// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { enqueue } from '../offline/outbox.ts';
import { openOfflineDb } from '../offline/outbox-db.ts';

// The public pages start the outbox's sender (Dexie, the hub client, zod) only once a lead waits:
// Dexie's change notice or the 'online' event makes the page look again.

vi.mock('../offline/start-device.ts', () => ({ startDevice: vi.fn() }));
vi.mock('../offline/definitions-warmup.ts', () => ({
  warmDefinitionsLightly: vi.fn(() => Promise.resolve()),
}));

const { startDevice } = await import('../offline/start-device.ts');
const { warmDefinitionsLightly } = await import('../offline/definitions-warmup.ts');
const { startApp } = await import('./start-app.ts');

const db = openOfflineDb();

beforeAll(() => {
  startApp();
});

afterAll(async () => {
  await db.delete();
});

it('warms the questionnaires but loads no sender while nothing waits', async () => {
  await vi.waitFor(() => expect(warmDefinitionsLightly).toHaveBeenCalledTimes(1));
  expect(startDevice).not.toHaveBeenCalled();
});

it('starts the sender once a lead waits, and only once', async () => {
  await enqueue(db, { client_id: 'a', form_id: 1, source: 'contact' }, 1);
  window.dispatchEvent(new Event('online'));
  await vi.waitFor(() => expect(startDevice).toHaveBeenCalledTimes(1));

  window.dispatchEvent(new Event('online'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(startDevice).toHaveBeenCalledTimes(1);
});
