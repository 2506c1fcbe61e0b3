import {
  anonymousClaims,
  bearerToken,
  verifyGatewayToken,
  type GatewayClaims,
} from '../gateway-jwt.ts';
import type { Queryable } from '../../db/database.ts';
import { pathBelow } from '../path-below.ts';
import { PostgrestError } from './errors.ts';
import { GrammarError, parseQuery, type ParsedQuery } from './query-grammar.ts';

// Step 1 of the REST path (PostgREST's ApiRequest): the HTTP request, read once into a typed
// value. Nothing here knows the catalog; later steps never see the HTTP request itself.

/** What of an HTTP request this step reads: Fastify's request fits. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export type CountKind = 'exact' | 'planned' | 'estimated';

export type Action = 'read' | 'insert' | 'upsert' | 'update' | 'delete' | 'call';

export type Target =
  /** A table or view: `/rest/v1/name`. */
  | { kind: 'relation'; name: string }
  /** A function: `/rest/v1/rpc/name`. */
  | { kind: 'routine'; name: string };

/** The `Prefer` header, as far as the gateway honours it. */
export interface Preferences {
  /** `return=representation`: a write answers the rows it touched. */
  representation: boolean;
  /** `return=minimal`, asked explicitly. */
  minimal: boolean;
  count?: CountKind;
  /** `resolution=merge-duplicates` or `ignore-duplicates`: an insert is an upsert. */
  resolution?: 'merge' | 'ignore';
  /** `missing=default`: columns a row leaves out take their default. */
  missingDefault: boolean;
}

/** The media type of one object instead of an array (supabase-js's `.single()`). */
export const singleObject = 'application/vnd.pgrst.object+json';

/** `Accept`: the media types asked for, lower-cased and without parameters. */
export interface Accept {
  /** The header as sent, for PostgREST's 406. */
  raw: string;
  types: string[];
  /** `nulls=stripped` (supabase-js's stripNulls()). */
  stripNulls: boolean;
}

export interface ApiRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  /** The path below the service prefix, as PostgREST reports it in `request.path`. */
  path: string;
  target: Target;
  action: Action;
  /**
   * The query string's grammar, for a table or view. A function's is read by the plan: which
   * keys are its arguments depends on the function (on GET and HEAD).
   */
  query?: ParsedQuery;
  /** The raw query string (after `?`). */
  search: string;
  preferences: Preferences;
  /** `Range: 0-9` (PostgREST's older way of paging). */
  range?: { from: number; to?: number };
  /** Absent when the caller sent no Accept (or an empty one). */
  accept?: Accept;
  /** The parsed JSON body; undefined without one. */
  body: unknown;
  claims: GatewayClaims;
  /** String-valued headers, lower-cased, for `request.headers` in the database; never logged. */
  headers: Record<string, string>;
}

/**
 * Reads `request`, sent to `target` below `prefix`. Refuses (in this order, as PostgREST) a bad
 * token (401), a schema other than `public` (406) and a query string outside the grammar (400).
 */
export async function apiRequestOf(
  request: HttpRequest,
  target: Target,
  context: { prefix: string; jwtSecret: string; db?: Queryable },
): Promise<ApiRequest> {
  const claims = await claimsOf(request.headers.authorization, context.jwtSecret, context.db);
  checkProfile(request.headers);
  const method = request.method as ApiRequest['method'];
  const search = queryString(request.url);
  const preferences = preferencesOf(request.headers.prefer);
  const api: ApiRequest = {
    method,
    path: pathBelow(context.prefix, request.url),
    target,
    action: actionOf(method, target, preferences),
    search,
    preferences,
    body: request.body,
    claims,
    headers: stringHeaders(request.headers),
  };
  if (target.kind === 'relation') api.query = grammarOf(search);
  const range = rangeOf(request.headers.range);
  if (range) api.range = range;
  const accept = acceptOf(request.headers.accept);
  if (accept) api.accept = accept;
  return api;
}

function actionOf(method: string, target: Target, preferences: Preferences): Action {
  if (target.kind === 'routine') return 'call';
  if (method === 'POST') return preferences.resolution ? 'upsert' : 'insert';
  if (method === 'PATCH') return 'update';
  if (method === 'DELETE') return 'delete';
  return 'read';
}

