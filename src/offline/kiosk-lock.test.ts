// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { questionnaireLead } from '../testing/lead-fixtures.ts';
import { readDeviceSetting, writeDeviceSetting } from './device-settings.ts';
import {
  countSealed,
  forgetPin,
  kioskCounterLeft,
  kioskSealer,
  lockKiosk,
  readKioskKeys,
  tamperingMessage,
  throttleCopyKey,
  changeKioskPin,
  leaveKioskMode,
  turnKioskOff,
  turnKioskOn,
  unlockKiosk,
  unlockWaitMs,
  verifyKioskPin,
  writeSettingWithPin,
} from './kiosk-lock.ts';
import { forgetKioskSession, isKioskUnlocked, unlockedKioskKey } from './kiosk-session.ts';
import { openSealed, toBase64Url, type LegacyKioskKeys } from './lead-seal.ts';
import { kioskSettingKeys } from './offline-schema.ts';
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
  forgetKioskSession();
  writeDeviceSetting('kiosk', false);
  localStorage.clear();
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
    expect(await readKioskKeys(db)).toMatchObject({ v: 2, attempts: 0, kdf: { name: 'PBKDF2' } });
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
    expect(localStorage.getItem(throttleCopyKey)).toBeNull();
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

describe('settings that need the PIN while kiosk mode is on (issue 34)', () => {
  beforeEach(async () => {
    await turnKioskOn(db, pin, fast);
    lockKiosk();
  });

  it('confirms the PIN without unlocking the page, under the unlock throttle', async () => {
    expect(await verifyKioskPin(db, wrong, now)).toMatchObject({ ok: false, failures: 1 });
    // One counter for every use of the PIN: unlocking continues where confirming left off.
    expect(await unlockKiosk(db, wrong, now)).toMatchObject({ ok: false, failures: 2 });
    for (let failures = 3; failures <= 5; failures += 1) {
      expect(await verifyKioskPin(db, wrong, now)).toMatchObject({ failures });
    }
    expect(await verifyKioskPin(db, pin, now)).toEqual({
      ok: false,
      reason: 'wait',
      waitUntil: start + 30_000,
    });
    clock = start + 30_000;
    expect(await verifyKioskPin(db, pin, now)).toEqual({ ok: true });
    expect(isKioskUnlocked()).toBe(false);
    // The right PIN starts the count again, in both copies.
    expect(JSON.parse(localStorage.getItem(throttleCopyKey)!)).toMatchObject({ failures: 0 });
  });

  it('leaves kiosk mode only with the right PIN, and never while sealed leads wait', async () => {
    expect(await leaveKioskMode(db, wrong, now)).toMatchObject({ ok: false, reason: 'wrong-pin' });
    expect(readDeviceSetting('kiosk')).toBe(true);
    expect(await readKioskKeys(db)).toBeDefined();

    const lead = await capture();
    const before = localStorage.getItem(throttleCopyKey);
    expect(await leaveKioskMode(db, pin, now)).toEqual({ ok: false, sealed: 1 });
    // Refused before the PIN is tried: no attempt spent.
    expect(localStorage.getItem(throttleCopyKey)).toBe(before);
    expect(readDeviceSetting('kiosk')).toBe(true);

    await db.outbox.delete(lead.client_id);
    expect(await leaveKioskMode(db, pin, now)).toEqual({ ok: true });
    expect(readDeviceSetting('kiosk')).toBe(false);
    expect(await readKioskKeys(db)).toBeUndefined();
  });

  it("switches 'Offline simulieren' only with the right PIN in kiosk mode, freely otherwise", async () => {
    expect(await writeSettingWithPin(db, 'simulateOffline', true, undefined, now)).toEqual({
      ok: false,
      reason: 'pin-needed',
    });
    expect(await writeSettingWithPin(db, 'simulateOffline', true, wrong, now)).toMatchObject({
      ok: false,
      reason: 'wrong-pin',
    });
    expect(readDeviceSetting('simulateOffline')).toBe(false);
    expect(await writeSettingWithPin(db, 'simulateOffline', true, pin, now)).toEqual({ ok: true });
    expect(readDeviceSetting('simulateOffline')).toBe(true);
    expect(await writeSettingWithPin(db, 'simulateOffline', false, wrong, now)).toMatchObject({
      reason: 'wrong-pin',
    });
    expect(readDeviceSetting('simulateOffline')).toBe(true);
    expect(await writeSettingWithPin(db, 'simulateOffline', false, pin, now)).toEqual({ ok: true });

    expect(await leaveKioskMode(db, pin, now)).toEqual({ ok: true });
    expect(await writeSettingWithPin(db, 'simulateOffline', true, undefined, now)).toEqual({
      ok: true,
    });
    expect(readDeviceSetting('simulateOffline')).toBe(true);
    await writeDeviceSetting('simulateOffline', false);
  });

  it('asks for the PIN when the stored setting says fair mode although the mirror was cleared', async () => {
    // localStorage cleared (devtools, a stale tab): IndexedDB, which every sender reads, decides.
    localStorage.removeItem('geraet:kiosk-modus');
    expect(readDeviceSetting('kiosk')).toBe(false);
    expect(await writeSettingWithPin(db, 'simulateOffline', true, undefined, now)).toEqual({
      ok: false,
      reason: 'pin-needed',
    });
    expect(readDeviceSetting('simulateOffline')).toBe(false);
  });

  it('changes the PIN only with the right one; the sealed leads stay readable with the new PIN', async () => {
    const lead = await capture();
    const newPin = '97531864';
    await expect(changeKioskPin(db, pin, '123', now)).rejects.toThrow(
      'Die PIN muss aus mindestens 6 Ziffern bestehen.',
    );
    expect(await changeKioskPin(db, wrong, newPin, now)).toMatchObject({
      ok: false,
      reason: 'wrong-pin',
      failures: 1,
    });
    expect(await changeKioskPin(db, pin, newPin, now)).toEqual({ ok: true });
    expect(isKioskUnlocked()).toBe(false);

    expect(await unlockKiosk(db, pin, now)).toMatchObject({ ok: false, reason: 'wrong-pin' });
    expect(await unlockKiosk(db, newPin, now)).toEqual({ ok: true });
    expect(await openWithSession(lead.client_id)).toEqual(lead);
    // Leads captured after the change are sealed for the same key pair.
    lockKiosk();
    const later = await capture();
    expect(await unlockKiosk(db, newPin, now)).toEqual({ ok: true });
    expect(await openWithSession(later.client_id)).toEqual(later);
  });

  it('a page unlocked before the change stays unlocked and seals for the checked key', async () => {
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });
    expect(await changeKioskPin(db, pin, '86420975', now)).toEqual({ ok: true });
    expect(isKioskUnlocked()).toBe(true);
    const lead = await capture();
    expect(await openWithSession(lead.client_id)).toEqual(lead);
  });
});

