import { storageErrors } from './errors.ts';

// Values an upload brings that later become response headers or decide the write: checked when
// they arrive (Storage's 400 InvalidRequest), and what is sent from a stored row is checked
// again on the way out, so a value stored before these checks (or written by SQL) can never make
// a download fail: Node refuses a header value with a line break, and the download answered 500.

const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"[^"\\\\\\x00-\\x1f\\x7f]*"';
const directive = `${token}(?:=(?:${token}|${quoted}))?`;
const cacheControlPattern = new RegExp(`^${directive}(?:[ \\t]*,[ \\t]*${directive})*$`);
const maxCacheControlLength = 256;

function isCacheControl(value: string): boolean {
  return value.length <= maxCacheControlLength && cacheControlPattern.test(value);
}

/**
 * The Cache-Control an upload asks for: supabase-js sends seconds (`3600`, stored as
 * `max-age=3600`) or, on a raw body, `max-age=3600`; absent is `no-cache`. Anything that is not
 * a list of Cache-Control directives is refused.
 */
export function uploadCacheControl(raw: string | undefined): string {
  const value = raw?.trim();
  if (!value) return 'no-cache';
  if (/^\d{1,10}$/.test(value)) return `max-age=${value}`;
  if (!isCacheControl(value)) throw storageErrors.invalidRequest('Invalid cache control');
  return value;
}

/** The stored Cache-Control as sent with a download: `no-cache` unless it is a valid one. */
export function servedCacheControl(stored: unknown): string {
  return typeof stored === 'string' && isCacheControl(stored) ? stored : 'no-cache';
}

/** A stored ETag as sent: an entity tag (`"…"`, optionally weak), else none. */
export function servedEtag(stored: unknown): string | undefined {
  return typeof stored === 'string' && /^(W\/)?"[\x21\x23-\x7e]{0,200}"$/.test(stored)
    ? stored
    : undefined;
}

/** `x-upsert` as supabase-js sends it (`true`/`false`); absent is false, anything else refused. */
export function upsertHeader(value: string | string[] | undefined): boolean {
  if (value === undefined) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw storageErrors.invalidRequest('Invalid x-upsert header: expected true or false');
}

const maxMetadataLength = 8 * 1024;

/**
 * User metadata of an upload (supabase-js: the multipart field `metadata`, JSON; on a raw body
 * the `x-metadata` header, base64 of JSON): it must be one JSON object of at most 8 KiB. The
 * gateway keeps none of it (Survey Desk sends none); it is checked so that nothing malformed is
 * taken silently.
 */
export function checkUserMetadata(
  value: string | string[] | undefined,
  encoding: 'json' | 'base64',
): void {
  if (value === undefined) return;
  const invalid = () => storageErrors.invalidRequest('Invalid metadata: expected a JSON object');
  if (typeof value !== 'string' || value.length > maxMetadataLength * 2) throw invalid();
  let text = value;
  if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw invalid();
    text = Buffer.from(value, 'base64').toString('utf8');
  }
  if (text.length > maxMetadataLength) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
}
