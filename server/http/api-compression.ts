import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify';

/**
 * On-the-fly compression of the APIs' answers (hub, gateway, app config): JSON and other text
 * from about 1 KB on, brotli when the client accepts it, else gzip (a phone on a fair's mobile
 * connection pays for every byte). The static site is not in this scope: its files are
 * compressed once at build time.
 */
export const apiCompressionOptions: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  // Text and JSON only. Unlike the plugin's default, not application/octet-stream: storage
  // serves uploads under it, and those are mostly PDFs, images or archives, compressed already.
  // Event streams stay out (the plugin also leaves any type mime-db does not call compressible):
  // a compressing stream holds events back until its buffer fills.
  customTypes: /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)xml(?:;|$)/,
  // Request bodies stay as they are: no client sends compressed ones, and inflating them
  // would let a small body grow past the body limit's intent.
  globalDecompression: false,
};

const itemRange = Symbol('itemRange');
type WithItemRange = FastifyReply & {
  [itemRange]?: { contentRange: string; statusCode: number };
};

/**
 * PostgREST's `Content-Range: 0-24/310` counts rows, not bytes, so compressing the body changes
 * nothing it says. @fastify/compress leaves every answer with a Content-Range or status 206
 * alone (right for byte ranges), which would keep the gateway's lists uncompressed: the header
 * and status of a row range are set aside before the plugin looks and put back after it.
 */
const hideItemRange: onSendHookHandler = async (_request, reply) => {
  const contentRange = reply.getHeader('content-range');
  if (typeof contentRange !== 'string' || contentRange.trimStart().startsWith('bytes')) return;
  (reply as WithItemRange)[itemRange] = { contentRange, statusCode: reply.statusCode };
  reply.removeHeader('content-range');
  if (reply.statusCode === 206) reply.code(200);
};

const restoreItemRange: onSendHookHandler = async (_request, reply) => {
  const hidden = (reply as WithItemRange)[itemRange];
  if (!hidden) return;
  reply.header('content-range', hidden.contentRange);
  reply.code(hidden.statusCode);
};

/**
 * Registers compression for every route registered in `scope` after it. Instance hooks run
 * before route hooks, and the plugin adds its onSend to each route, so the row range is hidden
 * by an instance hook and restored by a route hook added after the plugin's.
 */
export async function registerApiCompression(scope: FastifyInstance): Promise<void> {
  scope.addHook('onSend', hideItemRange);
  await scope.register(compress, apiCompressionOptions);
  scope.addHook('onRoute', (route) => {
    const onSend = route.onSend === undefined ? [] : [route.onSend].flat();
    route.onSend = [...onSend, restoreItemRange];
  });
}
