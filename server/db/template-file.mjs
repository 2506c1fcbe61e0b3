// Where the template of a new PGlite data folder lies, and whether it still matches the sources.
// Plain JavaScript: the launcher (scripts/build-if-stale.mjs) asks it before tsx is loaded, the
// server when it opens a data folder that does not exist yet (server/db/database.ts).
//
// The template is a data folder on which setupDatabase already ran (local Supabase schema, every
// migration, the seed; no admin account, which each start creates with its own password), closed
// by PGlite (scripts/make-db-template.ts). Its name carries the stamp, a hash of everything that
// decides its content: a template from other migrations, another seed or another PGlite is never
// found, and the folder is created by initdb and migrations as before.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The folder the build writes the template into; not below dist/, which the server serves. */
export const defaultTemplateDir = path.join(projectRoot, 'dist-server');

// What setupDatabase runs on a new folder, the code that runs it, and the PGlite (PostgreSQL
// version, extensions, initdb's options) that wrote the files.
const inputs = [
  'server/db/supabase-local.sql',
  'server/db/supabase-local-storage.sql',
  'server/db/setup.ts',
  'server/db/migrate.ts',
  'server/db/template.ts',
  'supabase/seed.sql',
  'node_modules/@electric-sql/pglite/package.json',
];

/** The hash of the template's sources below `root` (the project, or a test's copy of it). */
export function templateStamp(root = projectRoot) {
  const hash = createHash('sha256');
  const migrations = path.join(root, 'supabase', 'migrations');
  const migrationFiles = existsSync(migrations)
    ? readdirSync(migrations)
        .filter((name) => name.endsWith('.sql'))
        .sort()
        .map((name) => path.join('supabase', 'migrations', name))
    : [];
  for (const file of [...inputs, ...migrationFiles]) {
    const full = path.join(root, file);
    hash.update(file).update('\0');
    hash.update(existsSync(full) ? readFileSync(full) : '(fehlt)').update('\0');
  }
  return hash.digest('hex');
}

/** The template's folder for a stamp: `pglite-template-<first 16 hex digits>`. */
export function templateFile(stamp = templateStamp(), dir = defaultTemplateDir) {
  return path.join(dir, `pglite-template-${stamp.slice(0, 16)}`);
}

/** The template that matches the sources, when one was built; otherwise undefined. */
export function findTemplate(dir = defaultTemplateDir, stamp = templateStamp()) {
  const folder = templateFile(stamp, dir);
  // Written whole or not at all (server/db/template.ts); PG_VERSION says it is a data folder.
  return existsSync(path.join(folder, 'PG_VERSION')) ? folder : undefined;
}