const curve = { name: 'ECDH', namedCurve: 'P-256' } as const;

/** Someone else's key pair: what an attacker with write access to IndexedDB would put in. */
async function strangerKeys() {
  const pair = await crypto.subtle.generateKey(curve, true, ['deriveBits']);
  return {
    privateKey: pair.privateKey,
    publicKey: toBase64Url(await crypto.subtle.exportKey('raw', pair.publicKey)),
  };
}

/** Writes the stored keys record as an attacker would, without the PIN. */
async function alterKeys(change: Record<string, unknown>) {
  const record = await db.settings.get(kioskSettingKeys.keys);
  await db.settings.put({
    key: kioskSettingKeys.keys,
    value: { ...(record?.value as object), ...change },
  });
}

/** Sets both copies of the unlock counter, as an attacker who found them both would. */
async function setCounter(value: unknown) {
  await db.settings.put({ key: kioskSettingKeys.throttle, value });
  localStorage.setItem(throttleCopyKey, JSON.stringify(value));
}

/** Opens a stored sealed lead with the key this page unlocked. */
async function openWithSession(clientId: string) {
  const item = await db.outbox.get(clientId);
  const key = unlockedKioskKey();
  if (!item?.sealed || !key) throw new Error('no sealed lead or no unlocked key');
  return openSealed(key.privateKey, key.publicKey, item.sealed, clientId);
}

/**
 * A record exactly as tablets set up before issue 32 stored it: the private key wrapped directly
 * by the PBKDF2 key, the public key beside it, no tag.
 */
async function legacyKeys(pinText: string): Promise<LegacyKioskKeys> {
  const pair = await crypto.subtle.generateKey(curve, true, ['deriveBits']);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(pinText),
    'PBKDF2',
    false,
    ['deriveKey'],
  );
  const wrappingKey = await crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: fast.iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const wrapped = await crypto.subtle.wrapKey('pkcs8', pair.privateKey, wrappingKey, {
    name: 'AES-GCM',
    iv,
  });
  return {
    v: 1,
    publicKey: toBase64Url(await crypto.subtle.exportKey('raw', pair.publicKey)),
    wrappedPrivateKey: toBase64Url(wrapped),
    wrapIv: toBase64Url(iv),
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: fast.iterations, salt: toBase64Url(salt) },
  };
}

