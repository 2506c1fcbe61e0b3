// Kiosk mode's lock: the PIN the agent sets when turning kiosk mode on, the device's keys in the
// settings store, unlocking with throttling, and the ways out (switch off, forgotten PIN).
// The crypto itself is in lead-seal.ts; the unlocked key lives in kiosk-session.ts (memory).

import {
  readDeviceSetting,
  readStoredDeviceSettings,
  writeDeviceSetting,
} from './device-settings.ts';
import {
  createKioskKeys,
  openKioskKeys,
  openSealed,
  sealSubmission,
  WrongPinError,
  type OpenedKioskKeys,
  type StoredKioskKeys,
} from './lead-seal.ts';
import {
  forgetKioskSession,
  setUnlockedKioskKey,
  setVerifiedKioskKey,
  verifiedKioskPublicKey,
} from './kiosk-session.ts';
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

function isKdf(value: unknown): value is StoredKioskKeys['kdf'] {
  if (typeof value !== 'object' || value === null) return false;
  const kdf = value as Partial<StoredKioskKeys['kdf']>;
  return (
    kdf.name === 'PBKDF2' &&
    kdf.hash === 'SHA-256' &&
    Number.isInteger(kdf.iterations) &&
    typeof kdf.salt === 'string'
  );
}

function isStoredKioskKeys(value: unknown): value is StoredKioskKeys {
  if (typeof value !== 'object' || value === null) return false;
  const keys = value as Partial<Record<keyof StoredKioskKeys | 'attempts' | 'tag', unknown>>;
  const common =
    typeof keys.publicKey === 'string' &&
    typeof keys.wrappedPrivateKey === 'string' &&
    typeof keys.wrapIv === 'string' &&
    isKdf(keys.kdf);
  if (keys.v === 1) return common;
  return keys.v === 2 && common && Number.isInteger(keys.attempts) && typeof keys.tag === 'string';
}

/**
 * The device's stored keys (the current format, or the first one until its next unlock), or
 * undefined when kiosk mode has no PIN on this device.
 */
export async function readKioskKeys(db: OfflineDb): Promise<StoredKioskKeys | undefined> {
  const value = await getSetting(db, kioskSettingKeys.keys);
  return isStoredKioskKeys(value) ? value : undefined;
}

/**
 * The unlock counter. It cannot be authenticated when a wrong PIN is typed (only the right PIN
 * gives the key), so it is kept twice, in the settings store and in localStorage, and checked when
 * the right PIN is entered: against the other copy, and against the count the PIN authenticated
 * in the keys record at the last unlock. The stricter copy always applies.
 */
interface Throttle {
  /** Unlock attempts on this device since the PIN was set, right or wrong; only ever grows. */
  attempts: number;
  /** Wrong PINs since the last right one. */
  failures: number;
  /** Epoch ms before which no attempt is taken. */
  blockedUntil: number;
  /** The copies were seen to disagree: kept until the next right PIN reports it. */
  conflict?: true;
}

/** The second copy of the counter (localStorage: not cleared with the IndexedDB store). */
export const throttleCopyKey = 'geraet:kiosk-pin-versuche';

function copyStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function parseThrottle(value: unknown): Throttle | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  const failures = count(raw.failures) ?? 0;
  return {
    // The first format counted wrong PINs only.
    attempts: count(raw.attempts) ?? failures,
    failures,
    blockedUntil: count(raw.blockedUntil) ?? 0,
    ...(raw.conflict === true ? { conflict: true as const } : {}),
  };
}

function sameThrottle(a: Throttle | undefined, b: Throttle | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.attempts === b.attempts && a.failures === b.failures && a.blockedUntil === b.blockedUntil
  );
}

/**
 * Both copies read and merged, the stricter value of each field winning. `found`: whether any
 * copy exists; `conflict`: they disagree (only where the second copy is kept: the current key
 * format, with localStorage available).
 */
async function readThrottle(
  db: OfflineDb,
  current: boolean,
): Promise<{ state: Throttle; found: boolean }> {
  const stored = parseThrottle(await getSetting(db, kioskSettingKeys.throttle));
  const storage = copyStorage();
  let copy: Throttle | undefined;
  try {
    const text = storage?.getItem(throttleCopyKey);
    copy = text ? parseThrottle(JSON.parse(text)) : undefined;
  } catch {
    copy = undefined;
  }
  const conflict =
    stored?.conflict === true ||
    copy?.conflict === true ||
    (current && storage !== undefined && !sameThrottle(stored, copy));
  return {
    state: {
      attempts: Math.max(stored?.attempts ?? 0, copy?.attempts ?? 0),
      failures: Math.max(stored?.failures ?? 0, copy?.failures ?? 0),
      blockedUntil: Math.max(stored?.blockedUntil ?? 0, copy?.blockedUntil ?? 0),
      ...(conflict ? { conflict: true as const } : {}),
    },
    found: stored !== undefined || copy !== undefined,
  };
}

