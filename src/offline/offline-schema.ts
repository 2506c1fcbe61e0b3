// The device's offline database: its name, its stores and the records they hold, in one place
// below both readers: Dexie (outbox-db.ts) and the few hundred bytes of plain IndexedDB that a
// public page uses before the visitor interacts (offline-idb.ts).

import type { SubmissionSource } from '../domain/submission.ts';

export const offlineDbName = 'universa-offline';

/** Dexie's schema version; Dexie multiplies it by 10 for IndexedDB (version 1 is native 10). */
export const dexieVersion = 1;

/**
 * The stores in Dexie's notation: the primary key first, then the indexes (`[a+b]` compound).
 * offline-idb.ts creates exactly these on a device's first visit, so Dexie later opens the
 * database without a schema change.
 */
export const offlineStores = {
  outbox: 'client_id, status, [status+next_attempt_at], [status+created_at]',
  definitions: 'form_id',
  settings: 'key',
} as const satisfies Record<string, string>;

/**
 * Device settings, stored in the settings store under these keys as true or false: the rule every
 * sender reads before it sends (src/offline/send-rule.ts). localStorage holds a mirror of them
 * for screens that read them while rendering (src/offline/device-settings.ts).
 */
export type DeviceSetting = 'kiosk' | 'simulateOffline';

export const deviceSettings: readonly DeviceSetting[] = ['kiosk', 'simulateOffline'];

/** Settings-store key of what the outbox delivered since it last ran empty (LastDelivery). */
export const lastDeliveryKey = 'lastDelivery';

/** The leads this device delivered since its outbox last ran empty, and when the last arrived. */
export interface LastDelivery {
  /** Leads the hub took (stored, or already had from an earlier send). */
  sent: number;
  /** Epoch ms. */
  at: number;
}

/** Settings-store keys of kiosk mode's lock (src/offline/kiosk-lock.ts). */
export const kioskSettingKeys = { keys: 'kioskKeys', throttle: 'kioskUnlockThrottle' } as const;

/** The fields the outbox itself relies on; the rest of the submission is passed through as is. */
export interface OutboxSubmissionKeys {
  client_id: string;
  form_id: number;
  source: SubmissionSource;
}

/** A submission exactly as it will be posted to the hub (plain JSON). */
export type OutboxSubmission = OutboxSubmissionKeys & { readonly [field: string]: unknown };

export type OutboxStatus = 'waiting' | 'rejected';

/**
 * A lead sealed on the fair tablet (kiosk mode, src/offline/lead-seal.ts): AES-256-GCM under a
 * key agreed between a fresh ECDH P-256 key pair and the device's public key, its client_id as
 * additional data. Only the device's private key, wrapped by the agent's PIN, opens it.
 */
export interface SealedLead {
  /** Format version, so a later scheme can sit beside this one. */
  v: 1;
  /** The ephemeral public key, raw (uncompressed point), base64url. */
  epk: string;
  /** AES-GCM nonce (12 bytes), base64url. */
  iv: string;
  /** The submission's JSON, encrypted, with its tag; base64url. */
  ct: string;
}

export interface OutboxItemFields {
  client_id: string;
  form_id: number;
  source: SubmissionSource;
  status: OutboxStatus;
  /** Failed sending attempts so far (whole-request failures only). */
  attempts: number;
  /**
   * The lead could not be handed to the hub at its first attempt: a run was held back while it
   * waited (offline, 'Offline simulieren'), or a request carrying it brought no answer. Posted
   * with the lead as `waited_offline`. Missing in leads queued before the field existed.
   */
  waited_offline?: boolean;
  /** Epoch ms. */
  next_attempt_at: number;
  /** Epoch ms. */
  created_at: number;
  /** German message for the UI: why the last attempt failed, or why the hub rejected the lead. */
  last_error: string | null;
  rejected_code: string | null;
}

/**
 * One queued lead. On visitors' devices the submission is stored as it will be posted; on a
 * fair tablet with a PIN only `sealed` is: nothing a visitor typed is readable without the PIN
 * (client_id, form, source, state and times stay in clear for the outbox's indexes and panel).
 */
export type OutboxItem = OutboxItemFields &
  (
    | { submission: OutboxSubmission; sealed?: undefined }
    | { sealed: SealedLead; submission?: undefined }
  );

export type SealedOutboxItem = Extract<OutboxItem, { sealed: SealedLead }>;

export interface DefinitionRecord {
  form_id: number;
  /** As received from the hub; validated where it is used. */
  questions: unknown[];
  /** Where the form's document downloads (null: none); missing in copies stored before it was. */
  document_url?: string | null;
  /** Epoch ms. */
  fetched_at: number;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}
