import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from './database.ts';
import { setupDatabase } from './setup.ts';

/**
 * A new database as the first start leaves it, short of the admin account: the local Supabase
 * schema, every migration and the seed, as PGlite's gzip tarball of the data folder. A first
 * start loads it (`loadDataDir`) instead of running initdb and the migrations (bench:startup:
 * initdb alone took 3 of the 5 s). Nothing in it belongs to one installation: the admin account
 * and its password, JWT_SECRET (a file beside the data folder) and everything else generated per
 * installation are created by the start that uses it.
 */
export async function createTemplate(): Promise<Uint8Array> {
  const db = await openDatabase({});
  try {
    await setupDatabase(db, { gateway: true });
    return await db.exclusive!(async (pg) => {
      // Everything written out of the WAL into the data files: a start from the template
      // replays nothing.
      await pg.exec('checkpoint');
      const dump = await pg.dumpDataDir('gzip');
      return new Uint8Array(await dump.arrayBuffer());
    });
  } finally {
    await db.close();
  }
}

/**
 * Writes the template to `file` (named by its stamp, server/db/template-file.mjs) and removes the
 * templates of earlier sources beside it. The file appears whole or not at all: a start never
 * loads half a template.
 */
export async function writeTemplate(file: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, await createTemplate());
  await rename(partial, file);
  for (const name of await readdir(dir)) {
    if (/^pglite-template-[0-9a-f]+\.tar\.gz$/.test(name) && name !== path.basename(file)) {
      await rm(path.join(dir, name), { force: true });
    }
  }
}