/**
 * Whether the PIN's counter copy is still in localStorage. Setting the PIN writes it, switching
 * kiosk mode off and 'PIN vergessen' remove it with the keys: while it stays and the keys record
 * is gone, the record was deleted some other way (see keysDeletedMessage).
 */
export function kioskCounterLeft(): boolean {
  try {
    return Boolean(copyStorage()?.getItem(throttleCopyKey));
  } catch {
    return false;
  }
}

/** For the agent when the keys record is gone but the device had a PIN (kioskCounterLeft). */
export const keysDeletedMessage =
  'Die Schlüssel dieses Tablets fehlen: Sie wurden gelöscht, ohne dass „PIN vergessen“ gewählt ' +
  'oder der Messe-Modus ausgeschaltet wurde, durch jemanden mit Zugriff auf die gespeicherten ' +
  'Daten des Browsers oder durch den Browser selbst (etwa bei knappem Speicher). Neue Anfragen ' +
  'werden jetzt unverschlüsselt gespeichert, und verschlüsselte Anfragen auf dem Gerät kann ' +
  'niemand mehr lesen. Bitte legen Sie sofort eine neue PIN fest. Waren Sie es nicht, klären Sie ' +
  'mit Ihrer oder Ihrem Datenschutzbeauftragten, ob der Vorfall gemeldet werden muss.';

function writeThrottleCopy(throttle: Throttle | undefined): void {
  try {
    const storage = copyStorage();
    if (throttle) storage?.setItem(throttleCopyKey, JSON.stringify(throttle));
    else storage?.removeItem(throttleCopyKey);
  } catch {
    // Blocked storage: the settings store's copy still counts.
  }
}

async function writeThrottle(db: OfflineDb, throttle: Throttle): Promise<void> {
  await putSetting(db, kioskSettingKeys.throttle, throttle);
  writeThrottleCopy(throttle);
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
  const { keys, privateKey } = await createKioskKeys(pin, { ...options, attempts: 0 });
  const throttle: Throttle = { attempts: 0, failures: 0, blockedUntil: 0 };
  await db.transaction('rw', db.settings, async () => {
    await putSetting(db, kioskSettingKeys.keys, keys);
    await putSetting(db, kioskSettingKeys.throttle, throttle);
  });
  writeThrottleCopy(throttle);
  setVerifiedKioskKey(keys.publicKey, keys.wrappedPrivateKey);
  setUnlockedKioskKey({ privateKey, publicKey: keys.publicKey });
  await writeDeviceSetting('kiosk', true);
}

/** What the PIN found changed on the device since it was last entered. */
export interface KioskTampering {
  /** The stored public key was not the device's: leads sealed since are for someone else. */
  key: boolean;
  /** The unlock counter was deleted, set back, or its copies disagree. */
  counter: boolean;
  /** Waiting leads the device's key cannot open (sealed for the swapped key), kept as rejected. */
  unreadable: number;
}

function requests(count: number): string {
  return count === 1 ? '1 Anfrage' : `${count} Anfragen`;
}

/** The German message for the agent when the PIN found the tablet's keys or counter altered. */
export function tamperingMessage(found: KioskTampering): string {
  const parts: string[] = [];
  if (found.key) {
    parts.push(
      'Die Schlüssel dieses Tablets wurden verändert: Jemand hatte Zugriff auf die gespeicherten ' +
        'Daten des Browsers und hat den Schlüssel ausgetauscht, mit dem neue Anfragen ' +
        'verschlüsselt werden.',
    );
    parts.push(
      found.unreadable === 0
        ? 'Keine der wartenden Anfragen ist davon betroffen.'
        : `${requests(found.unreadable)} ${found.unreadable === 1 ? 'ist' : 'sind'} mit dem ` +
            'fremden Schlüssel verschlüsselt: Weder Sie noch wir können sie lesen oder senden. ' +
            'Sie bleiben unter „Vom Server abgelehnt“ auf dem Gerät, bis Sie sie verwerfen; wer ' +
            'den Schlüssel ausgetauscht hat, kann sie womöglich lesen.',
    );
    parts.push(
      'Der richtige Schlüssel ist wiederhergestellt, alle übrigen Anfragen werden gesendet.',
    );
  }
  if (found.counter) {
    parts.push(
      'Der Zähler der PIN-Versuche dieses Tablets wurde zurückgesetzt: Jemand hatte Zugriff auf ' +
        'die gespeicherten Daten des Browsers und konnte die PIN öfter ausprobieren als erlaubt.',
    );
  }
  parts.push(
    'Bitte lassen Sie das Tablet nicht mehr unbeaufsichtigt, klären Sie mit Ihrer oder Ihrem ' +
      'Datenschutzbeauftragten, ob der Vorfall gemeldet werden muss, und legen Sie eine neue, ' +
      'längere PIN fest, sobald keine verschlüsselte Anfrage mehr wartet (Messe-Modus aus- und ' +
      'wieder einschalten).',
  );
  return parts.join(' ');
}

