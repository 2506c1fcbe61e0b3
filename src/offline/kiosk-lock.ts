// Kiosk mode's lock: the PIN the agent sets when turning kiosk mode on, the device's keys in the
// settings store, unlocking with throttling, and the ways out (switch off, forgotten PIN).
// The crypto itself is in lead-seal.ts; the unlocked key lives in kiosk-session.ts (memory).

import { writeDeviceSetting } from './device-settings.ts';
import {
  createKioskKeys,
  sealSubmission,
  unlockKioskKeys,
  WrongPinError,
  type KioskKeys,
} from './lead-seal.ts';
import { setUnlockedKioskKey } from './kiosk-session.ts';
import { kioskSettingKeys, type OutboxSubmission, type SealedLead } from './offline-schema.ts';
import { getSetting, putSetting, type OfflineDb } from './outbox-db.ts';

export type Sealer = (submission: OutboxSubmission) => Promise<SealedLead>;

/** Unlock attempts before the first wait. */
export const freeUnlockAttempts = 5;
const firstWaitMs = 30_000;
const maxWaitMs = 15 * 60_000;

export const pinMessages = {
  short: 'Die PIN muss aus mindestens 6 Ziffern bestehen.',
  digits: 'Die PIN darf nur aus Ziffern bestehen.',
  mismatch: 'Die beiden Eingaben stimmen nicht überein.',
  empty: 'Bitte geben Sie die PIN ein.',
} as const;

/** A German message when `pin` is no valid new PIN, else undefined. */
export function pinRuleMessage(pin: string): string | undefined {
  if (!/^\d*$/.test(pin)) return pinMessages.digits;
  if (pin.length < 6) return pinMessages.short;
  return undefined;
}

function isKioskKeys(value: unknown): value is KioskKeys {
  if (typeof value !== 'object' || value === null) return false;
  const keys = value as Partial<KioskKeys>;
  return (
    keys.v === 1 &&
    typeof keys.publicKey === 'string' &&
    typeof keys.wrappedPrivateKey === 'string' &&
    typeof keys.wrapIv === 'string' &&
    keys.kdf?.name === 'PBKDF2' &&
    keys.kdf.hash === 'SHA-256' &&
    Number.isInteger(keys.kdf.iterations) &&
    typeof keys.kdf.salt === 'string'
  );
}

/** The device's stored keys, or undefined when kiosk mode has no PIN on this device. */
export async function readKioskKeys(db: OfflineDb): Promise<KioskKeys | undefined> {
  const value = await getSetting(db, kioskSettingKeys.keys);
  return isKioskKeys(value) ? value : undefined;
}

interface Throttle {
  failures: number;
  /** Epoch ms before which no attempt is taken. */
  blockedUntil: number;
}

async function readThrottle(db: OfflineDb): Promise<Throttle> {
  const value = (await getSetting(db, kioskSettingKeys.throttle)) as Partial<Throttle> | undefined;
  return {
    failures: typeof value?.failures === 'number' ? value.failures : 0,
    blockedUntil: typeof value?.blockedUntil === 'number' ? value.blockedUntil : 0,
  };
}

/** The wait after `failures` wrong PINs: none for the first five, then 30 s doubling to 15 min. */
export function unlockWaitMs(failures: number): number {
  if (failures < freeUnlockAttempts) return 0;
  return Math.min(maxWaitMs, firstWaitMs * 2 ** (failures - freeUnlockAttempts));
}

/** How many sealed leads the device holds (waiting or rejected). */
export function countSealed(db: OfflineDb): Promise<number> {
  return db.outbox.filter((item) => item.sealed !== undefined).count();
}

/**
 * Turns kiosk mode on with a new PIN: a new key pair, its private key wrapped by the PIN, and
 * this page unlocked. The caller has shown the warning that a forgotten PIN loses the queue.
 */
