import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
  type JWTPayload,
} from 'jose';
import type { Database } from '../db/database.ts';
import { sessionState } from '../gateway/session-liveness.ts';
import { HubError } from './errors.ts';
import { isUuid } from '../http/uuid.ts';
import type { FunctionResult } from '../db/table-rows.ts';

const HUB_ISSUER = 'universa-hub';
const HUB_AUDIENCE = 'hub';
const HUB_TOKEN_SECONDS = 60 * 60;
// What hosted Supabase signs access tokens with once a project uses asymmetric signing keys.
const PROJECT_KEY_ALGORITHMS = ['ES256', 'RS256'];

export interface HubAuth {
  issueServiceToken(
    email: string,
    password: string,
  ): Promise<{ token: string; expires_in: number }>;
  /**
   * A route hook for reads of leads: lets through integrations (hub token) and staff who may
   * export (a session of role staff or admin for which the database's can_export() holds, the
   * right the desk's export checks: admins always, staff while the setting allows it); refuses
   * everyone else.
   */
  requireReader(request: FastifyRequest): Promise<void>;
  /**
   * The staff account requireReader let through for this request (its user id); undefined for an
   * integration. What staff read here goes into the access log.
   */
  staffReader(request: FastifyRequest): string | undefined;
}

export function createHubAuth(options: {
  secret: string;
  db: Database;
  service: { email: string; password: string } | undefined;
  /**
   * Hosted mode: staff tokens come from the project's GoTrue, checked with its JWKS (asymmetric
   * keys, fetched from the project and cached) or its legacy HS256 secret. Locally the gateway
   * signs them with `secret`.
   */
  supabase?: { url: string | undefined; jwtSecret: string | undefined } | undefined;
}): HubAuth {
  const key = new TextEncoder().encode(options.secret);
  const staffReaders = new WeakMap<FastifyRequest, string>();
  const legacyKey = options.supabase?.jwtSecret
    ? new TextEncoder().encode(options.supabase.jwtSecret)
    : undefined;
  const projectKeys = options.supabase?.url
    ? createRemoteJWKSet(new URL(`${options.supabase.url}/auth/v1/.well-known/jwks.json`))
    : undefined;

  /** The token's claims and whether the hub's own secret signed it; undefined when no key fits. */
  async function verify(
    token: string,
  ): Promise<{ payload: JWTPayload; byHub: boolean } | undefined> {
    let algorithm: string | undefined;
    try {
      algorithm = decodeProtectedHeader(token).alg;
    } catch {
      return undefined;
    }
    // A token without `exp` would work forever: refused, whoever signed it.
    const check = { clockTolerance: 30, requiredClaims: ['exp'] };
    if (algorithm === 'HS256') {
      const hub = await jwtVerify(token, key, { ...check, algorithms: ['HS256'] }).catch(
        () => undefined,
      );
      if (hub) return { payload: hub.payload, byHub: true };
      if (!legacyKey) return undefined;
      const legacy = await jwtVerify(token, legacyKey, { ...check, algorithms: ['HS256'] }).catch(
        () => undefined,
      );
      return legacy && { payload: legacy.payload, byHub: false };
    }
    if (!projectKeys || !PROJECT_KEY_ALGORITHMS.includes(algorithm ?? '')) return undefined;
    try {
      const project = await jwtVerify(token, projectKeys, {
        ...check,
        algorithms: PROJECT_KEY_ALGORITHMS,
      });
      return { payload: project.payload, byHub: false };
    } catch (error) {
      // A key set that cannot be fetched says nothing about the token: the caller may retry.
      if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) {
        return undefined;
      }
      throw new HubError(
        503,
        'auth_unavailable',
        'Die Anmeldung kann gerade nicht geprüft werden. Bitte gleich noch einmal versuchen.',
      );
    }
  }

  return {
    async issueServiceToken(email, password) {
      const service = options.service;
      if (
        !service ||
        !sameText(email.toLowerCase(), service.email) ||
        !sameText(password, service.password)
      ) {
        throw new HubError(401, 'invalid_credentials', 'E-Mail oder Passwort ist falsch.');
      }
      const token = await new SignJWT({ role: 'hub_service' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(HUB_ISSUER)
        .setAudience(HUB_AUDIENCE)
        .setSubject(service.email)
        .setIssuedAt()
        .setExpirationTime(`${HUB_TOKEN_SECONDS}s`)
        .sign(key);
      return { token, expires_in: HUB_TOKEN_SECONDS };
    },

    staffReader: (request) => staffReaders.get(request),

    async requireReader(request) {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new HubError(401, 'unauthorized', 'Anmeldung erforderlich.');
      const verified = await verify(token);
      if (!verified) {
        throw new HubError(401, 'invalid_token', 'Das Token ist ungültig oder abgelaufen.');
      }
      const { payload } = verified;
      if (
        verified.byHub &&
        payload.iss === HUB_ISSUER &&
        payload.aud === HUB_AUDIENCE &&
        payload.role === 'hub_service'
      ) {
        return;
      }
      if (payload.role === 'authenticated' && typeof payload.sub === 'string') {
        // A session ended by a password change or a sign-out opens nothing here either, as on
        // the gateway (session-liveness.ts; GoTrue keeps its sessions in the same table).
        const session = await sessionState(options.db, payload.session_id);
        if (session === 'ended' || session === 'invalid') {
          throw new HubError(
            401,
            'invalid_token',
            'Die Sitzung ist beendet. Bitte melden Sie sich neu an.',
          );
        }
        const right = await staffRight(options.db, payload.sub);
        if (right?.role === 'staff' || right?.role === 'admin') {
          // The desk reads no more than this without the export right: a lead list with every
          // answer is an export, and a read by id walks through every lead.
          if (!right.canExport) {
            throw new HubError(
              403,
              'export_not_allowed',
              'Dieses Konto darf keine Anfragen exportieren. Admins können es Mitarbeitenden unter „Mitarbeiter“ erlauben.',
            );
          }
          staffReaders.set(request, payload.sub);
          return;
        }
      }
      throw new HubError(
        403,
        'forbidden',
        'Für dieses Konto ist der Zugriff nicht freigeschaltet.',
      );
    },
  };
}

/**
 * The account's desk role and export right, as the database's own functions decide them for a
 * request of this account (staff_role() and can_export() under its claims, as the desk's export
 * calls them): one right, not a second copy of its rule here. Undefined for a subject that is
 * not an account id.
 */
async function staffRight(
  db: Database,
  sub: string,
): Promise<{ role: string | null; canExport: boolean } | undefined> {
  if (!isUuid(sub)) return undefined;
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub, role: 'authenticated' }),
    ]);
    // staff_role() is null for an account that is not staff; the generator cannot say so.
    const result = await tx.query<{
      role: FunctionResult<'staff_role'> | null;
      can_export: FunctionResult<'can_export'>;
    }>('select public.staff_role() as role, public.can_export() as can_export');
    const row = result.rows[0];
    return { role: row?.role ?? null, canExport: row?.can_export === true };
  });
}

/** Compares secrets in constant time, so response timing tells nothing about them. */
function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
