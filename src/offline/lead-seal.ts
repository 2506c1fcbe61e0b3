// Encryption at rest for the fair tablet (kiosk mode), with WebCrypto only.
//
// Capture must keep working while the tablet is locked, so sealing needs no secret: each lead
// gets a fresh ECDH P-256 key pair, agrees a secret with the device's static public key, derives
// an AES-256-GCM key from it with HKDF-SHA-256 and forgets the ephemeral private key. Opening
// needs the device's private key, which is stored only wrapped (AES-256-GCM) under a key derived
// from the agent's PIN with PBKDF2-SHA-256. So what IndexedDB holds cannot be read without the PIN,
// and nobody, the agent included, can read it once the PIN is forgotten.
//
// The public key has to be usable without the PIN, so it cannot be kept secret, only checked: the
// PIN also gives an HMAC key that authenticates the stored record (public key, wrapped private
// key, KDF parameters, unlock counter), and the public key is compared with the one the unwrapped
// private key gives. Both checks need the PIN, so they run when it is entered.

import type { OutboxSubmission, SealedLead } from './offline-schema.ts';

/** OWASP Password Storage Cheat Sheet (2023) for PBKDF2-HMAC-SHA256. */
export const pinIterations = 600_000;
const saltBytes = 16;
const ivBytes = 12;
const curve = { name: 'ECDH', namedCurve: 'P-256' } as const;
const hkdfInfo = 'universa-outbox-lead-v1';

/** How the PIN becomes key material, so a later version can raise the cost. */
export interface KioskKdf {
  name: 'PBKDF2';
  hash: 'SHA-256';
  iterations: number;
  salt: string;
}

/**
 * What the settings store keeps of the device's key pair; all binary fields base64url. The PIN
 * authenticates all of it (`tag`): a public key swapped while the tablet is locked, or an unlock
 * counter set back, shows when the PIN is next entered.
 */
export interface KioskKeys {
  v: 2;
  /** The device's public key, raw (uncompressed point): all that sealing needs. */
  publicKey: string;
  /** The private key as PKCS #8, encrypted with AES-256-GCM under the PIN's wrapping key. */
  wrappedPrivateKey: string;
  wrapIv: string;
  kdf: KioskKdf;
  /** Unlock attempts counted on this device when the record was sealed (setup, last unlock). */
  attempts: number;
  /** HMAC-SHA-256 over every field above under a key derived from the PIN. */
  tag: string;
}

/**
 * The first format (before issue 32): the private key wrapped directly by the PBKDF2 key, the
 * public key beside it unauthenticated. Upgraded to KioskKeys at the next successful unlock.
 */
export interface LegacyKioskKeys {
  v: 1;
  publicKey: string;
  wrappedPrivateKey: string;
  wrapIv: string;
  kdf: KioskKdf;
}

export type StoredKioskKeys = KioskKeys | LegacyKioskKeys;

/** The PIN does not open the device's key (or the stored key was altered). */
export class WrongPinError extends Error {
  override readonly name = 'WrongPinError';
  constructor() {
    super('Die PIN ist nicht richtig.');
  }
}

/** A sealed lead that does not open with the device's key: altered, or sealed for another. */
export class UnreadableLeadError extends Error {
  override readonly name = 'UnreadableLeadError';
  constructor(cause?: unknown) {
    super('Die verschlüsselte Anfrage lässt sich nicht öffnen.', { cause });
  }
}

const subtle = () => globalThis.crypto.subtle;
const encoder = new TextEncoder();

export function toBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

/** The keys one PIN gives: one PBKDF2 run, then HKDF apart for wrapping and for the record. */
interface PinKeys {
  /** Wraps the private key (v2). */
  wrap: CryptoKey;
  /** Authenticates the stored record (HMAC-SHA-256). */
  record: CryptoKey;
  /** The first format's wrapping key: PBKDF2's output itself as the AES-GCM key. */
  legacyWrap: CryptoKey;
}