const unreadableMessage =
  'Diese Anfrage wurde mit einem fremden Schlüssel verschlüsselt, nachdem die Schlüssel des ' +
  'Tablets verändert wurden: Weder Sie noch wir können sie lesen oder senden.';

/**
 * The sealed leads the device's real key cannot open (sealed for a swapped-in key): marked
 * rejected with the reason, never deleted (the agent decides). Returns how many.
 */
async function markUnreadable(db: OfflineDb, opened: OpenedKioskKeys): Promise<number> {
  const sealed = await db.outbox.filter((item) => item.sealed !== undefined).toArray();
  const unreadable: string[] = [];
  for (const item of sealed) {
    if (item.sealed === undefined) continue;
    try {
      await openSealed(opened.privateKey, opened.publicKey, item.sealed, item.client_id);
    } catch {
      unreadable.push(item.client_id);
    }
  }
  if (unreadable.length > 0) {
    await db.outbox.where('client_id').anyOf(unreadable).modify({
      status: 'rejected',
      last_error: unreadableMessage,
      rejected_code: 'sealed_unreadable',
    });
  }
  return unreadable.length;
}

export type UnlockResult =
  | { ok: true; tampered?: KioskTampering }
  | { ok: false; reason: 'wrong-pin'; failures: number; waitUntil: number }
  | { ok: false; reason: 'wait'; waitUntil: number }
  | { ok: false; reason: 'no-keys' };

/** Why a PIN was not taken: the answers of the throttle and of the stored keys. */
export type PinRefusal = Exclude<UnlockResult, { ok: true }>;

/**
 * Checks `pin` against the stored keys under the unlock throttle, for every action that needs the
 * PIN (unlock, confirm, change). Wrong PINs are counted on the device (a reload does not reset
 * them): five are free, then each attempt waits 30 s, doubling up to 15 minutes. The PBKDF2 cost
 * slows a guess at the stored keys; the waits slow guesses at the tablet itself.
 *
 * The right PIN also checks what was stored without it: the keys record's tag, the public key
 * against the private key, and the counter against its copy and the count at the last unlock.
 * What was altered is reported (`tampered`) and repaired: the real public key and a fresh,
 * authenticated count are stored, and leads sealed for a swapped key are marked unreadable.
 * A record of the first format is upgraded here. With `newPin` the stored record is the same key
 * pair wrapped under the new PIN ('PIN ändern').
 */
async function checkPin(
  db: OfflineDb,
  pin: string,
  now: () => number,
  newPin?: string,
): Promise<PinRefusal | { ok: true; opened: OpenedKioskKeys; tampered?: KioskTampering }> {
  const keys = await readKioskKeys(db);
  if (!keys) return { ok: false, reason: 'no-keys' };
  const current = keys.v === 2;
  const { state, found } = await readThrottle(db, current);
  if (state.blockedUntil > now()) {
    return { ok: false, reason: 'wait', waitUntil: state.blockedUntil };
  }
  const attempts = state.attempts + 1;
  const failures = state.failures + 1;
  const waitUntil = now() + unlockWaitMs(failures);
  // Counted as wrong before the PIN is tried: closing the page during PBKDF2 skips nothing.
  await writeThrottle(db, {
    attempts,
    failures,
    blockedUntil: waitUntil,
    ...(state.conflict ? { conflict: true as const } : {}),
  });
  let opened: OpenedKioskKeys;
  try {
    opened = await openKioskKeys(keys, pin);
  } catch (error) {
    if (!(error instanceof WrongPinError)) throw error;
    return { ok: false, reason: 'wrong-pin', failures, waitUntil };
  }

  const key = opened.publicKey !== keys.publicKey;
  // An altered record with the right public key: its count, or its version to skip the checks.
  const counter =
    (opened.record === 'altered' && !key) ||
    (current && (!found || state.conflict === true || state.attempts < keys.attempts));
  const record =
    newPin === undefined
      ? await opened.reseal(attempts)
      : await opened.rewrap(newPin, attempts, keys.kdf.iterations);
  const throttle: Throttle = { attempts, failures: 0, blockedUntil: 0 };
  await db.transaction('rw', db.settings, async () => {
    await putSetting(db, kioskSettingKeys.keys, record);
    await putSetting(db, kioskSettingKeys.throttle, throttle);
  });
  writeThrottleCopy(throttle);
  const unreadable = key ? await markUnreadable(db, opened) : 0;
  setVerifiedKioskKey(record.publicKey, record.wrappedPrivateKey);
  return key || counter
    ? { ok: true, opened, tampered: { key, counter, unreadable } }
    : { ok: true, opened };
}

