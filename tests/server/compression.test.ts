import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressDist } from '../../scripts/compress-dist.mjs';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { setupDatabase } from '../../server/db/setup.ts';
import { apiKeys } from '../../server/gateway/gateway-jwt.ts';
import { registerApiCompression } from '../../server/http/api-compression.ts';

const secret = 'compression-test-secret-compression-test-secret';

/** Text that compresses as real bundles do: repeated code with some variety. */
function code(lines: number, line: (i: number) => string): string {
  return Array.from({ length: lines }, (_, i) => line(i)).join('\n');
}

/** A dist/ as `vite build` leaves it (pages prerendered), before compress-dist ran. */
const distFiles: Record<string, string | Buffer> = {
  'index.html': `<!doctype html><html lang="de"><head><title>Universa</title></head><body><div id="root"></div>${code(40, (i) => `<!-- shell ${i} -->`)}</body></html>`,
  '404.html': `<!doctype html><html lang="de"><head><title>Nicht gefunden</title></head><body>${code(60, (i) => `<p>Diese Seite gibt es nicht (${i}).</p>`)}</body></html>`,
  'universa/index.html': `<!doctype html><html lang="de"><head><title>Universa – Ihre Versicherung</title></head><body><div id="root"><main><h1>Gut versichert</h1>${code(120, (i) => `<section><h2>Angebot ${i}</h2><p>Beratung vor Ort für Familie, Auto und Gesundheit.</p></section>`)}</main></div></body></html>`,
  'assets/index-Ab12Cd34.js': code(
    2000,
    (i) => `export function f${i}(a,b){return a*${i}+b.map((x)=>x+${i % 7}).join(",")}`,
  ),
  'assets/index-Ef56Gh78.css': code(
    800,
    (i) =>
      `.c${i}{margin:${i % 9}px;color:#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`,
  ),
  'manifest.webmanifest': JSON.stringify({ name: 'Universa', icons: code(30, (i) => `icon-${i}`) }),
  'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg">${code(50, (i) => `<circle r="${i}"/>`)}</svg>`,
  // Compressed formats already: sent as they are.
  'icons/icon-192.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, ...Array<number>(3000).fill(7)]),
  'universa/pkv/info.pdf': `%PDF-1.7 ${'x'.repeat(3000)}`,
  'assets/font.woff2': Buffer.alloc(3000, 1),
  // Build bookkeeping is never served, so never compressed.
  '.vite/manifest.json': JSON.stringify({ 'index.html': { file: 'assets/index-Ab12Cd34.js' } }),
};

const brAndGzip = 'br, gzip';