async function pinKeys(pin: string, kdf: KioskKdf): Promise<PinKeys> {
  const material = await subtle().importKey('raw', encoder.encode(pin), 'PBKDF2', false, [
    'deriveBits',
  ]);
  // PBKDF2's first 256 bits: exactly the key the first format derived with deriveKey.
  const bits = await subtle().deriveBits(
    { name: 'PBKDF2', hash: kdf.hash, salt: fromBase64Url(kdf.salt), iterations: kdf.iterations },
    material,
    256,
  );
  const hkdf = await subtle().importKey('raw', bits, 'HKDF', false, ['deriveKey']);
  const expand = (info: string) => ({
    name: 'HKDF',
    hash: 'SHA-256',
    salt: new Uint8Array(32),
    info: encoder.encode(info),
  });
  const [wrap, record, legacyWrap] = await Promise.all([
    subtle().deriveKey(
      expand('universa-kiosk-wrap-v2'),
      hkdf,
      { name: 'AES-GCM', length: 256 },
      false,
      ['wrapKey', 'unwrapKey'],
    ),
    subtle().deriveKey(
      expand('universa-kiosk-record-v2'),
      hkdf,
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      false,
      ['sign', 'verify'],
    ),
    subtle().importKey('raw', bits, { name: 'AES-GCM' }, false, ['unwrapKey']),
  ]);
  return { wrap, record, legacyWrap };
}

/** The bytes the record's tag covers: every field but the tag, in a fixed order. */
function recordBytes(keys: Omit<KioskKeys, 'tag'>): Uint8Array<ArrayBuffer> {
  return encoder.encode(
    JSON.stringify([
      'universa-kiosk-keys',
      keys.v,
      keys.publicKey,
      keys.wrappedPrivateKey,
      keys.wrapIv,
      keys.kdf.name,
      keys.kdf.hash,
      keys.kdf.iterations,
      keys.kdf.salt,
      keys.attempts,
    ]),
  );
}

async function signRecord(record: CryptoKey, keys: Omit<KioskKeys, 'tag'>): Promise<KioskKeys> {
  const tag = await subtle().sign('HMAC', record, recordBytes(keys));
  return { ...keys, tag: toBase64Url(tag) };
}

async function recordIntact(record: CryptoKey, keys: KioskKeys): Promise<boolean> {
  try {
    return await subtle().verify('HMAC', record, fromBase64Url(keys.tag), recordBytes(keys));
  } catch {
    return false;
  }
}

/** The raw public point of an EC private key, from its JWK (x and y), base64url. */
function publicKeyOf(jwk: JsonWebKey): string {
  if (!jwk.x || !jwk.y) throw new Error('EC key without its public point');
  return toBase64Url(new Uint8Array([4, ...fromBase64Url(jwk.x), ...fromBase64Url(jwk.y)]));
}

/** The private key, usable in this page and never exportable. */
async function sessionKey(jwk: JsonWebKey): Promise<CryptoKey> {
  return subtle().importKey('jwk', jwk, curve, false, ['deriveBits']);
}

/**
 * A new key pair for the device, its private key wrapped by `pin`, the record authenticated with
 * `attempts` (the device's unlock counter now). Returns what to store and the private key,
 * unlocked (non-extractable), for this page's memory.
 */
export async function createKioskKeys(
  pin: string,
  options: { iterations?: number; attempts?: number } = {},
): Promise<{ keys: KioskKeys; privateKey: CryptoKey }> {
  const pair = await subtle().generateKey(curve, true, ['deriveBits']);
  const kdf: KioskKdf = {
    name: 'PBKDF2',
    hash: 'SHA-256',
    iterations: options.iterations ?? pinIterations,
    salt: toBase64Url(randomBytes(saltBytes)),
  };
  const pinKey = await pinKeys(pin, kdf);
  const wrapIv = randomBytes(ivBytes);
  const wrapped = await subtle().wrapKey('pkcs8', pair.privateKey, pinKey.wrap, {
    name: 'AES-GCM',
    iv: wrapIv,
  });
  const keys = await signRecord(pinKey.record, {
    v: 2,
    publicKey: toBase64Url(await subtle().exportKey('raw', pair.publicKey)),
    wrappedPrivateKey: toBase64Url(wrapped),
    wrapIv: toBase64Url(wrapIv),
    kdf,
    attempts: options.attempts ?? 0,
  });
  // The extractable original is dropped; the page keeps a non-extractable copy.
  return { keys, privateKey: await sessionKey(await subtle().exportKey('jwk', pair.privateKey)) };
}

