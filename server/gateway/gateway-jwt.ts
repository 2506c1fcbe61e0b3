import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Queryable } from '../db/database.ts';
import { sessionState } from './session-liveness.ts';

// The gateway's tokens are what a Supabase project signs with its legacy JWT secret: HS256, a
// `role` claim naming one of the three API roles. The role becomes the database role of the
// request, so no other value may ever get that far (the hub's own service tokens carry
// `role: hub_service` and are refused here, as on hosted Supabase).

export const apiRoles = ['anon', 'authenticated', 'service_role'] as const;
export type ApiRole = (typeof apiRoles)[number];

export interface GatewayClaims extends JWTPayload {
  role: ApiRole;
  [claim: string]: unknown;
}

export type TokenCheck =
  | { ok: true; claims: GatewayClaims }
  | { ok: false; reason: 'invalid' | 'expired' | 'no_exp' | 'role' | 'session_ended' };

/** The claims of a request that carried no bearer token: PostgREST runs it as `anon`. */
export const anonymousClaims: GatewayClaims = { role: 'anon' };

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/**
 * Checks signature (HS256 only: `alg: none` and key confusion fail), `exp` and `nbf`, then the
 * role. A token without `exp` is refused: it would work forever, and nothing the gateway or
 * GoTrue signs lacks one (the API keys carry theirs too). With `db`, a token that names a session
 * (`session_id`) must name one that still exists (see session-liveness.ts).
 */
export async function verifyGatewayToken(
  token: string,
  secret: string,
  db?: Queryable,
): Promise<TokenCheck> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      clockTolerance: 30,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
    if (isMissingExp(error)) return { ok: false, reason: 'no_exp' };
    return { ok: false, reason: 'invalid' };
  }
  if (!apiRoles.includes(payload.role as ApiRole)) return { ok: false, reason: 'role' };
  if (db) {
    const session = await sessionState(db, payload.session_id);
    if (session === 'invalid') return { ok: false, reason: 'invalid' };
    if (session === 'ended') return { ok: false, reason: 'session_ended' };
  }
  return { ok: true, claims: payload as GatewayClaims };
}

/** jose's refusal of a well-signed token that has no `exp` claim. */
export function isMissingExp(error: unknown): boolean {
  return (
    error instanceof joseErrors.JWTClaimValidationFailed &&
    error.claim === 'exp' &&
    error.reason === 'missing'
  );
}

/** The bearer token of a request's Authorization header, if it has one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

const tenYears = 10 * 365 * 24 * 60 * 60;

/**
 * The project's API keys, as Supabase issues them: long-lived HS256 tokens for `anon` (public,
 * sent by every browser) and `service_role` (server-side only). Derived from the secret, so they
 * are the same on every start and need no storage.
 */
export async function apiKeys(
  secret: string,
): Promise<{ anonKey: string; serviceRoleKey: string }> {
  const sign = (role: ApiRole) =>
    new SignJWT({ role, iss: 'supabase' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      // A fixed issue time keeps the key identical across restarts.
      .setIssuedAt(1_767_225_600)
      .setExpirationTime(1_767_225_600 + tenYears)
      .sign(keyOf(secret));
  return { anonKey: await sign('anon'), serviceRoleKey: await sign('service_role') };
}
