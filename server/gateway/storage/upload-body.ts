import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import { storageErrors } from './errors.ts';
import { checkUserMetadata, uploadCacheControl } from './header-values.ts';

/** An upload's body, written to a temporary file, with what Storage keeps in `metadata`. */
export interface ReceivedBody {
  size: number;
  mimetype: string;
  cacheControl: string;
}

// A client that keeps sending far past the limit is cut off instead of being read to the end.
const drainAllowance = 64 * 1024 * 1024;

/**
 * Reads an upload into `file`: the single file of a multipart form (supabase-js sends a Blob
 * that way, in the field `''`, beside `cacheControl`) or the raw body. A body over `limit` is
 * refused with Storage's EntityTooLarge; the caller removes the partial file. The request is
 * read to its end rather than cut off, so the client receives the answer instead of a reset.
 */
export async function receiveBody(
  request: IncomingMessage,
  file: string,
  limit: number,
): Promise<ReceivedBody> {
  const declared = Number(request.headers['content-length']);
  // A multipart body carries a little framing besides the file; a raw one is exactly the file.
  if (Number.isFinite(declared) && declared > limit + 64 * 1024) {
    throw storageErrors.entityTooLarge();
  }
  const contentType = request.headers['content-type'] ?? '';
  if (/^multipart\/form-data/i.test(contentType)) return receiveMultipart(request, file, limit);
  return receiveRaw(request, file, limit);
}

async function receiveRaw(
  request: IncomingMessage,
  file: string,
  limit: number,
): Promise<ReceivedBody> {
  const cacheControl = uploadCacheControl(request.headers['cache-control']);
  const limiter = new ByteLimit(limit);
  await pipeline(request, limiter, createWriteStream(file, { flags: 'wx' }));
  if (limiter.exceeded) throw storageErrors.entityTooLarge();
  return {
    size: limiter.size,
    mimetype: request.headers['content-type'] || 'application/octet-stream',
    cacheControl,
  };
}

async function receiveMultipart(
  request: IncomingMessage,
  file: string,
  limit: number,
): Promise<ReceivedBody> {
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: request.headers as Parameters<typeof Busboy>[0]['headers'],
      limits: { files: 1, fileSize: limit, fields: 10, fieldSize: 64 * 1024, parts: 12 },
    });
  } catch {
    throw storageErrors.invalidRequest('Malformed multipart body');
  }
  const fields: Record<string, string> = {};
  let written: Promise<{ truncated: boolean; mimetype: string }> | undefined;
  await new Promise<void>((resolve, reject) => {
    parser.on('file', (_field, stream, _filename, _encoding, mimetype) => {
      written = pipeline(stream, createWriteStream(file, { flags: 'wx' })).then(() => ({
        truncated: stream.truncated,
        mimetype,
      }));
      // Handled where it is awaited; without this an early failure would go unobserved.
      written.catch(() => undefined);
    });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('finish', resolve);
    parser.on('error', () => reject(storageErrors.invalidRequest('Malformed multipart body')));
    request.on('error', reject);
    request.pipe(parser);
  });
  if (!written) throw storageErrors.invalidRequest('No file in the multipart body');
  const { truncated, mimetype } = await written;
  if (truncated) throw storageErrors.entityTooLarge();
  const cacheControl = uploadCacheControl(fields.cacheControl);
  checkUserMetadata(fields.metadata, 'json');
  return {
    size: (await stat(file)).size,
    mimetype: mimetype || 'application/octet-stream',
    cacheControl,
  };
}

/** Passes at most `limit` bytes on and swallows the rest, remembering that there was more. */
class ByteLimit extends Transform {
  size = 0;
  exceeded = false;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit + drainAllowance) {
      done(storageErrors.entityTooLarge());
      return;
    }
    if (this.size > this.limit) {
      this.exceeded = true;
      done();
      return;
    }
    done(null, chunk);
  }
}
