// The fair tablet's unlocked key, in this page's memory only: never in storage, never in the
// service worker. A reload or a restart forgets it, and the tablet asks for the PIN again before
// it sends what it sealed. Kept apart from the lock's code (kiosk-lock.ts) so the header can
// show the lock's state without loading it.

export interface UnlockedKioskKey {
  /** Non-extractable: usable by this page, never exportable. */
  privateKey: CryptoKey;
  /** The matching public key as stored (KioskKeys.publicKey), for the key derivation. */
  publicKey: string;
}

let unlocked: UnlockedKioskKey | undefined;
/**
 * The key pair the PIN last opened in this page, kept when the page locks again: the public key
 * is no secret, and while the stored record still holds this wrapped private key, leads are sealed
 * with this checked public key rather than with what the store says now.
 */
let verified: { publicKey: string; wrappedPrivateKey: string } | undefined;
const listeners = new Set<() => void>();

export function unlockedKioskKey(): UnlockedKioskKey | undefined {
  return unlocked;
}

export function isKioskUnlocked(): boolean {
  return unlocked !== undefined;
}

export function setUnlockedKioskKey(key: UnlockedKioskKey | undefined): void {
  unlocked = key;
  listeners.forEach((listener) => listener());
}

/** Remembers the public key the PIN checked, for the record holding `wrappedPrivateKey`. */
export function setVerifiedKioskKey(publicKey: string, wrappedPrivateKey: string): void {
  verified = { publicKey, wrappedPrivateKey };
}

/** The checked public key, if the stored record still holds the private key it was checked with. */
export function verifiedKioskPublicKey(wrappedPrivateKey: string): string | undefined {
  return verified?.wrappedPrivateKey === wrappedPrivateKey ? verified.publicKey : undefined;
}

/** Kiosk mode off, or its keys discarded: nothing of them stays in this page. */
export function forgetKioskSession(): void {
  verified = undefined;
  setUnlockedKioskKey(undefined);
}

export function subscribeKioskSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
