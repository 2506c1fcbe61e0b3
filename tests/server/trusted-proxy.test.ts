import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { hubService, testSecret } from '../helpers/hub.ts';
import { startReverseProxy, type ReverseProxy } from '../helpers/reverse-proxy.ts';
import { fetchFrom, supabaseClient } from '../helpers/supabase.ts';

// Behind a TLS proxy every request comes from the proxy's address (issue 32, item 6). With
// TRUST_PROXY naming the proxy, X-Forwarded-For names the client and every per-client limit counts
// that client; without it, or from anyone but the proxy, the header changes nothing.
const admin = { email: 'admin@example.de', password: 'admin-passwort-1' };
// The proxy connects to the server from this address; clients use other loopback addresses.
const proxyAddress = '127.0.0.100';
const limits = {
  rateLimit: { submissionsPerMinute: 3, batchesPerMinute: 3, leadReadsPerMinute: 3 },
  authRateLimit: { signinsPerMinute: 30, signinFailuresPerAddressPerHour: 10 },
};

/** A client at its own loopback address. */
const at = (address: string) => fetchFrom(address);

const postLead = (client: typeof fetch, base: string, headers: Record<string, string> = {}) =>
  client(`${base}/api/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(questionnaireLead()),
  });

/** Statuses of `count` leads posted by `client`. */
async function leadStatuses(
  client: typeof fetch,
  base: string,
  count: number,
  headers: (i: number) => Record<string, string> = () => ({}),
): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    statuses.push((await postLead(client, base, headers(i))).status);
  }
  return statuses;
}

describe('behind a trusted proxy (TRUST_PROXY names it)', () => {
  let server: GatewayServer;
  let proxy: ReverseProxy;
  /** The server's clock, moved forward instead of waiting out the sign-in waits. */
  let clockMs = 0;

  beforeAll(async () => {
    server = await startGatewayServer('pglite', undefined, {
      name: 'trusted-proxy',
      ...limits,
      trustProxy: [proxyAddress],
      now: () => new Date(Date.now() + clockMs),
    });
    proxy = await startReverseProxy(server.url, proxyAddress);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  const signIn = async (from: string, password: string) => {
    const supabase = await supabaseClient(proxy.url, testSecret, undefined, { fetch: at(from) });
    return supabase.auth.signInWithPassword({ email: admin.email, password });
  };

  it('keeps one client’s ten wrong passwords from locking another out of the admin sign-in', async () => {
    const attacker = '127.0.0.2';
    for (let i = 0; i < 10; i += 1) {
      const { error } = await signIn(attacker, 'falsch-falsch-1');
      expect(error).toMatchObject({ code: 'invalid_credentials' });
      // Past the doubling wait (1 s, 2 s, 4 s, ...), still within the hour.
      clockMs += 1000 * 2 ** i + 100;
    }
    // The attacker has spent the hour for this address ...
    const locked = await at(attacker)(`${proxy.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: 'falsch-falsch-1' }),
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(1000);
    // ... while the admin, another client behind the same proxy, signs in at once.
    const owner = await signIn('127.0.0.3', admin.password);
    expect(owner.error).toBeNull();
    expect(owner.data.session?.user.email).toBe(admin.email);
    // Eleven password hashes: a few seconds alone, far more on a loaded two-core machine.
  }, 60_000);

  it('keeps one client from using up the leads per minute of another', async () => {
    expect(await leadStatuses(at('127.0.0.4'), proxy.url, 4)).toEqual([201, 201, 201, 429]);
    expect(await leadStatuses(at('127.0.0.5'), proxy.url, 1)).toEqual([201]);
  });

  it('counts reads of leads per client', async () => {
    const login = await fetch(`${proxy.url}/api/hub/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(hubService),
    });
    const { token } = (await login.json()) as { token: string };
    const read = (from: string) =>
      at(from)(`${proxy.url}/api/responses?limit=1`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((res) => res.status);
    const first = [await read('127.0.0.6'), await read('127.0.0.6'), await read('127.0.0.6')];
    expect(first).toEqual([200, 200, 200]);
    expect(await read('127.0.0.6')).toBe(429);
    expect(await read('127.0.0.7')).toBe(200);
  });

  it('takes from X-Forwarded-For only what the proxy added: a client’s own entries gain nothing', async () => {
    // The client names a fresh address each time, and once its neighbour's; the proxy appends
    // the address it really came from, and that is the one that counts.
    const forger = at('127.0.0.8');
    const forged = (i: number) => ({
      'x-forwarded-for': i === 0 ? '127.0.0.9' : `203.0.113.${i}`,
    });
    expect(await leadStatuses(forger, proxy.url, 5, forged)).toEqual([201, 201, 201, 429, 429]);
    // The neighbour it named still has its whole minute.
    expect(await leadStatuses(at('127.0.0.9'), proxy.url, 3)).toEqual([201, 201, 201]);
  });

  it('ignores X-Forwarded-For from a client that is not the trusted proxy', async () => {
    // Straight to the server, past the proxy, naming another client and then fresh addresses.
    const direct = at('127.0.0.10');
    const forged = (i: number) => ({
      'x-forwarded-for': i === 0 ? '127.0.0.11' : `198.51.100.${i}`,
    });
    expect(await leadStatuses(direct, server.url, 5, forged)).toEqual([201, 201, 201, 429, 429]);
    expect(await leadStatuses(at('127.0.0.11'), proxy.url, 3)).toEqual([201, 201, 201]);
  });

  it('still takes no address from forwarded headers: not the desk’s origin, not a mail’s link', async () => {
    // The proxy says https and the client adds a forwarded host: the desk is told the address
    // it asked for (Host) on the connection's own scheme, as without a proxy.
    const config = await at('127.0.0.12')(`${proxy.url}/app-config.json`, {
      headers: { 'x-forwarded-host': 'evil.example' },
    });
    expect(((await config.json()) as { supabaseUrl: string }).supabaseUrl).toBe(proxy.url);
    const email = `proxy-${crypto.randomUUID()}@example.de`;
    const signUp = await at('127.0.0.12')(`${proxy.url}/auth/v1/signup`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        apikey: server.anonKey,
        'x-forwarded-host': 'evil.example',
      },
      body: JSON.stringify({ email, password: 'ein-gutes-passwort-42' }),
    });
    expect(signUp.status).toBe(200);
    const link = await mailedLink(server.dataDir, email);
    expect(link.startsWith(`${server.url}/auth/v1/verify?`)).toBe(true);
  });
});

describe('behind a proxy without TRUST_PROXY', () => {
  let server: GatewayServer;
  let proxy: ReverseProxy;

  beforeAll(async () => {
    server = await startGatewayServer('pglite', undefined, { name: 'untrusted-proxy', ...limits });
    proxy = await startReverseProxy(server.url, proxyAddress);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  it('gives a client nothing for an X-Forwarded-For of its own', async () => {
    const forged = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` });
    expect(await leadStatuses(at('127.0.0.2'), server.url, 5, forged)).toEqual([
      201, 201, 201, 429, 429,
    ]);
  });

  it('counts everyone behind the proxy as the proxy, until TRUST_PROXY names it', async () => {
    expect(await leadStatuses(at('127.0.0.3'), proxy.url, 3)).toEqual([201, 201, 201]);
    expect(await leadStatuses(at('127.0.0.4'), proxy.url, 1)).toEqual([429]);
  });
});

