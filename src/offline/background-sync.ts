/** The tag the page registers and the service worker answers (sw/sw.ts). */
export const outboxSyncTag = 'outbox-sync';

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

/**
 * Asks the browser to wake the service worker when the connection returns, even if every tab
 * is closed by then. Only Chromium has Background Sync; elsewhere the page's own triggers do
 * the work, so a missing API or a refusal is no error.
 */
export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = await globalThis.navigator?.serviceWorker?.getRegistration();
    const sync = (
      registration as (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined
    )?.sync;
    await sync?.register(outboxSyncTag);
  } catch {
    // Permission refused or no worker yet: the page's triggers remain.
  }
}
