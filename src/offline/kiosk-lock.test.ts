// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { questionnaireLead } from '../testing/lead-fixtures.ts';
import { readDeviceSetting, writeDeviceSetting } from './device-settings.ts';
import {
  countSealed,
  forgetPin,
  kioskSealer,
  lockKiosk,
  readKioskKeys,
  turnKioskOff,
  turnKioskOn,
  unlockKiosk,
  unlockWaitMs,
} from './kiosk-lock.ts';
import { isKioskUnlocked } from './kiosk-session.ts';
import { openOfflineDb, type OfflineDb } from './outbox-db.ts';
import { enqueue } from './outbox.ts';

const fast = { iterations: 1_000 };
const pin = '135790';
const wrong = '000000';
const start = 1_700_000_000_000;

let db: OfflineDb;
let clock: number;
const now = () => clock;

beforeEach(() => {
  db = openOfflineDb(`test-${crypto.randomUUID()}`);
  clock = start;
});

afterEach(async () => {
  lockKiosk();
  writeDeviceSetting('kiosk', false);
  db.close();
  await Dexie.delete(db.name);
});

/** Queues a lead the way submitLead does on this device now. */
async function capture() {
  const lead = questionnaireLead();
  await enqueue(db, lead, clock, await kioskSealer(db));
  return lead;
}

describe('turning kiosk mode on', () => {
  it('stores the keys, turns kiosk mode on and leaves this page unlocked', async () => {
    await turnKioskOn(db, pin, fast);
    expect(await readKioskKeys(db)).toMatchObject({ v: 1, kdf: { name: 'PBKDF2' } });
    expect(readDeviceSetting('kiosk')).toBe(true);
    expect(isKioskUnlocked()).toBe(true);
  });

  it('refuses a PIN shorter than 6 digits or with other characters', async () => {
    await expect(turnKioskOn(db, '12345', fast)).rejects.toThrow(
      'Die PIN muss aus mindestens 6 Ziffern bestehen.',
    );
    await expect(turnKioskOn(db, '12345a', fast)).rejects.toThrow(
      'Die PIN darf nur aus Ziffern bestehen.',
    );
    expect(await readKioskKeys(db)).toBeUndefined();
    expect(readDeviceSetting('kiosk')).toBe(false);
  });

  it('seals captures while locked; without a PIN set nothing is sealed', async () => {
    expect(await kioskSealer(db)).toBeUndefined();
    await turnKioskOn(db, pin, fast);
    lockKiosk();
    const lead = await capture();
    const stored = await db.outbox.get(lead.client_id);
    expect(stored?.sealed).toBeDefined();
    expect(stored?.submission).toBeUndefined();
    expect(await countSealed(db)).toBe(1);
  });
});

describe('unlocking', () => {
  beforeEach(async () => {
    await turnKioskOn(db, pin, fast);
    lockKiosk();
  });

  it('unlocks with the PIN only', async () => {
    expect(await unlockKiosk(db, wrong, now)).toMatchObject({ ok: false, reason: 'wrong-pin' });
    expect(isKioskUnlocked()).toBe(false);
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });
    expect(isKioskUnlocked()).toBe(true);
  });

  it('gives 5 free attempts, then waits 30 s doubling, kept across a reload', async () => {
    for (let failures = 1; failures <= 4; failures += 1) {
      expect(await unlockKiosk(db, wrong, now)).toEqual({
        ok: false,
        reason: 'wrong-pin',
        failures,
        waitUntil: start,
      });
    }
    expect(await unlockKiosk(db, wrong, now)).toEqual({
      ok: false,
      reason: 'wrong-pin',
      failures: 5,
      waitUntil: start + 30_000,
    });
    // During the wait even the right PIN is not tried.
    clock = start + 29_000;
    expect(await unlockKiosk(db, pin, now)).toEqual({
      ok: false,
      reason: 'wait',
      waitUntil: start + 30_000,
    });
    expect(isKioskUnlocked()).toBe(false);

    // A reload: the database is opened anew, the count stays.
    const name = db.name;
    db.close();
    db = openOfflineDb(name);
    clock = start + 30_000;
    expect(await unlockKiosk(db, wrong, now)).toMatchObject({
      failures: 6,
      waitUntil: clock + 60_000,
    });
    clock += 60_000;
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });

    // Success starts the count again.
    lockKiosk();
    expect(await unlockKiosk(db, wrong, now)).toMatchObject({ failures: 1, waitUntil: clock });
  });

  it('waits at most 15 minutes', () => {
    expect([4, 5, 6, 7, 9, 10, 30].map(unlockWaitMs)).toEqual([
      0, 30_000, 60_000, 120_000, 480_000, 900_000, 900_000,
    ]);
  });
});

describe('the ways out', () => {
  beforeEach(async () => {
    await turnKioskOn(db, pin, fast);
  });

  it('refuses to switch kiosk mode off while sealed leads wait, allows it once they are gone', async () => {
    const lead = await capture();
    expect(await turnKioskOff(db)).toEqual({ ok: false, sealed: 1 });
    expect(readDeviceSetting('kiosk')).toBe(true);
    expect(await readKioskKeys(db)).toBeDefined();

    // Sent (the sync engine deletes what the hub stored).
    await db.outbox.delete(lead.client_id);
    expect(await turnKioskOff(db)).toEqual({ ok: true });
    expect(readDeviceSetting('kiosk')).toBe(false);
    expect(await readKioskKeys(db)).toBeUndefined();
    expect(isKioskUnlocked()).toBe(false);
  });

  it("'PIN vergessen' deletes the sealed leads and the keys, and keeps plain leads", async () => {
    const plain = questionnaireLead();
    await enqueue(db, plain, clock);
    await capture();
    await capture();
    await unlockKiosk(db, wrong, now);

    expect(await forgetPin(db)).toBe(2);
    expect((await db.outbox.toArray()).map((item) => item.client_id)).toEqual([plain.client_id]);
    expect(await readKioskKeys(db)).toBeUndefined();
    expect(await db.settings.count()).toBe(0);
    expect(readDeviceSetting('kiosk')).toBe(false);
    expect(isKioskUnlocked()).toBe(false);
  });

  it('does not replace the keys while leads sealed with them wait', async () => {
    await capture();
    await expect(turnKioskOn(db, '246810', fast)).rejects.toThrow(
      'Auf diesem Gerät warten noch verschlüsselte Anfragen.',
    );
  });
});