describe('the stored public key is bound to the PIN (issue 32, item 9)', () => {
  it('a key swapped while the tablet is locked is found when the PIN is entered; its leads are kept as unreadable, the rest is sent', async () => {
    await turnKioskOn(db, pin, fast);
    const genuine = (await readKioskKeys(db))?.publicKey;
    const before = await capture();
    // The tablet restarts; its page knows no key. Someone swaps the stored public key.
    forgetKioskSession();
    const stranger = await strangerKeys();
    await alterKeys({ publicKey: stranger.publicKey });
    const after = await capture();
    // What the swap is for: the stranger reads every lead captured since.
    const stolen = await db.outbox.get(after.client_id);
    expect(
      await openSealed(stranger.privateKey, stranger.publicKey, stolen!.sealed!, after.client_id),
    ).toEqual(after);

    const result = await unlockKiosk(db, pin, now);
    expect(result).toEqual({
      ok: true,
      tampered: { key: true, counter: false, unreadable: 1 },
    });
    if (!result.ok || !result.tampered) throw new Error('not reported');
    const message = tamperingMessage(result.tampered);
    expect(message).toMatch(/^Die Schlüssel dieses Tablets wurden verändert/);
    expect(message).toContain(
      '1 Anfrage ist mit dem fremden Schlüssel verschlüsselt: Weder Sie noch wir können sie lesen oder senden.',
    );

    // The real key is back, authenticated; the lead sealed for the stranger is kept, marked.
    expect(await readKioskKeys(db)).toMatchObject({ v: 2, publicKey: genuine });
    expect(await db.outbox.get(after.client_id)).toMatchObject({
      status: 'rejected',
      rejected_code: 'sealed_unreadable',
    });
    expect(await db.outbox.get(before.client_id)).toMatchObject({ status: 'waiting' });
    expect(await openWithSession(before.client_id)).toEqual(before);
    // New leads are sealed for the device again, and the next unlock finds nothing wrong.
    const next = await capture();
    expect(await openWithSession(next.client_id)).toEqual(next);
    forgetKioskSession();
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });
  });

  it('a page that has checked the key keeps sealing with it after a swap', async () => {
    await turnKioskOn(db, pin, fast);
    lockKiosk();
    await alterKeys({ publicKey: (await strangerKeys()).publicKey });
    const lead = await capture();
    const result = await unlockKiosk(db, pin, now);
    expect(result).toMatchObject({ ok: true, tampered: { key: true, unreadable: 0 } });
    expect(await openWithSession(lead.client_id)).toEqual(lead);
  });

  it('a wrong PIN is still only a wrong PIN, and a swap does not lock the agent out', async () => {
    await turnKioskOn(db, pin, fast);
    forgetKioskSession();
    await alterKeys({ publicKey: (await strangerKeys()).publicKey });
    expect(await unlockKiosk(db, wrong, now)).toMatchObject({ ok: false, reason: 'wrong-pin' });
    expect(await unlockKiosk(db, pin, now)).toMatchObject({ ok: true, tampered: { key: true } });
  });
});

describe('a keys record deleted without the PIN (issue 32, item 9)', () => {
  it('leaves the counter copy behind, which the panel reports; the legitimate ways out do not', async () => {
    expect(kioskCounterLeft()).toBe(false);
    await turnKioskOn(db, pin, fast);
    expect(kioskCounterLeft()).toBe(true);
    await db.settings.delete(kioskSettingKeys.keys);
    expect(await readKioskKeys(db)).toBeUndefined();
    expect(kioskCounterLeft()).toBe(true);

    await turnKioskOn(db, pin, fast);
    expect(await turnKioskOff(db)).toEqual({ ok: true });
    expect(kioskCounterLeft()).toBe(false);
    await turnKioskOn(db, pin, fast);
    await forgetPin(db);
    expect(kioskCounterLeft()).toBe(false);
  });
});