describe('compressed transfer', () => {
  let dir: string;
  let db: Database;
  let app: FastifyInstance;
  let anonKey: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'compression-'));
    for (const [file, content] of Object.entries(distFiles)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    }
    // A copy left by an earlier build whose file is gone must not survive.
    writeFileSync(path.join(dir, 'assets', 'index-Old.js.br'), 'stale');
    await compressDist(dir);

    db = await openDatabase({});
    await setupDatabase(db, { gateway: true });
    app = await buildApp({
      config: {
        jwtSecret: secret,
        hubService: undefined,
        rateLimit: { submissionsPerMinute: 100, batchesPerMinute: 100 },
        staticDir: dir,
        logLevel: 'silent',
        gateway: true,
      },
      db,
      logger: false,
    });
    anonKey = (await apiKeys(secret)).anonKey;
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url,
      headers:
        acceptEncoding === undefined ? headers : { ...headers, 'accept-encoding': acceptEncoding },
    });

  describe('the build step', () => {
    it.each([
      'index.html',
      '404.html',
      'universa/index.html',
      'assets/index-Ab12Cd34.js',
      'assets/index-Ef56Gh78.css',
      'manifest.webmanifest',
      'favicon.svg',
    ])('writes %s.br and %s.gz that decompress to the file', (file) => {
      const original = readFileSync(path.join(dir, file));
      const br = readFileSync(path.join(dir, `${file}.br`));
      const gz = readFileSync(path.join(dir, `${file}.gz`));
      expect(brotliDecompressSync(br).equals(original)).toBe(true);
      expect(gunzipSync(gz).equals(original)).toBe(true);
      expect(br.length).toBeLessThan(original.length);
      expect(gz.length).toBeLessThan(original.length);
    });

    it.each([
      'icons/icon-192.png',
      'universa/pkv/info.pdf',
      'assets/font.woff2',
      '.vite/manifest.json',
    ])('leaves %s alone', (file) => {
      expect(existsSync(path.join(dir, `${file}.br`))).toBe(false);
      expect(existsSync(path.join(dir, `${file}.gz`))).toBe(false);
    });

    it('removes compressed copies whose file is gone', () => {
      expect(existsSync(path.join(dir, 'assets', 'index-Old.js.br'))).toBe(false);
    });
  });

  // The pages go through the not-found handler (reply.sendFile), the assets through the static
  // route, the list through the hub: each path must negotiate the same way.
  const texts = [
    ['the prerendered page /universa', '/universa', 'universa/index.html', /^text\/html/],
    ['the app shell', '/login', 'index.html', /^text\/html/],
    ['the main JS', '/assets/index-Ab12Cd34.js', 'assets/index-Ab12Cd34.js', /javascript/],
    ['the main CSS', '/assets/index-Ef56Gh78.css', 'assets/index-Ef56Gh78.css', /^text\/css/],
    ['the web manifest', '/manifest.webmanifest', 'manifest.webmanifest', /manifest\+json/],
    ['the SVG icon', '/favicon.svg', 'favicon.svg', /^image\/svg\+xml/],
  ] as const;

  describe.each(texts)('%s', (_name, url, file, type) => {
    const plain = () => readFileSync(path.join(dir, file));

    it('comes as brotli when the browser accepts br', async () => {
      const res = await get(url, brAndGzip);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(type);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.rawPayload).equals(plain())).toBe(true);
    });

    it('comes as gzip when the browser accepts only gzip', async () => {
      const res = await get(url, 'gzip');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(gunzipSync(res.rawPayload).equals(plain())).toBe(true);
    });

    it.each([undefined, 'identity', 'deflate'])(
      'comes as the plain file for accept-encoding %s',
      async (acceptEncoding) => {
        const res = await get(url, acceptEncoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.rawPayload.equals(plain())).toBe(true);
      },
    );
  });

  it('sends the 404 page compressed with its status', async () => {
    const res = await get('/gibt-es-nicht', brAndGzip);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBe('br');
    expect(
      brotliDecompressSync(res.rawPayload).equals(readFileSync(path.join(dir, '404.html'))),
    ).toBe(true);
  });

  it('keeps the cache rules of hashed and unhashed files', async () => {
    expect((await get('/assets/index-Ab12Cd34.js', brAndGzip)).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await get('/universa', brAndGzip)).headers['cache-control']).toBe('no-cache');
  });

  it.each(['/icons/icon-192.png', '/universa/pkv/info.pdf'])(
    'sends %s as it is, even to a browser that accepts br',
    async (url) => {
      const res = await get(url, brAndGzip);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload.equals(readFileSync(path.join(dir, url.slice(1))))).toBe(true);
    },
  );

  describe('a JSON list of the hub', () => {
    const url = '/api/forms?include=questions';
    let plain: Buffer;
    beforeAll(async () => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      plain = res.rawPayload;
      // Above the threshold, or this would prove nothing.
      expect(plain.length).toBeGreaterThan(1024);
      expect(Array.isArray(JSON.parse(plain.toString()))).toBe(true);
    });

    it('comes as brotli when asked for br', async () => {
      const res = await get(url, brAndGzip);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.rawPayload).equals(plain)).toBe(true);
    });

    it('comes as gzip when asked only for gzip', async () => {
      const res = await get(url, 'gzip');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(gunzipSync(res.rawPayload).equals(plain)).toBe(true);
    });

    it('comes plain when the client asks for identity', async () => {
      const res = await get(url, 'identity');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload.equals(plain)).toBe(true);
    });
  });

  it('leaves a small answer below about 1 KB uncompressed', async () => {
    const res = await get('/api/health', brAndGzip);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it("compresses the gateway's row-range pages and keeps their Content-Range and 206", async () => {
    const url = '/rest/v1/questions?select=*&order=id&limit=5';
    const headers = { apikey: anonKey, prefer: 'count=exact' };
    const plainRes = await get(url, undefined, headers);
    expect(plainRes.statusCode).toBe(206);
    expect(plainRes.rawPayload.length).toBeGreaterThan(1024);
    const res = await get(url, brAndGzip, headers);
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(plainRes.headers['content-range']);
    expect(res.headers['content-range']).toMatch(/^0-4\/\d+$/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).equals(plainRes.rawPayload)).toBe(true);
  });
});

describe('on-the-fly compression of the APIs', () => {
  let app: FastifyInstance;
  const big = 'x'.repeat(4096);
  beforeAll(async () => {
    app = Fastify({ logger: false });
    await registerApiCompression(app);
    app.get('/events', async (_request, reply) => reply.type('text/event-stream').send(big));
    app.get('/upload', async (_request, reply) =>
      reply.type('application/octet-stream').send(Buffer.from(big)),
    );
    app.get('/bytes', async (_request, reply) =>
      reply.header('content-range', 'bytes 0-4095/8192').code(206).send(big),
    );
    app.get('/already', async (_request, reply) =>
      reply.header('content-encoding', 'br').type('application/json').send(Buffer.from(big)),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  // An event stream would be held back in the compressor's buffer; an upload is mostly a
  // compressed format; a byte range counts bytes of the plain body; an encoded body is done.
  it.each(['/events', '/upload', '/bytes', '/already'])(
    'leaves %s as the route sent it',
    async (url) => {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': brAndGzip },
      });
      expect(res.rawPayload.toString()).toBe(big);
      expect(res.headers['content-encoding'] ?? 'none').toBe(url === '/already' ? 'br' : 'none');
      if (url === '/bytes') {
        expect(res.statusCode).toBe(206);
        expect(res.headers['content-range']).toBe('bytes 0-4095/8192');
      }
    },
  );
});
