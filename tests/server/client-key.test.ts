import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { clientKey, normalisedClient } from '../../server/http/client-key.ts';

describe('TRUST_PROXY', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'client-key-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (value?: string) =>
    loadConfig({ DATA_DIR: dataDir, ...(value === undefined ? {} : { TRUST_PROXY: value }) });

  it('trusts no proxy unless told', () => {
    expect(load().trustProxy).toBeUndefined();
    expect(load('').trustProxy).toBeUndefined();
  });

  it('reads addresses, CIDR ranges and proxy-addr’s names as a list', () => {
    expect(load('127.0.0.1').trustProxy).toEqual(['127.0.0.1']);
    expect(load(' 10.0.0.0/8, ::1 ,fd00::/8,192.168.0.0/255.255.0.0, loopback').trustProxy).toEqual(
      ['10.0.0.0/8', '::1', 'fd00::/8', '192.168.0.0/255.255.0.0', 'loopback'],
    );
  });

  it.each([
    ['true', /jedem Absender zu vertrauen/],
    ['1', /Anzahl von Proxys prüft nicht, wer verbunden ist/],
    ['proxy.example.de', /„proxy.example.de“ ist keine Adresse/],
    ['10.0.0.0/33', /„10.0.0.0\/33“ ist keine Adresse/],
    ['127.0.0.1,,10.0.0.1', /„“ ist keine Adresse/],
    ['::1/129', /„::1\/129“/],
  ])('stops at TRUST_PROXY=%s, naming it', (value, message) => {
    expect(() => load(value)).toThrow(/TRUST_PROXY: /);
    expect(() => load(value)).toThrow(message);
  });
});

describe('clientKey', () => {
  it('is the connection’s address, X-Forwarded-For ignored, without a trusted proxy', async () => {
    const app = Fastify();
    app.get('/', (request) => ({ key: clientKey(request) }));
    const res = await app.inject({
      url: '/',
      remoteAddress: '192.0.2.7',
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(res.json()).toEqual({ key: '192.0.2.7' });
    await app.close();
  });

  it('is the address the trusted proxy names, and only the trusted proxy', async () => {
    const app = Fastify({ trustProxy: ['10.0.0.0/8'] });
    app.get('/', (request) => ({ key: clientKey(request) }));
    const from = (remoteAddress: string, forwarded: string) =>
      app
        .inject({ url: '/', remoteAddress, headers: { 'x-forwarded-for': forwarded } })
        .then((res) => (res.json() as { key: string }).key);
    // Behind two proxies of the range, the first address outside it is the client.
    expect(await from('10.0.0.2', '198.51.100.1, 192.0.2.7, 10.0.0.9')).toBe('192.0.2.7');
    expect(await from('192.0.2.8', '198.51.100.1')).toBe('192.0.2.8');
    await app.close();
  });

  it('counts an IPv4-mapped address as IPv4 and an IPv6 client by its /64', () => {
    expect(normalisedClient('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(normalisedClient('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(normalisedClient('2001:DB8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(normalisedClient('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(normalisedClient('::1')).toBe('0:0:0:0::/64');
    expect(normalisedClient('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
