// Encryption at rest for the fair tablet (kiosk mode), with WebCrypto only.
//
// Capture must keep working while the tablet is locked, so sealing needs no secret: each lead
// gets a fresh ECDH P-256 key pair, agrees a secret with the device's static public key, derives
// an AES-256-GCM key from it with HKDF-SHA-256 and forgets the ephemeral private key. Opening
// needs the device's private key, which is stored only wrapped (AES-256-GCM) under a key derived
// from the agent's PIN with PBKDF2-SHA-256. So what IndexedDB holds cannot be read without the PIN,
// and nobody, the agent included, can read it once the PIN is forgotten.

import type { OutboxSubmission, SealedLead } from './offline-schema.ts';

/** OWASP Password Storage Cheat Sheet (2023) for PBKDF2-HMAC-SHA256. */
export const pinIterations = 600_000;
const saltBytes = 16;
const ivBytes = 12;
const curve = { name: 'ECDH', namedCurve: 'P-256' } as const;
const hkdfInfo = 'universa-outbox-lead-v1';

/** What the settings store keeps of the device's key pair; all binary fields base64url. */
export interface KioskKeys {
  v: 1;
  /** The device's public key, raw (uncompressed point): all that sealing needs. */
  publicKey: string;
  /** The private key as PKCS #8, encrypted with AES-256-GCM under the PIN's key. */
  wrappedPrivateKey: string;
  wrapIv: string;
  /** How the PIN becomes the wrapping key, so a later version can raise the cost. */
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: string };
}

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

async function pinKey(pin: string, kdf: KioskKeys['kdf']): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', encoder.encode(pin), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: kdf.hash, salt: fromBase64Url(kdf.salt), iterations: kdf.iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
}

function unwrapPrivateKey(keys: KioskKeys, wrappingKey: CryptoKey): Promise<CryptoKey> {
  // Not extractable: a script that gets hold of the unlocked key can use it, never copy it out.
  return subtle().unwrapKey(
    'pkcs8',
    fromBase64Url(keys.wrappedPrivateKey),
    wrappingKey,
    { name: 'AES-GCM', iv: fromBase64Url(keys.wrapIv) },
    curve,
    false,
    ['deriveBits'],
  );
}

/**
 * A new key pair for the device, its private key wrapped by `pin`. Returns what to store and the
 * private key, unlocked (non-extractable), for this page's memory.
 */
export async function createKioskKeys(
  pin: string,
  options: { iterations?: number } = {},
): Promise<{ keys: KioskKeys; privateKey: CryptoKey }> {
  const pair = await subtle().generateKey(curve, true, ['deriveBits']);
  const kdf = {
    name: 'PBKDF2',
    hash: 'SHA-256',
    iterations: options.iterations ?? pinIterations,
    salt: toBase64Url(randomBytes(saltBytes)),
  } as const;
  const wrappingKey = await pinKey(pin, kdf);
  const wrapIv = randomBytes(ivBytes);
  const wrapped = await subtle().wrapKey('pkcs8', pair.privateKey, wrappingKey, {
    name: 'AES-GCM',
    iv: wrapIv,
  });
  const keys: KioskKeys = {
    v: 1,
    publicKey: toBase64Url(await subtle().exportKey('raw', pair.publicKey)),
    wrappedPrivateKey: toBase64Url(wrapped),
    wrapIv: toBase64Url(wrapIv),
    kdf,
  };
  // The extractable original is dropped; the page keeps a non-extractable copy.
  return { keys, privateKey: await unwrapPrivateKey(keys, wrappingKey) };
}

/** The device's private key, if `pin` is the one it was wrapped with; else WrongPinError. */
export async function unlockKioskKeys(keys: KioskKeys, pin: string): Promise<CryptoKey> {
  const wrappingKey = await pinKey(pin, keys.kdf);
  try {
    return await unwrapPrivateKey(keys, wrappingKey);
  } catch {
    // AES-GCM's tag fails for any other PIN: no stored check value could tell more.
    throw new WrongPinError();
  }
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
