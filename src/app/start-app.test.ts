// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { readDeviceSetting } from '../offline/device-settings.ts';
import { enqueue } from '../offline/outbox.ts';
import { getSetting, openOfflineDb, putSetting } from '../offline/outbox-db.ts';

// The public pages start the outbox's sender (Dexie, the hub client, zod) only once a lead waits:
// Dexie's change notice or the 'online' event makes the page look again.

const lockCode = vi.hoisted(() => ({ loaded: false }));
vi.mock('../offline/kiosk-lock.ts', () => {
  lockCode.loaded = true;
  return {};
});
vi.mock('../offline/start-device.ts', () => ({ startDevice: vi.fn() }));
vi.mock('../offline/definitions-warmup.ts', () => ({
  warmDefinitionsLightly: vi.fn(() => Promise.resolve()),
}));

const { startDevice } = await import('../offline/start-device.ts');
const { warmDefinitionsLightly } = await import('../offline/definitions-warmup.ts');
const { startApp } = await import('./start-app.ts');

const db = openOfflineDb();

beforeAll(async () => {
  // A tablet set up before IndexedDB held fair mode (the mirror only), whose simulation a tester
  // switched off in IndexedDB while this mirror still says on.
  localStorage.setItem('geraet:kiosk-modus', 'an');
  localStorage.setItem('geraet:offline-simulation', 'an');
  await putSetting(db, 'simulateOffline', false);
  startApp();
});

afterAll(async () => {
  await db.delete();
});

it("makes the settings' mirror follow IndexedDB, keeping a fair mode only the mirror had", async () => {
  await vi.waitFor(() => expect(readDeviceSetting('simulateOffline')).toBe(false));
  expect(await getSetting(db, 'kiosk')).toBe(true);
  expect(readDeviceSetting('kiosk')).toBe(true);
});

it("fetches the lock's code on a fair tablet while the page opens, before any lead is typed", async () => {
  await vi.waitFor(() => expect(lockCode.loaded).toBe(true));
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
