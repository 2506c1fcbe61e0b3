import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Queryable } from '../../db/database.ts';
import {
  anonymousClaims,
  bearerToken,
  verifyGatewayToken,
  type GatewayClaims,
} from '../gateway-jwt.ts';
import { storageErrors } from './errors.ts';

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/**
 * The caller's claims from the bearer token. No token is `anon` where Storage allows it; a bad,
 * expired or foreign token (a hub service token among them) is Storage's AccessDenied, never a
 * database role.
 */
export async function callerClaims(
  authorization: string | undefined,
  secret: string,
  options: { required: boolean; db: Queryable },
): Promise<GatewayClaims> {
  const token = bearerToken(authorization);
  if (!token) {
    if (options.required) throw storageErrors.accessDenied('Invalid JWT');
    return anonymousClaims;
  }
  const check = await verifyGatewayToken(token, secret, options.db);
  if (check.ok) return check.claims;
  throw storageErrors.accessDenied(
    check.reason === 'expired'
      ? '"exp" claim timestamp check failed'
      : check.reason === 'no_exp'
        ? 'missing required "exp" claim'
        : check.reason === 'session_ended'
          ? 'Session has ended'
          : check.reason === 'role'
            ? 'Invalid role'
            : 'Invalid JWT',
  );
}

// A signed URL's token names its object and the download scope, and nothing else: it has no
// `role`, so it can never pass as a bearer token, and a bearer token has no `url`.
const downloadScope = 'download';

export async function signDownloadToken(
  secret: string,
  url: string,
  expiresIn: number,
  now: Date,
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ url, scope: downloadScope })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + expiresIn)
    .sign(keyOf(secret));
}

/** Checks a signed URL's token for this very object; Storage's InvalidJWT or InvalidSignature. */
export async function verifyDownloadToken(
  secret: string,
  token: string,
  url: string,
  now: Date,
): Promise<void> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    throw storageErrors.invalidJwt(
      error instanceof joseErrors.JWTExpired ? '"exp" claim timestamp check failed' : 'Invalid JWT',
    );
  }
  if (payload.scope !== downloadScope) {
    throw storageErrors.invalidSignature(`Token is not scoped for ${downloadScope}`);
  }
  if (payload.url !== url) throw storageErrors.invalidSignature();
}
