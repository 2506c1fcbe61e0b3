// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubmissionResult } from '../domain/submission.ts';
import { questionnaireLead } from '../testing/lead-fixtures.ts';
import { writeDeviceSetting } from './device-settings.ts';
import { forgetPin, lockKiosk, turnKioskOn, unlockKiosk } from './kiosk-lock.ts';
import { offlineDb } from './offline-db.ts';
import { putSetting } from './outbox-db.ts';
import { submitLead } from './submit-lead.ts';
import { syncNow } from './sync-scheduler.ts';

// A lead handed over by a screen, through the device's own outbox, scheduler and hub client, to
// a fetch standing in for the hub: the posted lead says whether it waited on the device.

type Posted = { client_id: string; waited_offline?: unknown };

let posted: Posted[];
let hubDown: boolean;

function hubFetch(_url: string, init: RequestInit): Promise<Response> {
  if (hubDown) return Promise.reject(new TypeError('Failed to fetch'));
  const { submissions } = JSON.parse(String(init.body)) as { submissions: Posted[] };
  posted.push(...submissions);
  const results: SubmissionResult[] = submissions.map(({ client_id }, index) => ({
    index,
    client_id,
    status: 'created',
    id: index + 1,
  }));
  return Promise.resolve(
    new Response(JSON.stringify({ results }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
  );
}

/** What the hub was told about the lead: undefined while it has not arrived. */
const flagOf = (clientId: string) => posted.find((s) => s.client_id === clientId)?.waited_offline;

beforeEach(() => {
  posted = [];
  hubDown = false;
  vi.stubGlobal('fetch', vi.fn(hubFetch));
});

afterEach(async () => {
  await writeDeviceSetting('simulateOffline', false);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await offlineDb().outbox.clear();
});

describe('submitLead tells the hub whether the lead waited offline', () => {
  it('online: sent at once, it did not wait', async () => {
    const lead = questionnaireLead();
    expect(await submitLead(lead)).toEqual({ status: 'sent' });
    expect(posted).toEqual([{ ...lead, waited_offline: false }]);
  });

  it("'Offline simulieren': held on the device, it waited once the simulation ends", async () => {
    await writeDeviceSetting('simulateOffline', true);
    const lead = questionnaireLead();
    expect(await submitLead(lead)).toEqual({ status: 'queued' });
    expect(posted).toEqual([]);

    await writeDeviceSetting('simulateOffline', false);
    await vi.waitFor(() => expect(flagOf(lead.client_id)).toBe(true));
  });

  it('the browser offline: held on the device, it waited once the connection is back', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const lead = questionnaireLead();
    expect(await submitLead(lead)).toEqual({ status: 'queued' });
    expect(posted).toEqual([]);

    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(flagOf(lead.client_id)).toBe(true));
  });

  it('the hub not reached at the first attempt: it waited', async () => {
    hubDown = true;
    const lead = questionnaireLead();
    expect(await submitLead(lead)).toEqual({ status: 'queued' });

    hubDown = false;
    await syncNow(true);
    expect(flagOf(lead.client_id)).toBe(true);
  });
});

