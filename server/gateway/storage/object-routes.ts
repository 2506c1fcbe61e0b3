import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { asRole } from '../as-role.ts';
import { storageErrors } from './errors.ts';
import { isValidBucketId, objectAddress } from './object-name.ts';
import { findBucket, findObject, listColumns, listObjects, removeObjects } from './object-rows.ts';
import { callerClaims, signDownloadToken, verifyDownloadToken } from './storage-tokens.ts';
import { requestInfo, sendObject, type StorageContext } from './storage-context.ts';

const objectParams = z.object({ bucket: z.string(), '*': z.string() });
const bucketParams = z.object({ bucket: z.string() });
const downloadQuery = z.object({ download: z.string().optional() }).passthrough();
const signBody = z.object({
  expiresIn: z
    .number()
    .int()
    .min(1)
    .max(10 * 365 * 24 * 60 * 60),
});
const signedQuery = downloadQuery.extend({ token: z.string().min(1) });
const removeBody = z.object({ prefixes: z.array(z.string()).min(1).max(1000) });
const listBody = z.object({
  prefix: z.string().max(1024).default(''),
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).max(1_000_000).default(0),
  sortBy: z
    .object({
      column: z.enum(listColumns).default('name'),
      order: z
        .string()
        .transform((order) => (order.toLowerCase() === 'desc' ? 'desc' : 'asc'))
        .default('asc'),
    })
    .default({ column: 'name', order: 'asc' }),
  search: z.string().max(1024).default(''),
});

/** Downloads, signed URLs, removal and listing: every object the caller reaches, RLS decides. */
export const objectRoutes: FastifyPluginAsyncZod<StorageContext> = async (routes, context) => {
  const claimsOf = (authorization: string | undefined, required = false) =>
    callerClaims(authorization, context.secret, { required, db: context.db });

  routes.get(
    '/object/public/:bucket/*',
    { schema: { params: objectParams, querystring: downloadQuery } },
    async (request, reply) => {
      const address = objectAddress(request.params.bucket, request.params['*']);
      const bucket = await findBucket(context.db, address.bucket);
      if (!bucket?.public) throw storageErrors.noSuchBucket();
      return sendObject(context, request, reply, address, () =>
        findObject(context.db, address.bucket, address.name),
      );
    },
  );

  routes.get(
    '/object/authenticated/:bucket/*',
    { schema: { params: objectParams, querystring: downloadQuery } },
    async (request, reply) => {
      const address = objectAddress(request.params.bucket, request.params['*']);
      const claims = await claimsOf(request.headers.authorization, true);
      return sendObject(context, request, reply, address, () =>
        asRole(context.db, claims, requestInfo(request, true), (tx) =>
          findObject(tx, address.bucket, address.name),
        ),
      );
    },
  );

  routes.post(
    '/object/sign/:bucket/*',
    { schema: { params: objectParams, body: signBody } },
    async (request) => {
      const { bucket, name } = objectAddress(request.params.bucket, request.params['*']);
      const claims = await claimsOf(request.headers.authorization);
      // Only an object the caller may read gets a URL.
      const row = await asRole(context.db, claims, requestInfo(request, true), (tx) =>
        findObject(tx, bucket, name),
      );
      if (!row) throw storageErrors.noSuchKey();
      const url = `${bucket}/${name}`;
      const token = await signDownloadToken(
        context.secret,
        url,
        request.body.expiresIn,
        context.now(),
      );
      return { signedURL: `/object/sign/${url}?token=${token}` };
    },
  );

  routes.get(
    '/object/sign/:bucket/*',
    { schema: { params: objectParams, querystring: signedQuery } },
    async (request, reply) => {
      const address = objectAddress(request.params.bucket, request.params['*']);
      await verifyDownloadToken(
        context.secret,
        request.query.token,
        `${address.bucket}/${address.name}`,
        context.now(),
      );
      return sendObject(context, request, reply, address, () =>
        findObject(context.db, address.bucket, address.name),
      );
    },
  );

  routes.post(
    '/object/list/:bucket',
    { schema: { params: bucketParams, body: listBody } },
    async (request) => {
      const bucket = request.params.bucket;
      if (!isValidBucketId(bucket)) throw storageErrors.noSuchBucket();
      const claims = await claimsOf(request.headers.authorization);
      return asRole(context.db, claims, requestInfo(request, true), (tx) =>
        listObjects(tx, bucket, request.body),
      );
    },
  );

  routes.delete(
    '/object/:bucket',
    { schema: { params: bucketParams, body: removeBody } },
    async (request) => {
      const bucket = request.params.bucket;
      if (!isValidBucketId(bucket)) throw storageErrors.noSuchBucket();
      const claims = await claimsOf(request.headers.authorization);
      const removed = await asRole(context.db, claims, requestInfo(request, false), (tx) =>
        removeObjects(tx, bucket, request.body.prefixes),
      );
      await removeBodies(context, removed);
      return removed;
    },
  );

  routes.delete('/object/:bucket/*', { schema: { params: objectParams } }, async (request) => {
    const { bucket, name } = objectAddress(request.params.bucket, request.params['*']);
    const claims = await claimsOf(request.headers.authorization);
    const removed = await asRole(context.db, claims, requestInfo(request, false), (tx) =>
      removeObjects(tx, bucket, [name]),
    );
    if (removed.length === 0) throw storageErrors.noSuchKey();
    await removeBodies(context, removed);
    return { message: 'Successfully deleted' };
  });

  routes.get(
    '/object/:bucket/*',
    { schema: { params: objectParams, querystring: downloadQuery } },
    async (request, reply) => {
      const address = objectAddress(request.params.bucket, request.params['*']);
      const claims = await claimsOf(request.headers.authorization);
      return sendObject(context, request, reply, address, () =>
        asRole(context.db, claims, requestInfo(request, true), (tx) =>
          findObject(tx, address.bucket, address.name),
        ),
      );
    },
  );
};

/** After the rows are gone: a body that stays behind is only a leftover file, never served. */
async function removeBodies(
  context: StorageContext,
  removed: { bucket_id: string; name: string; version: string | null }[],
): Promise<void> {
  await Promise.all(
    removed
      .filter((row) => row.version)
      .map((row) =>
        context.files.remove(row.bucket_id, row.name, row.version!).catch(() => undefined),
      ),
  );
}
