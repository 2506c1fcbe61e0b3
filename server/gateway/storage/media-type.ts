import type { FileHandle } from 'node:fs/promises';
import { storageErrors } from './errors.ts';

/**
 * The only media types the gateway stores or serves as what they claim to be, each with the
 * first bytes every such file starts with (OWASP File Upload Cheat Sheet). A bucket's allow-list
 * can only narrow this: HTML, SVG, XML or a script type is never stored, whatever a bucket says,
 * because anything served from our origin as a page could read the staff session.
 */
const signatures: Record<string, (head: Buffer) => boolean> = {
  'application/pdf': (head) => head.subarray(0, 5).toString('latin1') === '%PDF-',
  'image/png': (head) =>
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (head) => head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  'image/webp': (head) =>
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP',
  'image/gif': (head) => /^GIF8[79]a$/.test(head.subarray(0, 6).toString('latin1')),
};

/** Bytes read from the start of a file to judge its signature. */
export const signatureLength = 12;

/**
 * `type/subtype` of a Content-Type header, lower-cased, without parameters; undefined when the
 * header is not one media type. A comma is refused outright: browsers take the last of a list,
 * so `application/pdf;,text/html` would render as HTML.
 */
export function canonicalMediaType(header: string | undefined): string | undefined {
  if (header === undefined || header.includes(',')) return undefined;
  const match = /^\s*([a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*)\s*(;.*)?$/i.exec(
    header,
  );
  return match?.[1]?.toLowerCase();
}

/**
 * The canonical type an upload is stored under: one of ours, allowed by the bucket (`type/*`
 * patterns included). Anything else is Storage's 415.
 */
export function storableType(header: string, bucketAllows: string[] | null): string {
  const type = canonicalMediaType(header);
  const allowedByBucket = (candidate: string) =>
    !bucketAllows ||
    bucketAllows.length === 0 ||
    bucketAllows.some((pattern) => {
      const wanted = pattern.trim().toLowerCase();
      return wanted.endsWith('/*')
        ? candidate.startsWith(wanted.slice(0, -1))
        : candidate === wanted;
    });
  if (!type || !Object.hasOwn(signatures, type) || !allowedByBucket(type)) {
    throw storageErrors.invalidMimeType(type ?? header.slice(0, 100));
  }
  return type;
}

/** Whether a file's first bytes are those of `type` (one of ours). */
export function hasSignature(type: string, head: Buffer): boolean {
  return Object.hasOwn(signatures, type) && signatures[type]!(head);
}

export async function readHead(handle: FileHandle): Promise<Buffer> {
  const head = Buffer.alloc(signatureLength);
  const { bytesRead } = await handle.read(head, 0, signatureLength, 0);
  return head.subarray(0, bytesRead);
}

/**
 * How a stored body is sent: its stored type only when that is one of ours and the body starts
 * as such a file does (objects stored before the check may carry any type), else as bytes to
 * save. Raster images are shown inline; a PDF is saved, because Chromium refuses to render a PDF
 * under the sandbox policy every download carries (crbug 41131921), and a download opens in every
 * browser's or phone's PDF viewer.
 */
export function servedAs(
  stored: string | undefined,
  head: Buffer,
): { type: string; inline: boolean } {
  const type = canonicalMediaType(stored);
  if (type && hasSignature(type, head)) {
    return { type, inline: type.startsWith('image/') };
  }
  return { type: 'application/octet-stream', inline: false };
}
