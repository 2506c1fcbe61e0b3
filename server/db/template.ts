import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from './database.ts';
import { setupDatabase } from './setup.ts';

/**
 * Writes the template of a new data folder to `folder` (named by its stamp,
 * server/db/template-file.mjs): a PGlite data folder as the first start leaves it, short of the
 * admin account: the local Supabase schema, every migration and the seed, closed cleanly. A first
 * start copies it (server/db/database.ts) instead of running initdb and the migrations
 * (bench:startup: initdb alone took 3 of the 5 s). Nothing in it belongs to one installation:
 * the admin account and its password, JWT_SECRET (a file beside the data folder) and everything
 * else generated per installation are created by the start that uses it.
 *
 * The folder appears whole or not at all (made beside it, then renamed): a start never copies
 * half a template. The templates of earlier sources beside it are removed.
 */
export async function writeTemplate(folder: string): Promise<void> {
  const dir = path.dirname(folder);
  await mkdir(dir, { recursive: true });
  const partial = `${folder}.${process.pid}.tmp`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial);
  try {
    const db = await openDatabase({ dataDir: partial });
    try {
      await setupDatabase(db, { gateway: true });
    } finally {
      await db.close();
    }
    await rm(folder, { recursive: true, force: true });
    await rename(path.join(partial, 'pglite'), folder);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  for (const name of await readdir(dir)) {
    // Folders of earlier sources, and the gzip tarballs earlier builds wrote.
    if (/^pglite-template-[0-9a-f]+(\.tar\.gz)?$/.test(name) && name !== path.basename(folder)) {
      await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }
}
