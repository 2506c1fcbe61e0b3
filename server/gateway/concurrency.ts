import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gatewayPrefixes, hubPrefix } from '../../src/domain/routes.ts';
import { bearerToken, verifyGatewayToken } from './gateway-jwt.ts';
import { clientKey } from '../http/client-key.ts';

// How many gateway requests run at once. Each request's work is bounded (rows, depth, the
// role's timeout), but not how many run together: many parallel heavy reads would hold the
// server, PGlite's one thread as PostgreSQL's background connections. So every request takes a
// place first: at most `perClient` per client, at most `maxConcurrent` in all, and of those
// `staffShare` only for signed-in callers, so that anonymous requests can never take all of
// them and hold up the desk. A request that finds no place waits up to `queueMs` for one, then
// is refused with 503 and Retry-After (in the service's own error shape).

export interface GatewayConcurrency {
  /** Gateway requests (REST and Storage) running at once in this process. */
  maxConcurrent: number;
  /** Of those, how many only signed-in callers (authenticated, service_role) may take. */
  staffShare: number;
  /** Requests one client runs at once (signed in: per client and account). */
  perClient: number;
  /** How long a request over a cap waits for a place before it is refused. */
  queueMs: number;
}

export const defaultGatewayConcurrency: GatewayConcurrency = {
  maxConcurrent: 8,
  staffShare: 4,
  perClient: 2,
  queueMs: 1000,
};

/**
 * Requests that may wait per client (times `perClient`), and anonymous ones in all (times
 * `maxConcurrent`); more are refused at once. A signed-in request is never refused because
 * anonymous ones fill the queue.
 */
const waitingPerClientFactor = 8;
const waitingInAllFactor = 16;

interface Waiting {
  key: string;
  staff: boolean;
  admit: () => void;
}

export interface Gate {
  /** A place for a request, with the function that gives it back; undefined when refused. */
  enter(key: string, staff: boolean): Promise<(() => void) | undefined>;
  /** What runs now (for tests and logs). */
  running(): { all: number; anonymous: number };
}

export function createGate(limits: GatewayConcurrency): Gate {
  const anonymousShare = Math.max(1, limits.maxConcurrent - limits.staffShare);
  let all = 0;
  let anonymous = 0;
  const perKey = new Map<string, number>();
  const waitingPerKey = new Map<string, number>();
  const waiting: Waiting[] = [];

  const fits = (key: string, staff: boolean) =>
    all < limits.maxConcurrent &&
    (staff || anonymous < anonymousShare) &&
    (perKey.get(key) ?? 0) < limits.perClient;

  const start = (key: string, staff: boolean) => {
    all += 1;
    if (!staff) anonymous += 1;
    perKey.set(key, (perKey.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      all -= 1;
      if (!staff) anonymous -= 1;
      const left = perKey.get(key)! - 1;
      if (left === 0) perKey.delete(key);
      else perKey.set(key, left);
      admitWaiting();
    };
  };

  // In arrival order, each waiting request that fits now (a signed-in one may fit where an
  // anonymous one ahead of it does not).
  const admitWaiting = () => {
    for (let i = 0; i < waiting.length;) {
      const entry = waiting[i]!;
      if (fits(entry.key, entry.staff)) {
        waiting.splice(i, 1);
        entry.admit();
      } else i += 1;
    }
  };

  const changeWaiting = (key: string, by: number) => {
    const count = (waitingPerKey.get(key) ?? 0) + by;
    if (count === 0) waitingPerKey.delete(key);
    else waitingPerKey.set(key, count);
  };

  return {
    enter(key, staff) {
      if (fits(key, staff)) return Promise.resolve(start(key, staff));
      if (
        (waitingPerKey.get(key) ?? 0) >= limits.perClient * waitingPerClientFactor ||
        (!staff && waiting.length >= limits.maxConcurrent * waitingInAllFactor) ||
        limits.queueMs === 0
      ) {
        return Promise.resolve(undefined);
      }
      return new Promise((resolve) => {
        changeWaiting(key, 1);
        const entry: Waiting = {
          key,
          staff,
          admit: () => {
            clearTimeout(timer);
            changeWaiting(key, -1);
            resolve(start(key, staff));
          },
        };
        const timer = setTimeout(() => {
          const index = waiting.indexOf(entry);
          if (index >= 0) waiting.splice(index, 1);
          changeWaiting(key, -1);
          resolve(undefined);
        }, limits.queueMs);
        waiting.push(entry);
      });
    },
    running: () => ({ all, anonymous }),
  };
}

/** Sends the service's refusal for a request that found no place. */
export type Refuse = (
  request: FastifyRequest,
  reply: FastifyReply,
  retryAfterSeconds: number,
) => FastifyReply;

/**
 * Puts a service's routes behind `gate`: each request takes its place before its handler runs
 * (after its body was read, so a slow sender holds no place) and gives it back when its answer
 * is sent. A token that does not verify counts as anonymous; the route refuses it anyway.
 */
export function guardWithGate(
  scope: FastifyInstance,
  gate: Gate,
  options: { secret: string; queueMs: number; refuse: Refuse },
): void {
  const places = new WeakMap<FastifyRequest, () => void>();
  const retryAfter = Math.max(1, Math.ceil(options.queueMs / 1000));
  scope.addHook('preHandler', async (request, reply) => {
    // A CORS preflight does no work of its own. A request that already holds its place (a 404
    // passes the scope's hooks a second time on its way to the not-found handler) keeps it.
    if (request.method === 'OPTIONS' || places.has(request)) return;
    const token = bearerToken(request.headers.authorization);
    const check = token ? await verifyGatewayToken(token, options.secret) : undefined;
    const staff = check?.ok === true && check.claims.role !== 'anon';
    const address = clientKey(request);
    const key = staff ? `${address} ${check.claims.sub ?? check.claims.role}` : address;
    const release = await gate.enter(key, staff);
    if (!release) return options.refuse(request, reply, retryAfter);
    places.set(request, release);
  });
  const giveBack = async (request: FastifyRequest) => {
    places.get(request)?.();
  };
  // The work is done once the answer is sent; onResponse as well, should a send bypass onSend.
  scope.addHook('onSend', async (request) => giveBack(request));
  scope.addHook('onResponse', async (request) => giveBack(request));
}

/**
 * Whether a request's work goes before anonymous gateway work on PGlite (`Database.hold`): the
 * hub's (leads, questionnaires), sign-in's, and a signed-in caller's at REST and Storage. The
 * token is only read here, not checked: a forged one is refused by its route a moment later, and
 * all it could gain is a pause of anonymous work.
 */
export function goesBeforeAnonymous(url: string, authorization: string | undefined): boolean {
  if (url.startsWith(`${hubPrefix}/`) || url.startsWith(`${gatewayPrefixes.auth}/`)) return true;
  if (!url.startsWith(`${gatewayPrefixes.rest}/`) && !url.startsWith(`${gatewayPrefixes.storage}/`))
    return false;
  const payload = bearerToken(authorization)?.split('.')[1];
  if (!payload) return false;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return (
      typeof claims === 'object' && claims !== null && 'role' in claims && claims.role !== 'anon'
    );
  } catch {
    return false;
  }
}
