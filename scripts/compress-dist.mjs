// Last step of `npm run build`: writes `name.br` and `name.gz` beside every text file of dist/
// (HTML, the prerendered pages included, JS, CSS, JSON, SVG, web manifests), compressed once at
// the highest levels, so the server (@fastify/static's `preCompressed`) or a static host in front
// of the build sends them without compressing anything per request. Images, PDFs and fonts are
// compressed formats already and are left alone. Dot folders (.vite) are not served, so skipped.
//
// Run it after everything that writes into dist/ (vite build, which prerenders the public pages
// too): a `.br` that is older than its file would be sent instead of the new content. It
// therefore rewrites every compressed copy and removes those whose file is gone.

import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Extensions of the text files a visitor downloads; everything else is sent as it is. */
export const compressibleExtensions = [
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.webmanifest',
  '.txt',
  '.xml',
  '.map',
];
const compressedExtensions = ['.br', '.gz'];

async function* filesBelow(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesBelow(full);
    else if (entry.isFile()) yield full;
  }
}

/** Whether `file` is a text file that gets compressed copies. */
export function isCompressible(file) {
  return compressibleExtensions.includes(path.extname(file).toLowerCase());
}

async function compressFile(file) {
  const data = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gzipAsync(data, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  return { raw: data.length, br: br.length, gz: gz.length };
}

/**
 * Compresses every text file below `dir` (brotli and gzip beside it) and removes compressed
 * copies whose file is gone. Returns the totals in bytes.
 */
export async function compressDist(dir) {
  const sources = [];
  const copies = [];
  for await (const file of filesBelow(dir)) {
    if (compressedExtensions.includes(path.extname(file))) copies.push(file);
    else if (isCompressible(file)) sources.push(file);
  }
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  // A few at a time: zlib works in libuv's thread pool, and the build machine has two cores.
  const queue = [...sources];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const sizes = await compressFile(file);
      totals.files += 1;
      totals.raw += sizes.raw;
      totals.br += sizes.br;
      totals.gz += sizes.gz;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));

  const written = new Set(sources.flatMap((file) => [`${file}.br`, `${file}.gz`]));
  for (const copy of copies) {
    if (!written.has(copy)) await rm(copy, { force: true });
  }
  return totals;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url)));
  const exists = await stat(path.join(dist, 'index.html')).catch(() => undefined);
  if (!exists) {
    console.error(`${dist} enthält keinen Build: zuerst \`vite build\` ausführen.`);
    process.exit(1);
  }
  const totals = await compressDist(dist);
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `Vorkomprimiert: ${totals.files} Dateien, ${kb(totals.raw)} → brotli ${kb(totals.br)}, gzip ${kb(totals.gz)}`,
  );
}
