import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { questionnaireLead } from '../testing/lead-fixtures.ts';
import {
  createKioskKeys,
  fromBase64Url,
  openKioskKeys,
  openSealed,
  pinIterations,
  sealSubmission,
  toBase64Url,
  UnreadableLeadError,
  unlockKioskKeys,
  WrongPinError,
} from './lead-seal.ts';
import { openOfflineDb, type OfflineDb } from './outbox-db.ts';
import { enqueue } from './outbox.ts';

// Node's WebCrypto is the browser's API; few PBKDF2 rounds keep the tests quick, one test checks
// what a real device stores.
const fast = { iterations: 1_000 };
const pin = '482916';

let db: OfflineDb;

beforeEach(() => {
  db = openOfflineDb(`test-${crypto.randomUUID()}`);
});

afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

describe('lead-seal', () => {
  it('opens a sealed lead with the key the PIN unlocks, exactly as it was', async () => {
    const { keys } = await createKioskKeys(pin, fast);
    const lead = questionnaireLead();
    const sealed = await sealSubmission(keys.publicKey, lead);

    const privateKey = await unlockKioskKeys(keys, pin);
    expect(await openSealed(privateKey, keys.publicKey, sealed, lead.client_id)).toEqual(lead);
  });

  it('authenticates the stored record with the PIN and derives the public key from the private key', async () => {
    const { keys } = await createKioskKeys(pin, fast);
    const opened = await openKioskKeys(keys, pin);
    expect(opened.record).toBe('intact');
    expect(opened.publicKey).toBe(keys.publicKey);
    expect(await opened.reseal(keys.attempts)).toEqual(keys);

    const other = (await createKioskKeys(pin, fast)).keys.publicKey;
    const swapped = await openKioskKeys({ ...keys, publicKey: other }, pin);
    expect(swapped.record).toBe('altered');
    expect(swapped.publicKey).toBe(keys.publicKey);
    expect((await openKioskKeys({ ...keys, attempts: keys.attempts + 1 }, pin)).record).toBe(
      'altered',
    );
  });

  it('refuses a wrong PIN', async () => {
    const { keys } = await createKioskKeys(pin, fast);
    await expect(unlockKioskKeys(keys, '482917')).rejects.toBeInstanceOf(WrongPinError);
    await expect(unlockKioskKeys(keys, '')).rejects.toBeInstanceOf(WrongPinError);
  });

  it("refuses a ciphertext moved to another lead's record (client_id is authenticated)", async () => {
    const { keys, privateKey } = await createKioskKeys(pin, fast);
    const lead = questionnaireLead();
    const sealed = await sealSubmission(keys.publicKey, lead);

    await expect(
      openSealed(privateKey, keys.publicKey, sealed, crypto.randomUUID()),
    ).rejects.toBeInstanceOf(UnreadableLeadError);
  });

  it('refuses an altered ciphertext, and a lead sealed for another device', async () => {
    const { keys, privateKey } = await createKioskKeys(pin, fast);
    const other = await createKioskKeys(pin, fast);
    const lead = questionnaireLead();
    const sealed = await sealSubmission(keys.publicKey, lead);
    const flipped = fromBase64Url(sealed.ct);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const altered = { ...sealed, ct: toBase64Url(flipped) };

    await expect(
      openSealed(privateKey, keys.publicKey, altered, lead.client_id),
    ).rejects.toBeInstanceOf(UnreadableLeadError);
    await expect(
      openSealed(other.privateKey, other.keys.publicKey, sealed, lead.client_id),
    ).rejects.toBeInstanceOf(UnreadableLeadError);
  });

  it('stores PBKDF2-SHA-256 with 600,000 iterations and a random 16-byte salt', async () => {
    const { keys, privateKey } = await createKioskKeys(pin);
    expect(keys.kdf).toMatchObject({ name: 'PBKDF2', hash: 'SHA-256', iterations: pinIterations });
    expect(pinIterations).toBe(600_000);
    expect(fromBase64Url(keys.kdf.salt)).toHaveLength(16);
    expect((await createKioskKeys(pin, fast)).keys.kdf.salt).not.toBe(keys.kdf.salt);
    // The unlocked key can be used in memory, never exported.
    expect(privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('pkcs8', privateKey)).rejects.toThrow();
  });

  it('leaves no visitor field in the stored record, only what the outbox needs', async () => {
    const { keys } = await createKioskKeys(pin, fast);
    const lead = questionnaireLead({ phone: '+49 171 9876543', custome_description: 'Zwillinge' });
    await enqueue(db, lead, 1_000, (submission) => sealSubmission(keys.publicKey, submission));

    const stored = await db.outbox.get(lead.client_id);
    expect(stored?.submission).toBeUndefined();
    expect(Object.keys(stored ?? {}).sort()).toEqual(
      [
        'attempts',
        'client_id',
        'created_at',
        'form_id',
        'last_error',
        'next_attempt_at',
        'rejected_code',
        'sealed',
        'source',
        'status',
        'waited_offline',
      ].sort(),
    );
    const json = JSON.stringify(stored);
    for (const value of [
      lead.first_name,
      lead.last_name,
      lead.email,
      lead.phone,
      lead.adress,
      lead.postcode,
      lead.city,
      lead.custome_description,
      '2019-05-01',
      'first_name',
      'email',
      'answers',
    ]) {
      expect(json).not.toContain(value);
    }
    // And the device's keys hold no PIN and no private key in clear.
    expect(JSON.stringify(keys)).not.toContain(pin);
  });
});