export async function turnKioskOn(
  db: OfflineDb,
  pin: string,
  options: { iterations?: number } = {},
): Promise<void> {
  const problem = pinRuleMessage(pin);
  if (problem) throw new Error(problem);
  // Keys of an earlier PIN would strand the leads they sealed: only replaced when none wait.
  if ((await readKioskKeys(db)) && (await countSealed(db)) > 0) {
    throw new Error('Auf diesem Gerät warten noch verschlüsselte Anfragen.');
  }
  const { keys, privateKey } = await createKioskKeys(pin, options);
  await db.transaction('rw', db.settings, async () => {
    await putSetting(db, kioskSettingKeys.keys, keys);
    await db.settings.delete(kioskSettingKeys.throttle);
  });
  setUnlockedKioskKey({ privateKey, publicKey: keys.publicKey });
  writeDeviceSetting('kiosk', true);
}

export type UnlockResult =
  | { ok: true }
  | { ok: false; reason: 'wrong-pin'; failures: number; waitUntil: number }
  | { ok: false; reason: 'wait'; waitUntil: number }
  | { ok: false; reason: 'no-keys' };

/**
 * Unlocks this page with the agent's PIN. Wrong PINs are counted on the device (a reload does
 * not reset them): five are free, then each attempt waits 30 s, doubling up to 15 minutes. The
 * PBKDF2 cost slows a guess at the stored keys; the waits slow guesses at the tablet itself.
 */
export async function unlockKiosk(
  db: OfflineDb,
  pin: string,
  now: () => number = Date.now,
): Promise<UnlockResult> {
  const keys = await readKioskKeys(db);
  if (!keys) return { ok: false, reason: 'no-keys' };
  const throttle = await readThrottle(db);
  if (throttle.blockedUntil > now()) {
    return { ok: false, reason: 'wait', waitUntil: throttle.blockedUntil };
  }
  try {
    const privateKey = await unlockKioskKeys(keys, pin);
    await db.settings.delete(kioskSettingKeys.throttle);
    setUnlockedKioskKey({ privateKey, publicKey: keys.publicKey });
    return { ok: true };
  } catch (error) {
    if (!(error instanceof WrongPinError)) throw error;
    const failures = throttle.failures + 1;
    const waitUntil = now() + unlockWaitMs(failures);
    await putSetting(db, kioskSettingKeys.throttle, { failures, blockedUntil: waitUntil });
    return { ok: false, reason: 'wrong-pin', failures, waitUntil };
  }
}

/** Forgets the unlocked key in this page; new leads are still sealed and kept. */
export function lockKiosk(): void {
  setUnlockedKioskKey(undefined);
}

export type TurnOffResult = { ok: true } | { ok: false; sealed: number };

/**
 * Turns kiosk mode off and removes the keys, but never while sealed leads wait: they would be
 * readable by nobody. They are sent first (unlock) or discarded on purpose (forgetPin).
 */
export async function turnKioskOff(db: OfflineDb): Promise<TurnOffResult> {
  const sealed = await countSealed(db);
  if (sealed > 0) return { ok: false, sealed };
  await db.settings.bulkDelete([kioskSettingKeys.keys, kioskSettingKeys.throttle]);
  setUnlockedKioskKey(undefined);
  writeDeviceSetting('kiosk', false);
  return { ok: true };
}

/**
 * 'PIN vergessen': the sealed leads can be read by nobody, so they are deleted, with the keys;
 * kiosk mode goes off until the agent turns it on with a new PIN. Returns how many were deleted.
 */
export async function forgetPin(db: OfflineDb): Promise<number> {
  const discarded = await db.transaction('rw', db.outbox, db.settings, async () => {
    const count = await db.outbox.filter((item) => item.sealed !== undefined).delete();
    await db.settings.bulkDelete([kioskSettingKeys.keys, kioskSettingKeys.throttle]);
    return count;
  });
  setUnlockedKioskKey(undefined);
  writeDeviceSetting('kiosk', false);
  return discarded;
}

/**
 * How a lead is sealed on this device now: with the device's public key while kiosk mode has a
 * PIN, otherwise not at all (undefined: stored as it will be posted).
 */
export async function kioskSealer(db: OfflineDb): Promise<Sealer | undefined> {
  const keys = await readKioskKeys(db);
  if (!keys) return undefined;
  return (submission) => sealSubmission(keys.publicKey, submission);
}
