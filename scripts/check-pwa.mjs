// Build checks of the installable app, run by `npm test` after the build: both manifests
// (names, icons present at their sizes, start URLs, scopes) and the precache list (every public
// screen, the legal pages and the PDFs; no file that only Survey Desk loads, found by following
// the build's chunk graph from the desk's entry in scripts/desk-chunks.mjs, and no such file
// named by a public page either). Prints the precache size.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findDeskLeaks, precacheList, readBuild } from './desk-chunks.mjs';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const problems = [];
const check = (ok, message) => {
  if (!ok) problems.push(message);
};

function pngSize(file) {
  const data = readFileSync(file);
  if (data.subarray(1, 4).toString() !== 'PNG') return undefined;
  return `${data.readUInt32BE(16)}x${data.readUInt32BE(20)}`;
}

function checkManifest(file, expected) {
  const full = path.join(dist, file);
  if (!existsSync(full)) return check(false, `${file} fehlt im Build`);
  const manifest = JSON.parse(readFileSync(full, 'utf8'));
  for (const key of ['id', 'start_url', 'scope', 'lang', 'display']) {
    check(
      manifest[key] === expected[key],
      `${file}: ${key} ist ${manifest[key]}, erwartet ${expected[key]}`,
    );
  }
  check(manifest.name?.length > 3 && manifest.short_name?.length > 1, `${file}: Name fehlt`);
  check(
    /[äöüß]|\b(und|die|der|für)\b/i.test(manifest.description ?? ''),
    `${file}: keine deutsche Beschreibung`,
  );
  const icons = manifest.icons ?? [];
  for (const [size, purpose] of [
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['512x512', 'maskable'],
  ]) {
    check(
      icons.some((i) => i.sizes === size && (i.purpose ?? 'any').split(' ').includes(purpose)),
      `${file}: Symbol ${size} (${purpose}) fehlt`,
    );
  }
  for (const image of [...icons, ...(manifest.screenshots ?? [])]) {
    const imageFile = path.join(dist, image.src);
    if (!existsSync(imageFile)) check(false, `${file}: ${image.src} fehlt im Build`);
    else
      check(pngSize(imageFile) === image.sizes, `${file}: ${image.src} ist nicht ${image.sizes}`);
  }
  check((manifest.screenshots ?? []).length > 0, `${file}: keine Screenshots`);
  return manifest;
}

const app = checkManifest('manifest.webmanifest', {
  id: '/universa',
  start_url: '/universa',
  scope: '/',
  lang: 'de',
  display: 'standalone',
});
const desk = checkManifest('surveydesk.webmanifest', {
  id: '/surveydesk',
  start_url: '/surveydesk',
  scope: '/surveydesk',
  lang: 'de',
  display: 'standalone',
});
check(app?.name !== desk?.name, 'Beide Apps heißen gleich');

const precached = precacheList(readFileSync(path.join(dist, 'sw.js'), 'utf8'));
check(precached.length > 0, 'sw.js enthält keine Precache-Liste');
const deskCode = findDeskLeaks(readBuild(dist));
for (const problem of deskCode.problems) check(false, problem);
const deskManifests = precached.filter((url) => url.includes('surveydesk'));
check(deskManifests.length === 0, `Survey-Desk-Manifest im Precache: ${deskManifests.join(', ')}`);
// Build information such as .vite/manifest.json and .build-hash is nothing a device needs.
const dotfiles = precached.filter((url) => url.split('/').some((part) => part.startsWith('.')));
check(dotfiles.length === 0, `Build-Dateien im Precache: ${dotfiles.join(', ')}`);
for (const needed of [
  /^index\.html$/,
  /imprint-page-.*\.js$/,
  /privacy-page-.*\.js$/,
  /terms-page-.*\.js$/,
  /cookies-page-.*\.js$/,
  /tabaluga-page-.*\.js$/,
  /pkv-page-.*\.js$/,
  /kfz-page-.*\.js$/,
  /contact-page-.*\.js$/,
  /tabaluga\/flyer\.pdf$/,
  /tabaluga\/angebot-150\.pdf$/,
  /pkv\/info\.pdf$/,
]) {
  check(
    precached.some((url) => needed.test(url)),
    `Nicht im Precache: ${needed}`,
  );
}

const bytes = precached.reduce((sum, url) => sum + statSync(path.join(dist, url)).size, 0);
console.log(`Precache: ${precached.length} Dateien, ${(bytes / 1024).toFixed(1)} KB`);
console.log(`Manifeste: ${app?.name} (${app?.start_url}), ${desk?.name} (${desk?.start_url})`);
console.log(`Survey Desk: ${deskCode.deskOnly.size} Dateien lädt nur der Desk (Chunk-Graph).`);
if (problems.length > 0) {
  console.error(`PWA-Prüfung fehlgeschlagen:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('PWA-Prüfung bestanden.');
