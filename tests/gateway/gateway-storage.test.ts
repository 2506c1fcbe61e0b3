import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { documentObjectName, documentsBucket, publicObjectPath } from '../../src/domain/routes.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { testSecret } from '../helpers/hub.ts';

// Storage under /storage/v1 driven by the real supabase-js over HTTP: the `documents` bucket of
// supabase/migrations, its policies deciding (anyone reads, staff write), bodies on disk.

const key = new TextEncoder().encode(testSecret);
const signToken = (claims: Record<string, unknown>, expiresIn: string | number = '1h') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);

/** The eight bytes every PNG starts with, and a little more: enough for the signature check. */
const png = () =>
  new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])], {
    type: 'image/png',
  });
const pdf = (text: string) =>
  new Blob([`%PDF-1.4\n% ${text}\n%%EOF\n`], { type: 'application/pdf' });

let server: GatewayServer | undefined;
let db: Database;
let dataDir: string;
let baseUrl: string;
let anonKey: string;
// The gateway's clock: signed URLs expire by it.
let clockOffsetMs = 0;

const client = (token?: string): SupabaseClient => server!.client(token);

async function accountToken(email: string, role: 'pending' | 'staff' | 'admin'): Promise<string> {
  const user = await db.query<{ id: string }>(
    `insert into auth.users (email, encrypted_password, email_confirmed_at)
     values ($1, 'x', now()) returning id`,
    [email],
  );
  const id = user.rows[0]!.id;
  await db.query('update public.staff set role = $2 where user_id = $1', [id, role]);
  return signToken({ sub: id, role: 'authenticated', aud: 'authenticated', email });
}

