// Builds the app when dist/ is missing or was built from other sources. Content hashes, not
// file times: a fresh clone or a branch switch gives every file a new time. Then the template of
// a new database (server/db/template-file.mjs), when the one of the current migrations is missing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { templateFile } from '../server/db/template-file.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const inputs = [
  'src',
  'public',
  'sw',
  'index.html',
  'vite.config.ts',
  // Imported by vite.config.ts: the prerendered public pages, the desk's files by the graph.
  'scripts/page-html.ts',
  'scripts/desk-chunks.mjs',
  'scripts/vite-plugins',
  'scripts/compress-dist.mjs',
  'package-lock.json',
  'tsconfig.json',
];
const stampFile = path.join(root, 'dist', '.build-hash');

function* files(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

export function sourceHash() {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(input)) {
      // Tests do not change what is built.
      if (/\.test\.tsx?$/.test(file)) continue;
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(root, file)))
        .update('\0');
    }
  }
  // VITE_* variables are baked into the bundle, so they are part of what was built.
  for (const [key, value] of Object.entries(process.env).sort()) {
    if (key.startsWith('VITE_')) hash.update(`${key}=${value}\0`);
  }
  return hash.digest('hex');
}

export function buildIfStale() {
  const built = buildAppIfStale();
  buildTemplateIfStale();
  return built;
}

function buildAppIfStale() {
  const hash = sourceHash();
  const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  // The size check reads the build manifest: a dist/ from before it was written is stale too.
  const complete = ['index.html', '.vite/manifest.json'].every((file) =>
    existsSync(path.join(root, 'dist', file)),
  );
  if (built === hash && complete) return false;
  console.log(built ? 'Quellen geändert: baue die App neu …' : 'Baue die App …');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const steps = [
    [vite, 'build', '--logLevel', 'warn'],
    // The .br and .gz copies the server sends (npm run build does the same).
    [path.join(root, 'scripts', 'compress-dist.mjs')],
  ];
  for (const args of steps) {
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, hash + '\n');
  return true;
}

/**
 * Writes the template when the one for the current migrations, seed and PGlite is missing.
 * Without a template a first start still works, by initdb and the migrations, only slower: a
 * failure here warns and lets the start go on.
 */
export function buildTemplateIfStale() {
  if (existsSync(templateFile())) return false;
  console.log('Baue die Vorlage einer neuen Datenbank …');
  const script = path.join(root, 'scripts', 'make-db-template.ts');
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status === 0) return true;
  console.warn('Keine Datenbank-Vorlage: ein erster Start legt die Datenbank mit initdb an.');
  return false;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildIfStale();
}
