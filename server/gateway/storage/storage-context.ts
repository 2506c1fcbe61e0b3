import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { RequestInfo } from '../as-role.ts';
import { gatewayPrefixes } from '../../../src/domain/routes.ts';
import { pathBelow } from '../path-below.ts';
import { storageErrors } from './errors.ts';
import type { FileStore } from './file-store.ts';
import { servedCacheControl, servedEtag } from './header-values.ts';
import { readHead, servedAs } from './media-type.ts';
import type { ObjectRow } from './object-rows.ts';

/** What every Storage route works with. */
export interface StorageContext {
  db: Database;
  secret: string;
  now: () => Date;
  files: FileStore;
}

export interface ObjectParams {
  bucket: string;
  '*': string;
}

// Headers a policy may read through `request.headers`; credentials stay out of the database.
const hiddenHeaders = new Set(['authorization', 'apikey', 'cookie']);

/** The request as asRole records it for the policies (`request.method`, `request.path`). */
export function requestInfo(request: FastifyRequest, readOnly: boolean): RequestInfo {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string' && !hiddenHeaders.has(name)) headers[name] = value;
  }
  return {
    method: request.method,
    path: pathBelow(gatewayPrefixes.storage, request.url),
    headers,
    readOnly,
  };
}

/**
 * Sends an object's body with what Storage stored about it. Looks the row up again if its body
 * was replaced between reading the row and opening the file (an upsert at that moment).
 */
export async function sendObject(
  context: StorageContext,
  request: FastifyRequest,
  reply: FastifyReply,
  address: { bucket: string; name: string },
  findRow: () => Promise<ObjectRow | undefined>,
): Promise<FastifyReply> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const row = await findRow();
    if (!row?.version) throw storageErrors.noSuchKey();
    const handle = await context.files.open(address.bucket, address.name, row.version);
    if (!handle) continue;
    const { size } = await handle.stat();
    const metadata = row.metadata;
    // Stored values are checked again on the way out (header-values.ts): a bad one is replaced.
    const eTag = servedEtag(metadata?.eTag) ?? servedEtag(`"${row.version}"`);
    const served = servedAs(metadata?.mimetype, await readHead(handle));
    const download = (request.query as { download?: string } | undefined)?.download;
    // Whatever a stored file holds, it never acts as a page of our origin: no sniffing, no
    // script, no storage (a sandboxed document has an opaque origin), no inline HTML.
    reply
      .header('content-type', served.type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header(
        'content-disposition',
        disposition(
          served.inline && download === undefined ? 'inline' : 'attachment',
          download || address.name,
        ),
      )
      .header('cache-control', servedCacheControl(metadata?.cacheControl))
      .header('last-modified', new Date(row.updated_at).toUTCString());
    if (eTag) reply.header('etag', eTag);
    if (eTag && request.headers['if-none-match'] === eTag) {
      await handle.close();
      return reply.code(304).send();
    }
    reply.header('content-length', size);
    return reply.send(handle.createReadStream());
  }
  throw storageErrors.noSuchKey();
}

function disposition(kind: 'inline' | 'attachment', name: string): string {
  const base = name.split('/').pop() ?? name;
  // Only characters that cannot end the quoted string or the header.
  const safe = base.replace(/[^A-Za-z0-9_.()+,;=@!$&' -]/g, '_');
  return `${kind}; filename="${safe}"`;
}
