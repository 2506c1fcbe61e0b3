/**
 * Hosted Storage's API as the server calls it itself (the retention job): the project's address
 * and its service-role key (SUPABASE_SERVICE_ROLE_KEY). The key never leaves the server.
 */
export interface StorageApi {
  /** The project's address (SUPABASE_URL), without a trailing slash; Storage is `/storage/v1`. */
  url: string;
  /** A legacy `service_role` JWT or a new `sb_secret_…` key. */
  serviceRoleKey: string;
}

/** Storage removes at most this many names in one request. */
export const removeBatchSize = 1000;

/** One request to Storage ends after this long; the names stay queued for the next run. */
export const storageRequestMs = 30_000;

/** Storage refused or failed a request: the HTTP status, never the answer's text. */
export class StorageApiError extends Error {
  readonly code: string;
  constructor(status: number) {
    super(`Storage antwortete ${status}`);
    this.name = 'StorageApiError';
    this.code = `storage-${status}`;
  }
}

/**
 * Removes the named objects of one bucket (supabase-js `storage.from(bucket).remove(names)`:
 * `DELETE /storage/v1/object/{bucket}` with `{prefixes}`), row and body. Answers the names
 * Storage removed; a name it did not find is not among them.
 */
export async function removeStorageObjects(
  api: StorageApi,
  bucket: string,
  names: string[],
): Promise<string[]> {
  if (names.length === 0) return [];
  if (names.length > removeBatchSize) {
    throw new RangeError(`Höchstens ${removeBatchSize} Namen je Anfrage`);
  }
  const headers: Record<string, string> = {
    apikey: api.serviceRoleKey,
    'content-type': 'application/json',
  };
  // A new secret key goes in `apikey` only (the platform turns it into a token); a legacy
  // service_role JWT is also the bearer, as supabase-js sends it.
  if (!api.serviceRoleKey.startsWith('sb_')) {
    headers.authorization = `Bearer ${api.serviceRoleKey}`;
  }
  const response = await fetch(`${api.url}/storage/v1/object/${encodeURIComponent(bucket)}`, {
    method: 'DELETE',
    headers,
    body: JSON.stringify({ prefixes: names }),
    redirect: 'error',
    signal: AbortSignal.timeout(storageRequestMs),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new StorageApiError(response.status);
  }
  const removed: unknown = await response.json();
  if (!Array.isArray(removed)) return [];
  return removed.flatMap((row: unknown) => {
    const name = (row as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? [name] : [];
  });
}