describe('the unlock counter is bound to the PIN (issue 32, item 9)', () => {
  beforeEach(async () => {
    await turnKioskOn(db, pin, fast);
    forgetKioskSession();
  });

  it('one copy deleted: the other still makes the tablet wait, and the PIN reports it', async () => {
    for (let i = 0; i < 5; i += 1) await unlockKiosk(db, wrong, now);
    await db.settings.delete(kioskSettingKeys.throttle);
    clock = start + 1_000;
    expect(await unlockKiosk(db, pin, now)).toEqual({
      ok: false,
      reason: 'wait',
      waitUntil: start + 30_000,
    });
    clock = start + 30_000;
    const result = await unlockKiosk(db, pin, now);
    expect(result).toEqual({ ok: true, tampered: { key: false, counter: true, unreadable: 0 } });
    if (!result.ok || !result.tampered) throw new Error('not reported');
    expect(tamperingMessage(result.tampered)).toMatch(
      /^Der Zähler der PIN-Versuche dieses Tablets wurde zurückgesetzt/,
    );
    // Reported once: the state is whole again.
    forgetKioskSession();
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });
  });

  it('both copies deleted after wrong PINs: reported at the PIN', async () => {
    for (let i = 0; i < 5; i += 1) await unlockKiosk(db, wrong, now);
    await db.settings.delete(kioskSettingKeys.throttle);
    localStorage.removeItem(throttleCopyKey);
    expect(await unlockKiosk(db, pin, now)).toMatchObject({
      ok: true,
      tampered: { counter: true },
    });
  });

  it('both copies set back below the count the PIN authenticated: reported at the PIN', async () => {
    await unlockKiosk(db, wrong, now);
    await unlockKiosk(db, wrong, now);
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });
    forgetKioskSession();
    for (let i = 0; i < 5; i += 1) await unlockKiosk(db, wrong, now);
    await setCounter({ attempts: 1, failures: 0, blockedUntil: 0 });
    expect(await unlockKiosk(db, pin, now)).toMatchObject({
      ok: true,
      tampered: { key: false, counter: true },
    });
  });

  it('the authenticated count itself set back: reported at the PIN', async () => {
    for (let i = 0; i < 3; i += 1) await unlockKiosk(db, wrong, now);
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });
    forgetKioskSession();
    for (let i = 0; i < 5; i += 1) await unlockKiosk(db, wrong, now);
    await alterKeys({ attempts: 0 });
    await setCounter({ attempts: 0, failures: 0, blockedUntil: 0 });
    expect(await unlockKiosk(db, pin, now)).toMatchObject({
      ok: true,
      tampered: { key: false, counter: true },
    });
  });
  it('a current record relabelled as the first format, to skip the checks: reported at the PIN', async () => {
    for (let i = 0; i < 5; i += 1) await unlockKiosk(db, wrong, now);
    const record = (await db.settings.get(kioskSettingKeys.keys))?.value as Record<string, unknown>;
    const { attempts: _attempts, tag: _tag, ...relabelled } = record;
    await db.settings.put({ key: kioskSettingKeys.keys, value: { ...relabelled, v: 1 } });
    await setCounter({ failures: 0, blockedUntil: 0 });
    expect(await unlockKiosk(db, pin, now)).toMatchObject({
      ok: true,
      tampered: { key: false, counter: true },
    });
    expect(await readKioskKeys(db)).toMatchObject({ v: 2 });
  });
});

describe('a tablet set up in the first format (before issue 32)', () => {
  it('keeps its leads and its count, and is upgraded at the next successful unlock', async () => {
    const legacy = await legacyKeys(pin);
    await db.settings.bulkPut([
      { key: kioskSettingKeys.keys, value: legacy },
      { key: kioskSettingKeys.throttle, value: { failures: 2, blockedUntil: start } },
    ]);
    writeDeviceSetting('kiosk', true);
    const lead = await capture();

    expect(await unlockKiosk(db, wrong, now)).toMatchObject({ reason: 'wrong-pin', failures: 3 });
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });
    expect(await openWithSession(lead.client_id)).toEqual(lead);
    const upgraded = await readKioskKeys(db);
    expect(upgraded).toMatchObject({ v: 2, publicKey: legacy.publicKey, attempts: 4 });
    expect(upgraded?.wrappedPrivateKey).not.toBe(legacy.wrappedPrivateKey);

    // The upgraded record opens with the same PIN, and now catches a swap.
    forgetKioskSession();
    expect(await unlockKiosk(db, pin, now)).toEqual({ ok: true });
    forgetKioskSession();
    await alterKeys({ publicKey: (await strangerKeys()).publicKey });
    expect(await unlockKiosk(db, pin, now)).toMatchObject({ tampered: { key: true } });
  });

  it('a key swapped before the upgrade is found by it', async () => {
    const legacy = await legacyKeys(pin);
    await db.settings.put({
      key: kioskSettingKeys.keys,
      value: { ...legacy, publicKey: (await strangerKeys()).publicKey },
    });
    writeDeviceSetting('kiosk', true);
    await capture();
    expect(await unlockKiosk(db, pin, now)).toEqual({
      ok: true,
      tampered: { key: true, counter: false, unreadable: 1 },
    });
    expect(await readKioskKeys(db)).toMatchObject({ v: 2, publicKey: legacy.publicKey });
  });
});
