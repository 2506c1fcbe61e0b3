import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import type { Database } from '../db/database.ts';
import { HubError } from './errors.ts';

const HUB_ISSUER = 'universa-hub';
const HUB_AUDIENCE = 'hub';
const HUB_TOKEN_SECONDS = 60 * 60;

export interface HubAuth {
  issueServiceToken(
    email: string,
    password: string,
  ): Promise<{ token: string; expires_in: number }>;
  /**
   * A route hook: lets through integrations (hub token) and enabled staff (a gateway session of
   * role staff or admin), refuses everyone else.
   */
  requireReader(request: FastifyRequest): Promise<void>;
}

export function createHubAuth(options: {
  secret: string;
  db: Database;
  service: { email: string; password: string } | undefined;
}): HubAuth {
  const key = new TextEncoder().encode(options.secret);

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

    async requireReader(request) {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new HubError(401, 'unauthorized', 'Anmeldung erforderlich.');
      const payload = await jwtVerify(token, key, { algorithms: ['HS256'], clockTolerance: 30 })
        .then((r) => r.payload)
        .catch(() => {
          throw new HubError(401, 'invalid_token', 'Das Token ist ungültig oder abgelaufen.');
        });
      if (
        payload.iss === HUB_ISSUER &&
        payload.aud === HUB_AUDIENCE &&
        payload.role === 'hub_service'
      ) {
        return;
      }
      if (payload.role === 'authenticated' && typeof payload.sub === 'string') {
        const staff = await options.db.query<{ role: string }>(
          'select role from public.staff where user_id::text = $1',
          [payload.sub],
        );
        const role = staff.rows[0]?.role;
        if (role === 'staff' || role === 'admin') return;
      }
      throw new HubError(
        403,
        'forbidden',
        'Für dieses Konto ist der Zugriff nicht freigeschaltet.',
      );
    },
  };
}

/** Compares secrets in constant time, so response timing tells nothing about them. */
function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