/** What the PIN opened: the device's key pair as it really is, and what the store said. */
export interface OpenedKioskKeys {
  /** Non-extractable. */
  privateKey: CryptoKey;
  /** Derived from the private key: the key leads must be sealed with. */
  publicKey: string;
  /**
   * 'intact': the record's tag holds under the PIN; 'altered': some field (public key, counter)
   * was changed without the PIN; 'legacy': the first format, which had no tag.
   */
  record: 'intact' | 'altered' | 'legacy';
  /**
   * A record in the current format for this key pair, authenticated with `attempts`: the public
   * key derived from the private key, the private key wrapped as the current format wraps it.
   */
  reseal(attempts: number): Promise<KioskKeys>;
  /**
   * The same key pair in a record for `newPin` ('PIN ändern'): the private key wrapped under the
   * new PIN's keys (a fresh salt; `iterations`, else the old cost or today's, whichever is higher), authenticated with `attempts`.
   * Leads sealed before stay readable, since the key pair does not change.
   */
  rewrap(newPin: string, attempts: number, iterations?: number): Promise<KioskKeys>;
}

/**
 * Opens the stored keys with `pin` (WrongPinError when the PIN does not unwrap the private key)
 * and checks what the PIN can check: the record's tag, and the stored public key against the
 * one the private key gives. Judging what a mismatch means is the caller's (kiosk-lock.ts).
 */
export async function openKioskKeys(keys: StoredKioskKeys, pin: string): Promise<OpenedKioskKeys> {
  const pinKey = await pinKeys(pin, keys.kdf);
  // The version says which key wraps the private key; both are tried, so that a record relabelled
  // (a current one as the first format, to skip the record's checks) opens and is caught.
  const wrappers = [
    { key: pinKey.wrap, legacy: false },
    { key: pinKey.legacyWrap, legacy: true },
  ];
  if (keys.v === 1) wrappers.reverse();
  let extractable: CryptoKey | undefined;
  let wrappedLegacy = false;
  for (const wrapper of wrappers) {
    try {
      // Extractable for a moment: the public point is read from it (and a first-format key is
      // wrapped again); the page keeps only the non-extractable copy made below.
      extractable = await subtle().unwrapKey(
        'pkcs8',
        fromBase64Url(keys.wrappedPrivateKey),
        wrapper.key,
        { name: 'AES-GCM', iv: fromBase64Url(keys.wrapIv) },
        curve,
        true,
        ['deriveBits'],
      );
      wrappedLegacy = wrapper.legacy;
      break;
    } catch {
      // AES-GCM's tag fails for any other PIN: no stored check value could tell more.
    }
  }
  if (!extractable) throw new WrongPinError();
  const jwk = await subtle().exportKey('jwk', extractable);
  const publicKey = publicKeyOf(jwk);
  const privateKey = await sessionKey(jwk);
  let wrapped = { wrappedPrivateKey: keys.wrappedPrivateKey, wrapIv: keys.wrapIv };
  if (wrappedLegacy) {
    const wrapIv = randomBytes(ivBytes);
    const blob = await subtle().wrapKey('pkcs8', extractable, pinKey.wrap, {
      name: 'AES-GCM',
      iv: wrapIv,
    });
    wrapped = { wrappedPrivateKey: toBase64Url(blob), wrapIv: toBase64Url(wrapIv) };
  }
  const record =
    wrappedLegacy !== (keys.v === 1)
      ? 'altered'
      : keys.v === 1
        ? 'legacy'
        : (await recordIntact(pinKey.record, keys))
          ? 'intact'
          : 'altered';
  const kdf: KioskKdf = {
    name: 'PBKDF2',
    hash: 'SHA-256',
    iterations: keys.kdf.iterations,
    salt: keys.kdf.salt,
  };
  return {
    privateKey,
    publicKey,
    record,
    reseal: (attempts) => signRecord(pinKey.record, { v: 2, publicKey, ...wrapped, kdf, attempts }),
    rewrap: async (newPin, attempts, iterations) => {
      // Unwrapped again, extractable for the moment it is wrapped under the new PIN: nothing
      // here keeps the extractable key beyond this call.
      const key = await subtle().unwrapKey(
        'pkcs8',
        fromBase64Url(wrapped.wrappedPrivateKey),
        pinKey.wrap,
        { name: 'AES-GCM', iv: fromBase64Url(wrapped.wrapIv) },
        curve,
        true,
        ['deriveBits'],
      );
      const newKdf: KioskKdf = {
        name: 'PBKDF2',
        hash: 'SHA-256',
        iterations: iterations ?? Math.max(keys.kdf.iterations, pinIterations),
        salt: toBase64Url(randomBytes(saltBytes)),
      };
      const newPinKey = await pinKeys(newPin, newKdf);
      const wrapIv = randomBytes(ivBytes);
      const blob = await subtle().wrapKey('pkcs8', key, newPinKey.wrap, {
        name: 'AES-GCM',
        iv: wrapIv,
      });
      return signRecord(newPinKey.record, {
        v: 2,
        publicKey,
        wrappedPrivateKey: toBase64Url(blob),
        wrapIv: toBase64Url(wrapIv),
        kdf: newKdf,
        attempts,
      });
    },
  };
}