function unlockResult(checked: Awaited<ReturnType<typeof checkPin>>): UnlockResult {
  if (!checked.ok) return checked;
  return checked.tampered ? { ok: true, tampered: checked.tampered } : { ok: true };
}

/** Unlocks this page with the agent's PIN (checkPin: throttle, checks and repairs). */
export async function unlockKiosk(
  db: OfflineDb,
  pin: string,
  now: () => number = Date.now,
): Promise<UnlockResult> {
  const checked = await checkPin(db, pin, now);
  if (checked.ok) {
    setUnlockedKioskKey({
      privateKey: checked.opened.privateKey,
      publicKey: checked.opened.publicKey,
    });
  }
  return unlockResult(checked);
}

/**
 * 'PIN bestätigen': the PIN before a device setting changes while kiosk mode is on. The same
 * check and throttle as unlocking, but this page stays as locked or unlocked as it was.
 */
export async function verifyKioskPin(
  db: OfflineDb,
  pin: string,
  now: () => number = Date.now,
): Promise<UnlockResult> {
  return unlockResult(await checkPin(db, pin, now));
}

/**
 * 'PIN ändern': the right current PIN (checked and counted as verifyKioskPin does) wraps the
 * device's private key under `newPin`. The key pair stays, so the sealed leads stay readable with
 * the new PIN; the old PIN opens nothing any more. A page that was unlocked stays unlocked.
 */
export async function changeKioskPin(
  db: OfflineDb,
  pin: string,
  newPin: string,
  now: () => number = Date.now,
): Promise<UnlockResult> {
  const problem = pinRuleMessage(newPin);
  if (problem) throw new Error(problem);
  return unlockResult(await checkPin(db, pin, now, newPin));
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
  writeThrottleCopy(undefined);
  forgetKioskSession();
  await writeDeviceSetting('kiosk', false);
  return { ok: true };
}

export type LeaveKioskResult = TurnOffResult | PinRefusal;

/**
 * The 'Messe-Modus' switch turned off on the device page: refused while sealed leads wait (asked
 * before the PIN, so no attempt is spent on it), then only with the right PIN (verifyKioskPin's
 * throttle).
 */
export async function leaveKioskMode(
  db: OfflineDb,
  pin: string,
  now: () => number = Date.now,
): Promise<LeaveKioskResult> {
  const sealed = await countSealed(db);
  if (sealed > 0) return { ok: false, sealed };
  const verified = await verifyKioskPin(db, pin, now);
  if (!verified.ok) return verified;
  return turnKioskOff(db);
}

/**
 * A device setting changed while kiosk mode may be on ('Offline simulieren'): with kiosk mode on
 * (in IndexedDB or its mirror, or unreadable), only after the right PIN (verifyKioskPin); otherwise
 * free. Resolves once the setting is durable.
 */
export async function writeSettingWithPin(
  db: OfflineDb,
  setting: 'simulateOffline',
  on: boolean,
  pin: string | undefined,
  now: () => number = Date.now,
): Promise<{ ok: true } | PinRefusal | { ok: false; reason: 'pin-needed' }> {
  // Fair mode as every sender reads it (IndexedDB), or the mirror; unreadable counts as on.
  const stored = await readStoredDeviceSettings();
  if (stored === undefined || stored.kiosk || readDeviceSetting('kiosk')) {
    if (pin === undefined) return { ok: false, reason: 'pin-needed' };
    const verified = await verifyKioskPin(db, pin, now);
    if (!verified.ok) return verified;
  }
  await writeDeviceSetting(setting, on);
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
  writeThrottleCopy(undefined);
  forgetKioskSession();
  await writeDeviceSetting('kiosk', false);
  return discarded;
}

/**
 * How a lead is sealed on this device now: with the device's public key while kiosk mode has a
 * PIN, otherwise not at all (undefined: stored as it will be posted).
 */
export async function kioskSealer(db: OfflineDb): Promise<Sealer | undefined> {
  const keys = await readKioskKeys(db);
  if (!keys) return undefined;
  // The public key the PIN checked in this page, while the record still holds the same private
  // key; after a reload only the stored one is known, and the PIN checks it at the next unlock.
  const publicKey = verifiedKioskPublicKey(keys.wrappedPrivateKey) ?? keys.publicKey;
  return (submission) => sealSubmission(publicKey, submission);
}
