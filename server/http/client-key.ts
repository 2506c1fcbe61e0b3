import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Which proxies may name the client in `X-Forwarded-For` (TRUST_PROXY), in the form Fastify's
 * `trustProxy` takes it: the proxies' addresses and ranges. Undefined: none, the connection's own
 * address is the client.
 */
export type TrustProxy = string[];

// proxy-addr's (Fastify's) names for ranges.
const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Reads TRUST_PROXY: a comma list of the proxies' addresses, CIDR ranges (`10.0.0.0/8`) and
 * proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`), as Fastify's `trustProxy` takes
 * them. Anything else is refused with a reason: `true`, since trusting every sender would let any
 * client name itself whatever address it likes, and a hop count, which Fastify 5 no longer
 * honours (it cannot tell the proxy from a client that connects directly) and which would
 * therefore silently trust nobody.
 */
export function parseTrustProxy(value: string): { value: string[] } | { error: string } {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    return {
      error:
        'eine Anzahl von Proxys prüft nicht, wer verbunden ist (Fastify vertraut dann niemandem); bitte die Adresse oder den Bereich des Proxys nennen, z. B. 127.0.0.1 oder 10.0.0.0/8',
    };
  }
  if (/^(true|yes|on|all|\*)$/i.test(text)) {
    return {
      error:
        'jedem Absender zu vertrauen ließe jeden Client seine Adresse selbst angeben; bitte die Adresse des Proxys oder die Anzahl der Proxys nennen',
    };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!validEntry(entry)) {
      return {
        error: `„${entry}“ ist keine Adresse, kein Bereich (CIDR) und keine Anzahl von Proxys`,
      };
    }
  }
  return { value: entries };
}

function validEntry(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  // An IPv4 netmask (10.0.0.0/255.0.0.0), which proxy-addr takes too.
  return family === 4 && isIP(range) === 4;
}

/**
 * The client a per-client limit counts: the connection's address, or, when TRUST_PROXY trusts
 * the proxies in between, the address they name in `X-Forwarded-For` (Fastify's `request.ip`
 * under `trustProxy`). Every per-client counter keys on this, so a proxy in front never turns
 * them into one counter for everyone, and a client that is not a trusted proxy cannot name
 * another client.
 */
export function clientKey(request: FastifyRequest): string {
  return normalisedClient(request.ip);
}

/**
 * One key per client: an IPv4 address as itself (also when it arrives IPv4-mapped, `::ffff:…`),
 * an IPv6 address as its /64 network, as @fastify/rate-limit's own default groups it: one line
 * hands its owner a whole /64, and counting each of its addresses apart would let them start
 * afresh with the next one.
 */
export function normalisedClient(address: string): string {
  if (isIP(address) !== 6) return address.toLowerCase();
  const groups = ipv6Groups(address);
  if (!groups) return address.toLowerCase();
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, IPv4 tail folded in). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const gap = halves.length === 2 ? 8 - head.length - rest.length : 0;
  if (gap < 0 || head.length + gap + rest.length !== 8) return undefined;
  const groups = [...head, ...Array<string>(gap).fill('0'), ...rest].map((g) => parseInt(g, 16));
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}
