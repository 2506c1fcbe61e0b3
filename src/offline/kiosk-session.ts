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

export function subscribeKioskSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