describe('submitLead and the sending rule stored in IndexedDB', () => {
  const mirrorKey = 'geraet:offline-simulation';

  /** Background Sync as Chromium offers it, recording each registration. */
  function backgroundSync() {
    const register = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: () => Promise.resolve({ sync: { register } }) },
    });
    return register;
  }

  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
    localStorage.removeItem(mirrorKey);
  });

  it('holds when the store says "Offline simulieren" before this page heard of it', async () => {
    // Another tab committed the simulation; its mirror write and storage event are still to come.
    await putSetting(offlineDb(), 'simulateOffline', true);
    const lead = questionnaireLead();

    expect(await submitLead(lead)).toEqual({ status: 'queued' });
    await syncNow(true);
    expect(posted).toEqual([]);

    await putSetting(offlineDb(), 'simulateOffline', false);
    await syncNow(true);
    expect(posted).toEqual([{ ...lead, waited_offline: true }]);
  });

  it('sends at once when another tab switches the simulation off', async () => {
    // Another tab switches it on: the store, then the mirror, which this page hears of.
    await putSetting(offlineDb(), 'simulateOffline', true);
    localStorage.setItem(mirrorKey, 'an');
    window.dispatchEvent(new StorageEvent('storage', { key: mirrorKey, newValue: 'an' }));
    const lead = questionnaireLead();
    expect(await submitLead(lead)).toEqual({ status: 'queued' });

    // And off again, in the same order.
    await putSetting(offlineDb(), 'simulateOffline', false);
    localStorage.removeItem(mirrorKey);
    window.dispatchEvent(new StorageEvent('storage', { key: mirrorKey, oldValue: 'an' }));

    await vi.waitFor(() => expect(posted).toEqual([{ ...lead, waited_offline: true }]));
  });

  it('asks for no Background Sync while simulated, and for one while offline', async () => {
    const register = backgroundSync();
    await writeDeviceSetting('simulateOffline', true);
    expect(await submitLead(questionnaireLead())).toEqual({ status: 'queued' });
    expect(register).not.toHaveBeenCalled();

    await writeDeviceSetting('simulateOffline', false);
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(await submitLead(questionnaireLead())).toEqual({ status: 'queued' });
    await vi.waitFor(() => expect(register).toHaveBeenCalledWith('outbox-sync'));
    onLine.mockReturnValue(true);
  });
});

describe('submitLead on a fair tablet with a PIN (kiosk mode)', () => {
  afterEach(async () => {
    lockKiosk();
    await writeDeviceSetting('kiosk', false);
  });

  it('while locked: sealed on the device and held; sent once after unlocking', async () => {
    await turnKioskOn(offlineDb(), '271828', { iterations: 1_000 });
    lockKiosk();
    const lead = questionnaireLead();

    expect(await submitLead(lead)).toEqual({ status: 'queued' });
    expect(posted).toEqual([]);
    const stored = await offlineDb().outbox.get(lead.client_id);
    expect(stored?.submission).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain(lead.email);
    // The page's triggers find nothing they can send while locked.
    await syncNow(true);
    expect(posted).toEqual([]);

    expect(await unlockKiosk(offlineDb(), '271828')).toEqual({ ok: true });
    await syncNow(true);
    await syncNow(true);
    // Held back by the lock, it waited on the device.
    expect(posted).toEqual([{ ...lead, waited_offline: true }]);
    expect(await offlineDb().outbox.count()).toBe(0);
    expect(await forgetPin(offlineDb())).toBe(0);
  });

  it("the device's keys decide: with the kiosk switch lost, leads are still sealed", async () => {
    await turnKioskOn(offlineDb(), '271828', { iterations: 1_000 });
    lockKiosk();
    // Fair mode's setting switched off (or lost), its keys kept.
    await writeDeviceSetting('kiosk', false);
    const lead = questionnaireLead();

    expect(await submitLead(lead)).toEqual({ status: 'queued' });
    expect((await offlineDb().outbox.get(lead.client_id))?.sealed).toBeDefined();
    expect(posted).toEqual([]);
    await forgetPin(offlineDb());
  });

  it('while unlocked: sealed on the device all the same, and sent at once', async () => {
    await turnKioskOn(offlineDb(), '271828', { iterations: 1_000 });
    const lead = questionnaireLead();
    const stored = vi.spyOn(offlineDb().outbox, 'add');

    expect(await submitLead(lead)).toEqual({ status: 'sent' });
    expect(stored.mock.calls[0]?.[0]).toMatchObject({ client_id: lead.client_id });
    expect(stored.mock.calls[0]?.[0]).not.toHaveProperty('submission');
    expect(posted).toEqual([{ ...lead, waited_offline: false }]);
    await forgetPin(offlineDb());
  });
});
