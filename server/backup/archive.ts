import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/**
 * A backup is one ZIP file (fflate, already a dependency): `database.sql` compressed, the
 * documents' bodies as they are (`storage/<bucket>/<name>/<version>`, mostly PDFs and images that
 * do not compress), the generated `jwt-secret` when there is one, and `manifest.json` last, with a
 * SHA-256 per entry that the restore checks before it writes anything. fflate writes no ZIP64:
 * one backup stays below 4 GB.
 */
export interface ArchiveWriter {
  /** Adds an entry from memory. */
  addBytes(name: string, data: Uint8Array, compress: boolean): Promise<void>;
  /** Adds an entry streamed from a file, without compression. */
  addFile(name: string, file: string): Promise<void>;
  /** The SHA-256 (hex) of each entry added so far. */
  readonly hashes: Record<string, string>;
  /** Writes the central directory and closes the file. */
  finish(): Promise<number>;
  /** Closes the file after a failure; the caller removes it. */
  abort(): Promise<void>;
}

export async function createArchive(file: string): Promise<ArchiveWriter> {
  const handle: FileHandle = await open(file, 'wx', 0o600);
  let bytes = 0;
  let failed: unknown;
  let pending: Promise<void> = Promise.resolve();
  let finished: (() => void) | undefined;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const zip = new Zip((error, chunk, final) => {
    if (error) failed ??= error;
    if (chunk.length > 0) {
      bytes += chunk.length;
      // Copied: fflate may reuse its buffer once the callback returns.
      const copy = chunk.slice();
      pending = pending.then(async () => {
        await handle.write(copy);
      });
      pending.catch((writeError: unknown) => (failed ??= writeError));
    }
    if (final) finished?.();
  });
  const settle = async () => {
    await pending;
    if (failed) throw failed;
  };
  const hashes: Record<string, string> = {};
  return {
    hashes,
    addBytes: async (name, data, compress) => {
      const entry = compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
      zip.add(entry);
      entry.push(data, true);
      hashes[name] = createHash('sha256').update(data).digest('hex');
      await settle();
    },
    addFile: async (name, source) => {
      const entry = new ZipPassThrough(name);
      zip.add(entry);
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(source, { highWaterMark: 256 * 1024 })) {
        const data = chunk as Buffer;
        hash.update(data);
        entry.push(data);
        // One chunk in memory at a time, however large the document.
        await settle();
      }
      entry.push(new Uint8Array(0), true);
      hashes[name] = hash.digest('hex');
      await settle();
    },
    finish: async () => {
      zip.end();
      await done;
      await settle();
      await handle.sync();
      await handle.close();
      return bytes;
    },
    abort: async () => {
      zip.terminate();
      await pending.catch(() => undefined);
      await handle.close().catch(() => undefined);
    },
  };
}

export interface ArchiveContents {
  /** Entries kept in memory (`database.sql`, `manifest.json`, `jwt-secret`), by name. */
  inMemory: Map<string, Buffer>;
  /** Entries written below `fileRoot` (documents), by name. */
  onDisk: string[];
  /** SHA-256 (hex) of every entry as read. */
  hashes: Record<string, string>;
}

interface Entry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  localHeader: number;
}

/**
 * Reads a backup by its central directory (sizes and offsets, so a document's bytes can never be
 * taken for a ZIP signature, as a streaming reader of entries with data descriptors can):
 * entries under `storage/` are streamed below `fileRoot`, the others are kept in memory. A name
 * that leaves its folder, ZIP64 and methods other than stored and deflate are refused.
 */
export async function readArchive(file: string, fileRoot: string): Promise<ArchiveContents> {
  const root = path.resolve(fileRoot);
  const handle = await open(file, 'r');
  try {
    const entries = await centralDirectory(handle);
    const inMemory = new Map<string, Buffer>();
    const onDisk: string[] = [];
    const hashes: Record<string, string> = {};
    for (const entry of entries) {
      if (entry.name.endsWith('/')) continue;
      const header = Buffer.alloc(30);
      await handle.read(header, 0, 30, entry.localHeader);
      if (header.readUInt32LE(0) !== 0x04034b50) throw new Error(`Eintrag ${entry.name} fehlt`);
      const start = entry.localHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
      const source = () =>
        createReadStream(file, {
          start,
          end: start + entry.compressedSize - 1,
          highWaterMark: 256 * 1024,
        });
      const inflate = () => (entry.method === 8 ? createInflateRaw() : new PassThrough());
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      if (entry.name.startsWith('storage/')) {
        const target = path.resolve(root, ...entry.name.split('/'));
        if (!target.startsWith(`${root}${path.sep}`) || entry.name.split('/').includes('..')) {
          throw new Error(`Ungültiger Eintrag in der Sicherung: ${entry.name}`);
        }
        await mkdir(path.dirname(target), { recursive: true });
        if (entry.compressedSize === 0) {
          await writeFile(target, '', { mode: 0o600, flag: 'wx' });
        } else {
          await pipeline(
            source(),
            inflate(),
            hashing,
            createWriteStream(target, { mode: 0o600, flags: 'wx' }),
          );
        }
        onDisk.push(entry.name);
      } else {
        const parts: Buffer[] = [];
        if (entry.compressedSize > 0) {
          await pipeline(source(), inflate(), hashing, async (chunks: AsyncIterable<Buffer>) => {
            for await (const chunk of chunks) parts.push(chunk);
          });
        }
        inMemory.set(entry.name, Buffer.concat(parts));
      }
      hashes[entry.name] = hash.digest('hex');
    }
    return { inMemory, onDisk, hashes };
  } finally {
    await handle.close();
  }
}

async function centralDirectory(handle: FileHandle): Promise<Entry[]> {
  const { size } = await handle.stat();
  // The end record is the last 22 bytes plus a comment of up to 65,535 bytes.
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = Buffer.alloc(tailLength);
  await handle.read(tail, 0, tailLength, size - tailLength);
  let end = -1;
  for (let i = tailLength - 22; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('keine ZIP-Datei (Ende nicht gefunden)');
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
    throw new Error('ZIP64 wird nicht gelesen');
  }
  const directory = Buffer.alloc(directorySize);
  await handle.read(directory, 0, directorySize, directoryOffset);
  const entries: Entry[] = [];
  let at = 0;
  for (let n = 0; n < count; n += 1) {
    if (directory.readUInt32LE(at) !== 0x02014b50) throw new Error('Inhaltsverzeichnis beschädigt');
    const method = directory.readUInt16LE(at + 10);
    const compressedSize = directory.readUInt32LE(at + 20);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const localHeader = directory.readUInt32LE(at + 42);
    const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
    if (method !== 0 && method !== 8) throw new Error(`Verfahren ${method} wird nicht gelesen`);
    if (compressedSize === 0xffffffff || localHeader === 0xffffffff) {
      throw new Error('ZIP64 wird nicht gelesen');
    }
    entries.push({ name, method, compressedSize, localHeader });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