/** The link in the newest mail to `email` in DATA_DIR/mail; the mail may still be on its way. */
async function mailedLink(dataDir: string, email: string): Promise<string> {
  const folder = path.join(dataDir, 'mail');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const files = await readdir(folder).catch(() => [] as string[]);
    for (const file of files.sort().reverse()) {
      const mail = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as {
        to: string;
        text: string;
      };
      const link = mail.to === email ? /(http\S+\/auth\/v1\/verify\S+)/.exec(mail.text) : null;
      if (link) return link[1]!;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Keine Mail an ${email}`);
}

// The gateway's cap on requests at once per client (issue 32, item 7) behind the proxy, on
// PostgreSQL, whose statements run side by side (PGlite's block the one event loop, so requests of
// an in-process server rarely overlap).
describe('the gateway’s per-client cap behind a trusted proxy', () => {
  let server: GatewayServer;
  let proxy: ReverseProxy;
  beforeAll(async () => {
    server = await startGatewayServer('postgres', undefined, {
      name: 'trusted-proxy-cap',
      trustProxy: [proxyAddress],
      // One gateway request at once per client and none waiting: a second is refused at once.
      gatewayConcurrency: { maxConcurrent: 8, staffShare: 4, perClient: 1, queueMs: 0 },
    });
    proxy = await startReverseProxy(server.url, proxyAddress);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  it('refuses one client’s flood beyond its share and still answers another client', async () => {
    const read = (from: string) =>
      at(from)(`${proxy.url}/rest/v1/forms?select=id,title,questions(id,question,options)`, {
        headers: { apikey: server.anonKey },
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    const flood = Array.from({ length: 20 }, () => read('127.0.0.7'));
    const other = read('127.0.0.8');
    const statuses = await Promise.all(flood);
    // The flooding client meets its own cap (503, PostgREST's shape) ...
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    // ... and the other client behind the same proxy is still answered.
    expect(await other).toBe(200);
  });
});