/** The device's private key, if `pin` is the one it was wrapped with; else WrongPinError. */
export async function unlockKioskKeys(keys: StoredKioskKeys, pin: string): Promise<CryptoKey> {
  return (await openKioskKeys(keys, pin)).privateKey;
}

async function leadKey(
  privateKey: CryptoKey,
  publicKey: CryptoKey,
  ephemeralRaw: Uint8Array<ArrayBuffer>,
  recipientRaw: Uint8Array<ArrayBuffer>,
  usage: 'encrypt' | 'decrypt',
): Promise<CryptoKey> {
  const shared = await subtle().deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256);
  const hkdfKey = await subtle().importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  // Both public keys in `info` bind the key to this exchange (as ECIES does).
  const info = new Uint8Array([...encoder.encode(hkdfInfo), ...ephemeralRaw, ...recipientRaw]);
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info },
    hkdfKey,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  );
}

/** Encrypts a submission for the device whose public key is `publicKey` (KioskKeys.publicKey). */
export async function sealSubmission(
  publicKey: string,
  submission: OutboxSubmission,
): Promise<SealedLead> {
  const recipientRaw = fromBase64Url(publicKey);
  const recipient = await subtle().importKey('raw', recipientRaw, curve, false, []);
  const ephemeral = await subtle().generateKey(curve, true, ['deriveBits']);
  const ephemeralRaw = new Uint8Array(await subtle().exportKey('raw', ephemeral.publicKey));
  const key = await leadKey(ephemeral.privateKey, recipient, ephemeralRaw, recipientRaw, 'encrypt');
  const iv = randomBytes(ivBytes);
  const ct = await subtle().encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(submission.client_id) },
    key,
    encoder.encode(JSON.stringify(submission)),
  );
  return { v: 1, epk: toBase64Url(ephemeralRaw), iv: toBase64Url(iv), ct: toBase64Url(ct) };
}

/**
 * Decrypts a sealed lead with the device's unlocked private key. `clientId` is the record's key:
 * a ciphertext moved to another record, or altered, fails (UnreadableLeadError).
 */
export async function openSealed(
  privateKey: CryptoKey,
  publicKey: string,
  sealed: SealedLead,
  clientId: string,
): Promise<OutboxSubmission> {
  try {
    const ephemeralRaw = fromBase64Url(sealed.epk);
    const ephemeral = await subtle().importKey('raw', ephemeralRaw, curve, false, []);
    const key = await leadKey(
      privateKey,
      ephemeral,
      ephemeralRaw,
      fromBase64Url(publicKey),
      'decrypt',
    );
    const plain = await subtle().decrypt(
      {
        name: 'AES-GCM',
        iv: fromBase64Url(sealed.iv),
        additionalData: encoder.encode(clientId),
      },
      key,
      fromBase64Url(sealed.ct),
    );
    const submission = JSON.parse(new TextDecoder().decode(plain)) as OutboxSubmission;
    if (submission.client_id !== clientId) throw new Error('client_id');
    return submission;
  } catch (error) {
    throw new UnreadableLeadError(error);
  }
}