/** The query string's grammar; `extraKeys` are not filters (a function's arguments on GET). */
export function grammarOf(search: string, extraKeys?: ReadonlySet<string>): ParsedQuery {
  try {
    return parseQuery(search, extraKeys);
  } catch (error) {
    if (error instanceof GrammarError) {
      throw new PostgrestError(400, 'PGRST100', error.message, { details: error.details });
    }
    throw error;
  }
}

function queryString(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/** `Prefer` may come as one header with commas or as several headers. */
export function preferencesOf(header: string | string[] | undefined): Preferences {
  const values = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(/[,;]/)
    .map((value) => value.trim());
  const preferences: Preferences = {
    representation: values.includes('return=representation'),
    minimal: values.includes('return=minimal'),
    missingDefault: values.includes('missing=default'),
  };
  const count = values.find((value) => /^count=(exact|planned|estimated)$/.test(value));
  if (count) preferences.count = count.slice('count='.length) as CountKind;
  if (values.includes('resolution=merge-duplicates')) preferences.resolution = 'merge';
  else if (values.includes('resolution=ignore-duplicates')) preferences.resolution = 'ignore';
  return preferences;
}

/** `Range: 0-9` or `Range: 10-`; anything else is no range. */
export function rangeOf(header: string | string[] | undefined): ApiRequest['range'] {
  const match = /^(\d{1,15})-(\d{0,15})$/.exec(String(header ?? '').trim());
  if (!match) return undefined;
  const from = Number(match[1]);
  return match[2] ? { from, to: Number(match[2]) } : { from };
}

export function acceptOf(header: string | string[] | undefined): Accept | undefined {
  const raw = Array.isArray(header) ? header.join(',') : header;
  if (raw === undefined || raw.trim() === '') return undefined;
  return {
    raw,
    types: raw.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase()),
    stripNulls: raw.includes('nulls=stripped'),
  };
}

/** The schema asked for with Accept-Profile / Content-Profile: only `public` is exposed. */
function checkProfile(headers: HttpRequest['headers']): void {
  for (const header of ['accept-profile', 'content-profile'] as const) {
    const value = headers[header];
    if (value !== undefined && value !== 'public') {
      throw new PostgrestError(406, 'PGRST106', `Invalid schema: ${String(value)}`, {
        hint: 'Only the following schemas are exposed: public',
      });
    }
  }
}

function roleNamed(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    return String((payload as { role?: unknown }).role ?? '');
  } catch {
    return '';
  }
}

/** The bearer token's claims (none: anon). The `apikey` header plays no part, as in PostgREST. */
async function claimsOf(
  authorization: string | string[] | undefined,
  secret: string,
  db: Queryable | undefined,
): Promise<GatewayClaims> {
  const token = bearerToken(Array.isArray(authorization) ? authorization[0] : authorization);
  if (token === undefined) return anonymousClaims;
  const check = await verifyGatewayToken(token, secret, db);
  if (check.ok) return check.claims;
  const refusal =
    check.reason === 'expired'
      ? { status: 401, code: 'PGRST303', message: 'JWT expired' }
      : check.reason === 'no_exp'
        ? { status: 401, code: 'PGRST303', message: 'JWT has no exp claim' }
        : check.reason === 'session_ended'
          ? { status: 401, code: 'PGRST303', message: 'JWT session has ended' }
          : check.reason === 'role'
            ? { status: 401, code: '22023', message: `role "${roleNamed(token)}" does not exist` }
            : { status: 401, code: 'PGRST301', message: 'No suitable key or wrong key type' };
  const challenge = `Bearer error="invalid_token", error_description="${refusal.message.replace(/"/g, "'")}"`;
  throw new PostgrestError(refusal.status, refusal.code, refusal.message, {
    ...(refusal.code === 'PGRST301'
      ? { details: 'None of the keys was able to decode the JWT' }
      : {}),
    headers: { 'www-authenticate': challenge },
  });
}

function stringHeaders(headers: HttpRequest['headers']): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') strings[name] = value;
  }
  return strings;
}
