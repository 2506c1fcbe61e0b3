import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, rmdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { readHead } from './media-type.ts';
import { invalidKey } from './object-name.ts';

/**
 * Object bodies on disk: `DATA_DIR/storage/<bucket>/<name>/<version>`, one file per version, as
 * Storage's own file backend keeps them. An upload never writes over a body someone may be
 * reading: it arrives in a temporary file, moves to a new version's path, and only then does the
 * row point at it; the replaced version is removed after the row changed.
 */
export interface FileStore {
  /** A fresh path in the store's own temporary folder (same disk, so moving it is atomic). */
  temporaryPath(): Promise<string>;
  /** Moves a received body to a version's path. */
  place(temporary: string, bucket: string, name: string, version: string): Promise<void>;
  /** Opens a version's body, or undefined when it is gone. */
  open(bucket: string, name: string, version: string): Promise<FileHandle | undefined>;
  /** The first bytes of a received body, for its signature. */
  head(temporary: string): Promise<Buffer>;
  /**
   * Removes a version's body and the folders left empty by it, so a refused upload leaves no
   * trace; a missing one is not an error.
   */
  remove(bucket: string, name: string, version: string): Promise<void>;
  discard(temporary: string): Promise<void>;
}

export function createFileStore(dataDir: string): FileStore {
  const root = path.resolve(dataDir, 'storage');
  const temporaryDir = path.join(root, '.uploads');

  // Names are validated before they get here; this only makes sure no path leaves the store.
  const versionPath = (bucket: string, name: string, version: string) => {
    const file = path.resolve(root, bucket, ...name.split('/'), version);
    if (!file.startsWith(`${root}${path.sep}`) || file.startsWith(`${temporaryDir}${path.sep}`)) {
      throw invalidKey(name);
    }
    return file;
  };

  return {
    temporaryPath: async () => {
      await mkdir(temporaryDir, { recursive: true });
      return path.join(temporaryDir, randomUUID());
    },
    place: async (temporary, bucket, name, version) => {
      const file = versionPath(bucket, name, version);
      // Twice: another upload's clean-up may remove an empty folder between mkdir and rename.
      for (let attempt = 0; ; attempt += 1) {
        try {
          await mkdir(path.dirname(file), { recursive: true });
        } catch (error) {
          // A folder of this name is another object's version file (`a/<version>`): the
          // name cannot be stored, which is the caller's error, not the server's.
          if (isCode(error, 'ENOTDIR') || isCode(error, 'EEXIST')) throw invalidKey(name);
          throw error;
        }
        try {
          await rename(temporary, file);
          return;
        } catch (error) {
          if (attempt > 0 || !isCode(error, 'ENOENT')) throw error;
        }
      }
    },
    head: async (temporary) => {
      const handle = await open(temporary, 'r');
      try {
        return await readHead(handle);
      } finally {
        await handle.close();
      }
    },
    open: async (bucket, name, version) => {
      try {
        return await open(versionPath(bucket, name, version), 'r');
      } catch (error) {
        if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return undefined;
        throw error;
      }
    },
    remove: async (bucket, name, version) => {
      const file = versionPath(bucket, name, version);
      await rm(file, { force: true });
      // Up to the store's root: a folder still holding anything stays (ENOTEMPTY ends the walk).
      for (let folder = path.dirname(file); folder !== root; folder = path.dirname(folder)) {
        try {
          await rmdir(folder);
        } catch {
          return;
        }
      }
    },
    discard: async (temporary) => {
      await rm(temporary, { force: true });
    },
  };
}

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}
