import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { asRole } from '../as-role.ts';
import { storageErrors } from './errors.ts';
import { checkUserMetadata, upsertHeader } from './header-values.ts';
import { hasSignature, storableType } from './media-type.ts';
import { objectAddress } from './object-name.ts';
import { findBucket, writeObject, type BucketRow, type NewVersion } from './object-rows.ts';
import { callerClaims } from './storage-tokens.ts';
import { requestInfo, type ObjectParams, type StorageContext } from './storage-context.ts';
import { receiveBody } from './upload-body.ts';
import { isUuid } from '../../http/uuid.ts';

/** The most any upload may carry (issue 11); a bucket's own `file_size_limit` may lower it. */
export const uploadLimitBytes = 20 * 1024 * 1024;

/**
 * Uploads (`POST` creates, `x-upsert: true` replaces; `PUT` replaces). Their own plugin, because
 * a body of any type arrives here as a stream, read by the handler into a file, never into
 * memory or through the JSON parser.
 */
export const uploadRoutes: FastifyPluginAsync<StorageContext> = async (routes, context) => {
  routes.removeAllContentTypeParsers();
  routes.addContentTypeParser('*', (_request, _payload, done) => done(null));

  routes.post<{ Params: ObjectParams }>('/object/:bucket/*', (request, reply) =>
    upload(context, request, reply, 'post'),
  );
  routes.put<{ Params: ObjectParams }>('/object/:bucket/*', (request, reply) =>
    upload(context, request, reply, 'put'),
  );
};

/** Thrown inside the permission probe's transaction so that nothing it wrote stays. */
class ProbeRollback extends Error {}

/**
 * Whether the caller may write this object, asked before a byte of the body is read: the same
 * write as the real one, in a transaction that is then rolled back, so the bucket's policies
 * decide exactly as they will for the real write. A refused caller leaves nothing on disk.
 */
async function checkMayWrite(
  context: StorageContext,
  request: FastifyRequest,
  claims: Parameters<typeof asRole>[1],
  next: Omit<NewVersion, 'metadata' | 'version'>,
): Promise<void> {
  try {
    await asRole(context.db, claims, requestInfo(request, false), async (tx) => {
      await writeObject(tx, { ...next, version: 'probe', metadata: probeMetadata });
      throw new ProbeRollback();
    });
  } catch (error) {
    if (!(error instanceof ProbeRollback)) throw error;
  }
}

const probeMetadata = {
  eTag: '""',
  size: 0,
  mimetype: 'application/octet-stream',
  cacheControl: 'no-cache',
  lastModified: new Date(0).toISOString(),
  contentLength: 0,
  httpStatusCode: 200,
};

/**
 * The caller's right first (before the body is read), then the body into a temporary file, its
 * type and first bytes checked, then to its own version's path, then the row in one transaction
 * as the caller (the policies decide again), so no file work happens inside it. If the row is
 * refused, the new body and any folder made for it go; once the row points at the new version,
 * the old body goes. At no moment does a row point at a missing or half-written body.
 */
async function upload(
  context: StorageContext,
  request: FastifyRequest<{ Params: ObjectParams }>,
  reply: FastifyReply,
  method: 'post' | 'put',
): Promise<FastifyReply> {
  const { bucket, name } = objectAddress(request.params.bucket, request.params['*']);
  const claims = await callerClaims(request.headers.authorization, context.secret, {
    required: false,
    db: context.db,
  });
  // The headers' values are checked before the body is read (a multipart body's fields after).
  const upsertAsked = upsertHeader(request.headers['x-upsert']);
  const upsert = method === 'put' || upsertAsked;
  checkUserMetadata(request.headers['x-metadata'], 'base64');
  const bucketRow = await findBucket(context.db, bucket);
  if (!bucketRow) throw storageErrors.noSuchBucket();
  const owner = isUuid(claims.sub) ? claims.sub : null;
  await checkMayWrite(context, request, claims, { bucket, name, owner, upsert });

  const temporary = await context.files.temporaryPath();
  const version = randomUUID();
  let placed = false;
  try {
    const body = await receiveBody(request.raw, temporary, limitOf(bucketRow));
    const mimetype = storableType(body.mimetype, bucketRow.allowed_mime_types);
    if (!hasSignature(mimetype, await context.files.head(temporary))) {
      throw storageErrors.invalidMimeType(mimetype);
    }
    await context.files.place(temporary, bucket, name, version);
    placed = true;
    const { id, replaced } = await asRole(context.db, claims, requestInfo(request, false), (tx) =>
      writeObject(tx, {
        bucket,
        name,
        owner,
        version,
        upsert,
        metadata: {
          eTag: `"${version}"`,
          size: body.size,
          mimetype,
          cacheControl: body.cacheControl,
          lastModified: context.now().toISOString(),
          contentLength: body.size,
          httpStatusCode: 200,
        },
      }),
    );
    if (replaced && replaced !== version) {
      await context.files.remove(bucket, name, replaced).catch((error: unknown) => {
        // Only a leftover file: the row already points at the new body. The code only: the
        // error's message names the file, and object names may name customers.
        request.log.warn(
          { code: (error as NodeJS.ErrnoException).code },
          'replaced object body not removed',
        );
      });
    }
    return reply.send({ Id: id, Key: `${bucket}/${name}` });
  } catch (error) {
    await (
      placed ? context.files.remove(bucket, name, version) : context.files.discard(temporary)
    ).catch(() => undefined);
    throw error;
  }
}

function limitOf(bucket: BucketRow): number {
  const own = bucket.file_size_limit;
  return own !== null && own > 0 ? Math.min(own, uploadLimitBytes) : uploadLimitBytes;
}