/** Every body file of a bucket on disk, relative to the bucket's folder. */
function bodiesOf(bucket: string): string[] {
  const folder = path.join(dataDir, 'storage', bucket);
  try {
    return readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

const uploadsInProgress = () => {
  try {
    return readdirSync(path.join(dataDir, 'storage', '.uploads'));
  } catch {
    return [];
  }
};

async function objectCount(): Promise<number> {
  const result = await db.query<{ n: number }>('select count(*)::int as n from storage.objects');
  return result.rows[0]!.n;
}

let cachedStaffToken: string | undefined;
async function staffToken(): Promise<string> {
  cachedStaffToken ??= await accountToken('roh@example.de', 'staff');
  return cachedStaffToken;
}

let staff: SupabaseClient;
let admin: SupabaseClient;
let pending: SupabaseClient;
let anon: SupabaseClient;

// The same requests on both databases the gateway runs on.
describe.each(['pglite', 'postgres'] as const)('Storage on %s', (kind) => {
  beforeAll(async () => {
    cachedStaffToken = undefined;
    server = await startGatewayServer(kind, undefined, {
      name: 'gateway-storage',
      now: () => new Date(Date.now() + clockOffsetMs),
    });
    ({ db, dataDir, url: baseUrl, anonKey } = server);
    staff = client(await accountToken('mitarbeiter@example.de', 'staff'));
    admin = client(await accountToken('chefin@example.de', 'admin'));
    pending = client(await accountToken('neu@example.de', 'pending'));
    anon = client();
  });

  afterAll(() => server?.close());

  describe('the documents bucket', () => {
    // A fresh name per upload, as the desk names documents (see documentObjectName).
    const name = documentObjectName(1, 'Angebot Müller.pdf', crypto.randomUUID());

    it('takes a PDF from staff and answers with its id and key', async () => {
      const { data, error } = await staff.storage.from('documents').upload(name, pdf('eins'));
      expect(error).toBeNull();
      expect(data).toMatchObject({ path: name, fullPath: `documents/${name}` });
      expect(data!.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(bodiesOf('documents')).toHaveLength(1);
      expect(uploadsInProgress()).toEqual([]);
    });

    it('lets anyone download it, with its type, caching and version', async () => {
      const { data, error } = await anon.storage.from('documents').download(name);
      expect(error).toBeNull();
      expect(data!.type).toBe('application/pdf');
      expect(await data!.text()).toContain('% eins');

      const { publicUrl } = anon.storage.from(documentsBucket).getPublicUrl(name).data;
      expect(publicUrl).toBe(`${baseUrl}${publicObjectPath(documentsBucket, name)}`);
      const response = await fetch(publicUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('cache-control')).toBe('max-age=3600');
      const etag = response.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f-]{36}"$/);
      expect(response.headers.get('last-modified')).toBeTruthy();
      const again = await fetch(publicUrl, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
    });

    it('lets signed-in staff download through the authenticated route', async () => {
      const res = await fetch(`${baseUrl}/storage/v1/object/authenticated/documents/${name}`, {
        headers: { Authorization: `Bearer ${anonKey}` },
      });
      expect(res.status).toBe(200);
      const without = await fetch(`${baseUrl}/storage/v1/object/authenticated/documents/${name}`);
      expect(without.status).toBe(400);
      expect(await without.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
    });

    it('refuses uploads and removals from anyone but staff and admins', async () => {
      const before = await objectCount();
      for (const [who, storageClient] of [
        ['anon', anon],
        ['pending', pending],
      ] as const) {
        const upload = await storageClient.storage
          .from('documents')
          .upload(`forms/1/${who}.pdf`, pdf(who));
        expect(upload.error, who).toMatchObject({ statusCode: '403', status: 400 });
        const replace = await storageClient.storage
          .from('documents')
          .upload(name, pdf(who), { upsert: true });
        expect(replace.error, who).toMatchObject({ statusCode: '403' });
        const removal = await storageClient.storage.from('documents').remove([name]);
        // As Storage does: the rows RLS hides from a delete are simply not removed.
        expect(removal, who).toEqual({ data: [], error: null });
      }
      expect(await objectCount()).toBe(before);
      expect(bodiesOf('documents')).toHaveLength(1);
      expect(uploadsInProgress()).toEqual([]);
      const { data } = await anon.storage.from('documents').download(name);
      expect(await data!.text()).toContain('% eins');
    });

    it('refuses an existing name without upsert and replaces the body with it', async () => {
      const again = await staff.storage.from('documents').upload(name, pdf('zwei'));
      expect(again.error).toMatchObject({
        statusCode: '409',
        status: 400,
        message: 'The resource already exists',
      });
      const [oldBody] = bodiesOf('documents');

      const replaced = await admin.storage
        .from('documents')
        .upload(name, pdf('zwei'), { upsert: true });
      expect(replaced.error).toBeNull();
      const { data } = await anon.storage.from('documents').download(name);
      expect(await data!.text()).toContain('% zwei');
      // A new body file per version; the replaced one is gone.
      const bodies = bodiesOf('documents');
      expect(bodies).toHaveLength(1);
      expect(bodies[0]).not.toBe(oldBody);

      const updated = await staff.storage.from('documents').update(name, pdf('drei'));
      expect(updated.error).toBeNull();
      expect(await (await anon.storage.from('documents').download(name)).data!.text()).toContain(
        '% drei',
      );
    });

    it('refuses 30 MB and stores nothing of it', async () => {
      const before = await objectCount();
      const big = new Blob([new Uint8Array(30 * 1024 * 1024)], { type: 'application/pdf' });
      const { error } = await staff.storage.from('documents').upload('forms/1/gross.pdf', big);
      expect(error).toMatchObject({ statusCode: '413', status: 400 });
      expect(await objectCount()).toBe(before);
      expect(bodiesOf('documents')).toHaveLength(1);
      expect(uploadsInProgress()).toEqual([]);

      const raw = await fetch(`${baseUrl}/storage/v1/object/documents/forms/1/gross-roh.pdf`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${await staffToken()}`,
          'content-type': 'application/pdf',
        },
        body: new Uint8Array(21 * 1024 * 1024),
      });
      expect(raw.status).toBe(400);
      expect(await raw.json()).toMatchObject({ statusCode: '413', code: 'EntityTooLarge' });
      expect(await objectCount()).toBe(before);
      expect(uploadsInProgress()).toEqual([]);
    });

    it('refuses types a browser could run as script', async () => {
      const html = new Blob(['<script>alert(1)</script>'], { type: 'text/html' });
      const { error } = await staff.storage.from('documents').upload('forms/1/seite.html', html);
      expect(error).toMatchObject({ statusCode: '415' });
      expect(bodiesOf('documents')).toHaveLength(1);
    });

    it('refuses names that would leave the bucket’s folder', async () => {
      const before = await objectCount();
      const token = await staffToken();
      for (const hostile of [
        '..%2F..%2Fausbruch.pdf',
        'forms%2F..%2F..%2F..%2Fausbruch.pdf',
        '%2Fetc%2Fausbruch.pdf',
        'forms/%2E%2E%5Causbruch.pdf',
        'forms%5C..%5Causbruch.pdf',
        'forms/ausbruch%00.pdf',
        `forms/${'a'.repeat(1100)}.pdf`,
        'forms//doppelt.pdf',
        'forms%2F.%2Fpunkt.pdf',
        'forms/%C3%BCberweisung.pdf',
      ]) {
        const res = await fetch(`${baseUrl}/storage/v1/object/documents/${hostile}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/pdf' },
          body: '%PDF-1.4',
        });
        expect(res.status, hostile).toBe(400);
        expect(await res.json(), hostile).toMatchObject({ statusCode: '400', code: 'InvalidKey' });
      }
      // As on hosted Supabase: keys are S3-safe characters only, so the desk must name files so.
      const { error } = await staff.storage
        .from('documents')
        .upload('forms/Übersicht.pdf', pdf('x'));
      expect(error).toMatchObject({
        statusCode: '400',
        message: 'Invalid key: forms/Übersicht.pdf',
      });
      expect(await objectCount()).toBe(before);
      expect(bodiesOf('documents')).toHaveLength(1);
      expect(readdirSync(path.join(dataDir, 'storage')).sort()).toEqual(['.uploads', 'documents']);
      expect(uploadsInProgress()).toEqual([]);
    });

    it('signs a URL that serves the file without other auth, for this object only, until it expires', async () => {
      const { data, error } = await anon.storage.from('documents').createSignedUrl(name, 60);
      expect(error).toBeNull();
      const signedUrl = data!.signedUrl;
      expect(signedUrl).toContain(`/storage/v1/object/sign/documents/${name}?token=`);
      const res = await fetch(signedUrl);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('% drei');

      const token = new URL(signedUrl).searchParams.get('token')!;
      const other = await fetch(
        `${baseUrl}/storage/v1/object/sign/documents/forms/1/x.pdf?token=${token}`,
      );
      expect(other.status).toBe(400);
      expect(await other.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });
      // Not a bearer token: it has no role.
      const asBearer = await fetch(`${baseUrl}/storage/v1/object/documents/${name}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(await asBearer.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });

      clockOffsetMs = 61_000;
      try {
        const expired = await fetch(signedUrl);
        expect(expired.status).toBe(400);
        expect(await expired.json()).toMatchObject({ statusCode: '400', code: 'InvalidJWT' });
      } finally {
        clockOffsetMs = 0;
      }

      const missing = await anon.storage.from('documents').createSignedUrl('forms/1/fehlt.pdf', 60);
      expect(missing.error).toMatchObject({ statusCode: '404' });
    });

    it('lists one folder level with files and sub-folders', async () => {
      await staff.storage.from('documents').upload('forms/2/a.pdf', pdf('a'));
      await staff.storage.from('documents').upload('forms/2/b.pdf', pdf('b'));
      await staff.storage.from('documents').upload('forms/2/bilder/c.png', png());

      const { data, error } = await anon.storage.from('documents').list('forms/2');
      expect(error).toBeNull();
      expect(data!.map((entry) => [entry.name, entry.id === null])).toEqual([
        ['a.pdf', false],
        ['b.pdf', false],
        ['bilder', true],
      ]);
      expect(data![0]!.metadata).toMatchObject({ mimetype: 'application/pdf', size: 19 });

      const page = await anon.storage
        .from('documents')
        .list('forms/2', { limit: 1, offset: 1, sortBy: { column: 'name', order: 'desc' } });
      expect(page.data!.map((entry) => entry.name)).toEqual(['b.pdf']);
      const search = await anon.storage.from('documents').list('forms/2', { search: 'B.P' });
      expect(search.data!.map((entry) => entry.name)).toEqual(['b.pdf']);
      const top = await anon.storage.from('documents').list();
      expect(top.data!.map((entry) => entry.name)).toEqual(['forms']);
    });

    it('removes objects for staff and answers with what was removed', async () => {
      const { data, error } = await staff.storage
        .from('documents')
        .remove(['forms/2/a.pdf', 'forms/2/gibt-es-nicht.pdf']);
      expect(error).toBeNull();
      expect(data!.map((row) => row.name)).toEqual(['forms/2/a.pdf']);
      const gone = await anon.storage.from('documents').download('forms/2/a.pdf');
      expect(gone.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
      expect(bodiesOf('documents').filter((file) => file.startsWith('forms/2/a.pdf'))).toEqual([]);
    });
  });

  describe('hostile uploads (security review, items 1 and 8)', () => {
    const uploadRaw = async (objectName: string, contentType: string, body: BodyInit) => {
      const token = await staffToken();
      return fetch(`${baseUrl}/storage/v1/object/documents/${objectName}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, apikey: anonKey, 'content-type': contentType },
        body,
      });
    };
    const html = '<!doctype html><script>document.title = "pwned"</script>';
    const realPdf = '%PDF-1.4\n% echt\n%%EOF\n';

    it.each([
      ['a PDF type followed by a comma and HTML', 'application/pdf;,text/html', html],
      ['a PNG type followed by a comma and a script type', 'image/png;,text/javascript', html],
      ['a real PDF under a listed type', 'application/pdf;,text/html', realPdf],
      ['HTML', 'text/html', html],
      ['SVG', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'],
      ['XML', 'application/xml', '<?xml version="1.0"?><a/>'],
      ['HTML sent as a PDF', 'application/pdf', html],
      ['HTML sent as a PNG', 'image/png', html],
    ])('refuses a raw body with %s and stores nothing', async (_case, type, body) => {
      const objectName = `forms/9/feindlich-${crypto.randomUUID()}.pdf`;
      const before = await objectCount();
      const answer = await uploadRaw(objectName, type, body);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ statusCode: '415', error: 'invalid_mime_type' });
      expect(await objectCount()).toBe(before);
      expect(bodiesOf('documents').some((file) => file.includes('feindlich'))).toBe(false);
    });

    it('refuses a multipart part that lies about its type', async () => {
      const form = new FormData();
      form.append('', new Blob([html], { type: 'application/pdf' }), 'angebot.pdf');
      const { error } = await staff.storage
        .from('documents')
        .upload(`forms/9/teil-${crypto.randomUUID()}.pdf`, form);
      expect(error).toMatchObject({ statusCode: '415' });
    });

    it('stores only the canonical type and serves every file so that it cannot act as a page', async () => {
      const objectName = `forms/9/kanonisch-${crypto.randomUUID()}.pdf`;
      const stored = await uploadRaw(objectName, 'Application/PDF; charset=x', realPdf);
      expect(stored.status).toBe(200);
      const row = await db.query<{ type: string }>(
        `select metadata->>'mimetype' as type from storage.objects where name = $1`,
        [objectName],
      );
      expect(row.rows[0]!.type).toBe('application/pdf');

      const image = `forms/9/bild-${crypto.randomUUID()}.png`;
      expect((await staff.storage.from('documents').upload(image, png())).error).toBeNull();
      for (const [file, type, disposition] of [
        [objectName, 'application/pdf', 'attachment'],
        [image, 'image/png', 'inline'],
      ] as const) {
        for (const url of [
          `${baseUrl}/storage/v1/object/public/documents/${file}`,
          `${baseUrl}/storage/v1/object/documents/${file}`,
        ]) {
          const answer = await fetch(url, { headers: { apikey: anonKey } });
          expect(answer.status).toBe(200);
          expect(answer.headers.get('content-type')).toBe(type);
          expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
          expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
          expect(answer.headers.get('content-disposition')).toMatch(
            new RegExp(`^${disposition}; filename="`),
          );
        }
      }
    });

    it('serves a file stored by an older version with a hostile type as bytes to save', async () => {
      // As the old gateway left it: the whole header as the type, an HTML body.
      const objectName = `forms/9/alt-${crypto.randomUUID()}.pdf`;
      const stored = await uploadRaw(objectName, 'application/pdf', realPdf);
      expect(stored.status).toBe(200);
      const row = await db.query<{ version: string }>(
        'select version from storage.objects where name = $1',
        [objectName],
      );
      const { writeFileSync } = await import('node:fs');
      writeFileSync(
        path.join(dataDir, 'storage', 'documents', ...objectName.split('/'), row.rows[0]!.version),
        html,
      );
      await db.query(
        `update storage.objects set metadata = metadata || '{"mimetype": "application/pdf;,text/html"}'
         where name = $1`,
        [objectName],
      );
      const answer = await fetch(`${baseUrl}/storage/v1/object/public/documents/${objectName}`);
      expect(answer.headers.get('content-type')).toBe('application/octet-stream');
      expect(answer.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    });

    it('checks the right to write before reading the body: a refused upload leaves no file or folder', async () => {
      const tree = () =>
        readdirSync(path.join(dataDir, 'storage'), { recursive: true }).map(String).sort();
      const before = tree();
      for (const caller of [anon, pending]) {
        const { error } = await caller.storage
          .from('documents')
          .upload(`anon/a/b/c-${crypto.randomUUID()}.pdf`, pdf('fremd'));
        expect(error).toMatchObject({ statusCode: '403' });
      }
      // Staff whose row the policies refuse at the last step (an existing name without upsert).
      const taken = `forms/9/vergeben-${crypto.randomUUID()}/x.pdf`;
      await staff.storage.from('documents').upload(taken, pdf('erst'));
      const withTaken = tree();
      const again = await staff.storage.from('documents').upload(taken, pdf('zweit'));
      expect(again.error).toMatchObject({ statusCode: '409' });
      expect(tree()).toEqual(withTaken);
      // A refused type in a new folder: the folder goes with it.
      const refused = await uploadRaw(
        `neu/ordner/${crypto.randomUUID()}.pdf`,
        'application/pdf',
        html,
      );
      expect(refused.status).toBe(400);
      expect(tree()).toEqual(withTaken);
      expect(before.every((entry) => withTaken.includes(entry))).toBe(true);
      expect(withTaken.some((entry) => entry.startsWith('documents/anon'))).toBe(false);
    });
  });

  describe('header values from uploads (issue 32, item 8)', () => {
    const objectName = () => `forms/9/kopf-${crypto.randomUUID()}.pdf`;
    const rowOf = async (name: string) =>
      (
        await db.query<{ cache: string; version: string }>(
          `select metadata->>'cacheControl' as cache, version from storage.objects where name = $1`,
          [name],
        )
      ).rows[0];

    it('refuses a cacheControl with a line break, storing nothing, and takes a list of directives', async () => {
      const before = await objectCount();
      const name = objectName();
      const { error } = await staff.storage
        .from('documents')
        .upload(name, pdf('umbruch'), { cacheControl: '3600\r\nX-Eingeschleust: 1' });
      expect(error).toMatchObject({ statusCode: '400', message: 'Invalid cache control' });
      expect(await objectCount()).toBe(before);
      expect(uploadsInProgress()).toEqual([]);

      const listed = objectName();
      const ok = await staff.storage
        .from('documents')
        .upload(listed, pdf('liste'), { cacheControl: 'private, max-age=60' });
      expect(ok.error).toBeNull();
      const answer = await fetch(`${baseUrl}/storage/v1/object/public/documents/${listed}`);
      expect(answer.headers.get('cache-control')).toBe('private, max-age=60');
    });

    it('refuses a raw body whose cache-control, x-upsert or x-metadata is not what supabase-js sends', async () => {
      const token = await staffToken();
      const before = await objectCount();
      const send = (headers: Record<string, string>) =>
        fetch(`${baseUrl}/storage/v1/object/documents/${objectName()}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            apikey: anonKey,
            'content-type': 'application/pdf',
            ...headers,
          },
          body: '%PDF-1.4\n% roh\n%%EOF\n',
        });
      const refusedHeaders: Record<string, string>[] = [
        { 'cache-control': 'max-age=60, "nicht erlaubt"' },
        { 'x-upsert': 'ja' },
        { 'x-metadata': 'kein base64!' },
        { 'x-metadata': Buffer.from('[1, 2]').toString('base64') },
      ];
      for (const headers of refusedHeaders) {
        const answer = await send(headers);
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({ statusCode: '400', code: 'InvalidRequest' });
      }
      expect(await objectCount()).toBe(before);
      // What supabase-js sends on a raw body passes.
      const fine = await send({
        'cache-control': 'max-age=3600',
        'x-upsert': 'false',
        'x-metadata': Buffer.from('{"quelle":"test"}').toString('base64'),
      });
      expect(fine.status).toBe(200);
    });

    it('refuses a multipart metadata field that is not a JSON object, and takes supabase-js’s', async () => {
      const form = new FormData();
      form.append('cacheControl', '3600');
      form.append('metadata', '{kein json');
      form.append('', pdf('metadaten'));
      const refused = await staff.storage.from('documents').upload(objectName(), form);
      expect(refused.error).toMatchObject({ statusCode: '400' });
      const taken = await staff.storage
        .from('documents')
        .upload(objectName(), pdf('metadaten'), { metadata: { quelle: 'test' } });
      expect(taken.error).toBeNull();
    });

    it('serves an object whose stored cacheControl or eTag is not a header value, instead of failing', async () => {
      const name = objectName();
      expect((await staff.storage.from('documents').upload(name, pdf('alt'))).error).toBeNull();
      // As an older version stored it, or as SQL could write it.
      await db.query(
        `update storage.objects
            set metadata = metadata || jsonb_build_object(
              'cacheControl', e'max-age=60\r\nSet-Cookie: x=1', 'eTag', e'"a\nb"')
          where name = $1`,
        [name],
      );
      const row = await rowOf(name);
      expect(row!.cache).toContain('\n');
      for (const url of [
        `${baseUrl}/storage/v1/object/public/documents/${name}`,
        `${baseUrl}/storage/v1/object/documents/${name}`,
      ]) {
        const answer = await fetch(url, {
          headers: { apikey: anonKey, authorization: `Bearer ${await staffToken()}` },
        });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('cache-control')).toBe('no-cache');
        expect(answer.headers.get('etag')).toBe(`"${row!.version}"`);
        expect(answer.headers.get('set-cookie')).toBeNull();
        expect(await answer.text()).toContain('% alt');
      }
    });
  });

  describe('Storage’s answers to bad requests', () => {
    it('refuses a bad, expired or foreign token before anything else', async () => {
      const expired = await signToken({ role: 'authenticated', sub: crypto.randomUUID() }, -120);
      const hubToken = await signToken({ role: 'hub_service', sub: 'crm' });
      const other = await new SignJWT({ role: 'service_role' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('x'.repeat(48)));
      for (const token of [expired, hubToken, other, 'kein.jwt.token']) {
        const { error } = await client(token)
          .storage.from('documents')
          .upload('forms/1/t.pdf', pdf('t'));
        expect(error).toMatchObject({ statusCode: '403', status: 400 });
        const download = await client(token).storage.from('documents').download('forms/1/t.pdf');
        expect(download.error).toMatchObject({ statusCode: '403' });
      }
    });

    it('answers an unknown bucket and an unknown object in Storage’s shape', async () => {
      const upload = await staff.storage.from('gibt-es-nicht').upload('a.pdf', pdf('a'));
      expect(upload.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
      const res = await fetch(`${baseUrl}/storage/v1/object/public/documents/forms/9/fehlt.pdf`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        statusCode: '404',
        code: 'NoSuchKey',
        error: 'not_found',
        message: 'Object not found',
      });
    });

    it('answers malformed bodies with 4xx', async () => {
      const token = await staffToken();
      const cases: [string, string, Record<string, string>, string][] = [
        ['POST', '/object/list/documents', { 'content-type': 'application/json' }, '{"prefix": '],
        ['POST', '/object/list/documents', { 'content-type': 'application/json' }, '{"limit": -1}'],
        [
          'POST',
          '/object/sign/documents/forms/1/x.pdf',
          { 'content-type': 'application/json' },
          '{}',
        ],
        [
          'DELETE',
          '/object/documents',
          { 'content-type': 'application/json' },
          '{"prefixes": "x"}',
        ],
        [
          'POST',
          '/object/documents/forms/1/kaputt.pdf',
          { 'content-type': 'multipart/form-data' },
          '--x\r\n',
        ],
        [
          'POST',
          '/object/documents/forms/1/leer.pdf',
          { 'content-type': 'multipart/form-data; boundary=x' },
          '--x\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n3600\r\n--x--\r\n',
        ],
      ];
      const before = await objectCount();
      for (const [method, url, headers, body] of cases) {
        const res = await fetch(`${baseUrl}/storage/v1${url}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, ...headers },
          body,
        });
        expect(res.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${url}`).toBeLessThan(500);
        expect(await res.json(), `${method} ${url}`).toHaveProperty('statusCode');
      }
      expect(await objectCount()).toBe(before);
      expect(uploadsInProgress()).toEqual([]);
    });
  });
});
