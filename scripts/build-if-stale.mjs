// Builds the app when dist/ is missing or was built from other sources. Content hashes decide,
// not file times: a fresh clone or a branch switch gives every file a new time. But reading every
// source (PDFs and images included) on each `npm start` cost a restart its time, so the check
// that found the build current also keeps the sources' file data (name, size, times, inode):
// while none of it changed, nothing is read. Then the template of a new database
// (server/db/template-file.mjs), when the one of the current migrations is missing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findTemplate } from '../server/db/template-file.mjs';

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

/** The files the build reads, with their stat; tests do not change what is built. */
function* files(entry) {
  const full = path.join(root, entry);
  const stat = statSync(full, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* files(path.join(entry, name));
  } else if (!/\.test\.tsx?$/.test(entry)) {
    yield { file: entry, stat };
  }
}

/** VITE_* variables are baked into the bundle, so they are part of what was built. */
function hashViteEnv(hash) {
  for (const [key, value] of Object.entries(process.env).sort()) {
    if (key.startsWith('VITE_')) hash.update(`${key}=${value}\0`);
  }
}

export function sourceHash() {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const { file } of files(input)) {
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(root, file)))
        .update('\0');
    }
  }
  hashViteEnv(hash);
  return hash.digest('hex');
}

/**
 * The sources' file data without their content: a file edited, added, removed, replaced or
 * touched changes it (the change time cannot be set back by hand).
 */
export function sourceStat() {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const { file, stat } of files(input)) {
      hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\0${stat.ctimeMs}\0${stat.ino}\0`);
    }
  }
  hashViteEnv(hash);
  return hash.digest('hex');
}

export function buildIfStale() {
  const built = buildAppIfStale();
  buildTemplateIfStale();
  return built;
}

/**
 * `dist/.build-hash`: the content hash of the sources it was built from, and the file data of the
 * sources when a check last found them of that content.
 */
function readStamp() {
  const [hash = '', stat = ''] = existsSync(stampFile)
    ? readFileSync(stampFile, 'utf8').split('\n')
    : [];
  return { hash, stat };
}

function buildAppIfStale() {
  // Taken before the content is read: a file changed meanwhile is read again next time.
  const stat = sourceStat();
  const built = readStamp();
  // The size check reads the build manifest: a dist/ from before it was written is stale too.
  const complete = ['index.html', '.vite/manifest.json'].every((file) =>
    existsSync(path.join(root, 'dist', file)),
  );
  if (complete && built.hash && built.stat === stat) return false;
  const hash = sourceHash();
  if (built.hash === hash && complete) {
    writeFileSync(stampFile, `${hash}\n${stat}\n`);
    return false;
  }
  console.log(built.hash ? 'Quellen geändert: baue die App neu …' : 'Baue die App …');
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
  writeFileSync(stampFile, `${hash}\n${stat}\n`);
  return true;
}

/**
 * Writes the template when the one for the current migrations, seed and PGlite is missing.
 * Without a template a first start still works, by initdb and the migrations, only slower: a
 * failure here warns and lets the start go on.
 */
export function buildTemplateIfStale() {
  if (findTemplate()) return false;
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

/** `npm start`'s server: server/main.ts and what it imports from the project, in one module. */
export const serverBundle = path.join(root, 'dist-server', 'server', 'main.mjs');
// Beside it: the project files it was built from, and their file data then.
const serverInputsFile = `${serverBundle}.inputs.json`;

function statOf(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    const stat = statSync(path.join(root, file), { throwIfNoEntry: false });
    hash.update(
      stat ? `${file}\0${stat.size}\0${stat.mtimeMs}\0${stat.ctimeMs}\0${stat.ino}\0` : `${file}\0`,
    );
  }
  return hash.digest('hex');
}

/**
 * Compiles the server once into one module (esbuild, its packages left to node_modules), so that
 * `npm start` runs it with plain Node: tsx compiling and resolving every source through its
 * loader took a restart half a second (bench:startup). Built again when a file it was built from
 * changed, by their file data: a branch switch or a fresh clone builds it again, which takes
 * well under a second. The bundle sits at the same depth below the project as server/main.ts,
 * so paths the server derives from its own module (`import.meta.url`) name the same files.
 * Returns undefined when it cannot be built: the launcher then runs the sources with tsx.
 */
export async function buildServerIfStale() {
  if (existsSync(serverBundle) && existsSync(serverInputsFile)) {
    const built = JSON.parse(readFileSync(serverInputsFile, 'utf8'));
    if (built.stat === statOf(built.inputs)) return serverBundle;
  }
  const started = Date.now();
  try {
    const { build } = await import('esbuild');
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['server/main.ts'],
      outfile: serverBundle,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'warning',
    });
    const inputs = Object.keys(result.metafile.inputs).sort();
    // A file changed while it was compiled: the next start compiles again.
    const changedMeanwhile = inputs.some((file) => {
      const stat = statSync(path.join(root, file), { throwIfNoEntry: false });
      return !stat || stat.mtimeMs >= started || stat.ctimeMs >= started;
    });
    if (!changedMeanwhile) {
      writeFileSync(serverInputsFile, JSON.stringify({ inputs, stat: statOf(inputs) }) + '\n');
    }
    return serverBundle;
  } catch (error) {
    console.warn(`Server nicht vorab übersetzt (${error.message}); er startet mit tsx.`);
    rmSync(serverInputsFile, { force: true });
    return undefined;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildIfStale();
  await buildServerIfStale();
}
