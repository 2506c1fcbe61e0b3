import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

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
  { ok: true; claims: GatewayClaims } | { ok: false; reason: 'invalid' | 'expired' | 'role' };

/** The claims of a request that carried no bearer token: PostgREST runs it as `anon`. */
export const anonymousClaims: GatewayClaims = { role: 'anon' };

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/** Checks signature (HS256 only: `alg: none` and key confusion fail), `exp` and `nbf`, then the role. */
export async function verifyGatewayToken(token: string, secret: string): Promise<TokenCheck> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      clockTolerance: 30,
    }));
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
  if (!apiRoles.includes(payload.role as ApiRole)) return { ok: false, reason: 'role' };
  return { ok: true, claims: payload as GatewayClaims };
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
