// npm run icons — renders the app icons in public/icons/ from public/favicon.svg with
// @vite-pwa/assets-generator. Survey Desk's icons put the same mark on an orange tile with a
// clipboard, so the staff app is not mistaken for the public one next to it.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMaskableAsset, generateTransparentAsset } from '@vite-pwa/assets-generator/api';

const colors = {
  brand50: '#f0f5fa',
  brand800: '#1e3a5f',
  accent: '#d98a1c',
  white: '#ffffff',
};

/**
 * `any` icons: the image on transparency. `maskable` and `apple` icons: on an opaque background,
 * which is also what a launcher shows outside its mask.
 */
export interface IconSpec {
  file: string;
  size: number;
  purpose: 'any' | 'maskable' | 'apple';
  /** Share of the edge left empty around the image. */
  padding: number;
  background?: string;
  svg: (faviconBody: string) => string;
}

/**
 * Rendered at a large pixel size, so the generator scales down, never up: an SVG without a size
 * would be rasterised at its 64 viewBox units and come out blurred.
 */
const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="1024" height="1024">${body}</svg>`;

// A white ring (the favicon stroked, then painted again on top) keeps the dark shield visible on
// dark desktops and taskbars.
const outlinedMark = (favicon: string) =>
  svg(
    `<g stroke="${colors.white}" stroke-width="3" stroke-linejoin="round">${favicon}</g>${favicon}`,
  );

const plainMark = (favicon: string) => svg(favicon);

// A clipboard in 24x30 units at the shield's lower right; its orange rim cuts into the shield.
const clipboard = `<g transform="translate(40.5 33) scale(0.95)">
  <rect x="-2.5" y="0.5" width="29" height="32" rx="5" fill="${colors.accent}"/>
  <rect x="0" y="3" width="24" height="27" rx="3" fill="${colors.white}"/>
  <g fill="${colors.brand800}">
    <rect x="6.5" y="0" width="11" height="6.5" rx="2"/>
    <rect x="5" y="12" width="14" height="2.6" rx="1.3"/>
    <rect x="5" y="17.5" width="14" height="2.6" rx="1.3"/>
    <rect x="5" y="23" width="9" height="2.6" rx="1.3"/>
  </g>
</g>`;

const deskMark = (favicon: string) =>
  `<g transform="translate(32 32) scale(0.8) translate(-36 -34)">${favicon}${clipboard}</g>`;

const deskTile = (favicon: string) =>
  svg(`<rect x="1.3" y="1.3" width="61.4" height="61.4" rx="12.8" fill="${colors.accent}"/>
    ${deskMark(favicon)}`);

export const icons: readonly IconSpec[] = [
  // The bare shield, so it stays a shield whatever the desktop puts around it.
  { file: 'app-192.png', size: 192, purpose: 'any', padding: 0.05, svg: outlinedMark },
  { file: 'app-512.png', size: 512, purpose: 'any', padding: 0.05, svg: outlinedMark },
  // Launchers crop to a circle or squircle: the mark stays inside the central safe zone.
  {
    file: 'app-maskable-512.png',
    size: 512,
    purpose: 'maskable',
    padding: 0.3,
    background: colors.brand50,
    svg: plainMark,
  },
  // iOS rounds the corners itself and shows transparency as black.
  {
    file: 'apple-touch-icon.png',
    size: 180,
    purpose: 'apple',
    padding: 0.2,
    background: colors.brand50,
    svg: plainMark,
  },
  { file: 'desk-192.png', size: 192, purpose: 'any', padding: 0, svg: deskTile },
  { file: 'desk-512.png', size: 512, purpose: 'any', padding: 0, svg: deskTile },
  {
    file: 'desk-maskable-512.png',
    size: 512,
    purpose: 'maskable',
    padding: 0.3,
    background: colors.accent,
    svg: (favicon) => svg(deskMark(favicon)),
  },
];

export const faviconFile = fileURLToPath(new URL('../public/favicon.svg', import.meta.url));
const iconsDir = fileURLToPath(new URL('../public/icons', import.meta.url));

/** What is drawn inside the favicon's <svg> element. */
export async function readFaviconBody(): Promise<string> {
  const favicon = await readFile(faviconFile, 'utf8');
  const body = /<svg\b[^>]*>([\s\S]*)<\/svg>/.exec(favicon)?.[1];
  if (!body) throw new Error('public/favicon.svg enthält kein <svg>-Element.');
  return body;
}

export async function renderIcon(icon: IconSpec, faviconBody: string): Promise<Buffer> {
  const image = Buffer.from(icon.svg(faviconBody));
  // Lossless: the default palette reduction would band the anti-aliased edges.
  const options = {
    padding: icon.padding,
    outputOptions: { compressionLevel: 9 },
  };
  const png =
    icon.purpose !== 'any'
      ? await generateMaskableAsset('png', image, icon.size, {
          ...options,
          resizeOptions: { fit: 'contain', background: icon.background },
        })
      : await generateTransparentAsset('png', image, icon.size, {
          ...options,
          resizeOptions: { fit: 'contain', background: 'transparent' },
        });
  return png.toBuffer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const faviconBody = await readFaviconBody();
  for (const icon of icons) {
    const png = await renderIcon(icon, faviconBody);
    await writeFile(path.join(iconsDir, icon.file), png);
    console.log(`geschrieben: public/icons/${icon.file} (${png.length} Bytes)`);
  }
}
