import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { icons, readFaviconBody, renderIcon, type IconSpec } from '../../scripts/make-icons.ts';
import { publicManifest } from '../../vite.config.ts';

const publicFile = (name: string) =>
  new URL(`../../public/${name.replace(/^\//, '')}`, import.meta.url);

interface Pixels {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Buffer;
}

async function decode(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

const committed = (icon: IconSpec) => readFile(publicFile(`icons/${icon.file}`)).then(decode);

function pixel({ width, data }: Pixels, x: number, y: number): number[] {
  const offset = (y * width + x) * 4;
  return [...data.subarray(offset, offset + 4)];
}

function hexToRgba(hex: string): number[] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff, 255];
}

// The committed icons are what scripts/make-icons.ts renders from public/favicon.svg, so a
// changed drawing shows up as a failing test until `npm run icons` has been run.
describe('app icons', () => {
  it.each(icons.map((icon) => [icon.file, icon] as const))(
    'public/icons/%s is the script output at its size',
    async (_, icon) => {
      const image = await committed(icon);
      expect({ width: image.width, height: image.height }).toEqual({
        width: icon.size,
        height: icon.size,
      });
      const rendered = await decode(await renderIcon(icon, await readFaviconBody()));
      // Pixels, not bytes: another zlib build may deflate the same image differently.
      expect(image.data.equals(rendered.data), 'the image differs: run `npm run icons`').toBe(true);
    },
  );

  it('covers exactly the icons both manifests and the apple-touch-icon link name', async () => {
    const deskManifest = JSON.parse(await readFile(publicFile('surveydesk.webmanifest'), 'utf8'));
    const indexHtml = await readFile(new URL('../../index.html', import.meta.url), 'utf8');
    const appleTouchIcon = /<link rel="apple-touch-icon" href="([^"]+)"/.exec(indexHtml)?.[1];
    const named = [...publicManifest.icons, ...deskManifest.icons].map(
      (entry: { src: string; sizes: string; purpose: string }) =>
        `${entry.src} ${entry.sizes} ${entry.purpose}`,
    );
    named.push(`${appleTouchIcon} 180x180 apple`);
    expect(
      icons.map((icon) => `/icons/${icon.file} ${icon.size}x${icon.size} ${icon.purpose}`).sort(),
    ).toEqual(named.sort());
  });

  // A launcher may cut a maskable icon down to a circle of 40 % of its size around the centre
  // (the W3C safe zone), and iOS shows transparency as black: the mark stays inside that circle,
  // on an opaque background that fills the rest.
  it.each(icons.filter((icon) => icon.purpose !== 'any').map((icon) => [icon.file, icon] as const))(
    '%s keeps its mark inside the safe zone on an opaque background',
    async (_, icon) => {
      const image = await committed(icon);
      const background = hexToRgba(icon.background ?? '');
      const centre = icon.size / 2;
      let markPixels = 0;
      const outside: string[] = [];
      const transparent: string[] = [];
      for (let y = 0; y < icon.size; y += 1) {
        for (let x = 0; x < icon.size; x += 1) {
          const value = pixel(image, x, y);
          if (value[3] !== 255) transparent.push(`(${x}, ${y})`);
          if (value.every((channel, i) => channel === background[i])) continue;
          if (Math.hypot(x + 0.5 - centre, y + 0.5 - centre) > 0.4 * icon.size) {
            outside.push(`(${x}, ${y})`);
          } else {
            markPixels += 1;
          }
        }
      }
      expect(transparent.slice(0, 5), 'transparent pixels').toEqual([]);
      expect(outside.slice(0, 5), 'mark outside the safe zone').toEqual([]);
      // ... and is not lost in it either.
      expect(markPixels).toBeGreaterThan(0.1 * icon.size * icon.size);
    },
  );

  it.each(icons.filter((icon) => icon.purpose === 'any').map((icon) => [icon.file, icon] as const))(
    '%s shows its shape on transparency',
    async (_, icon) => {
      const image = await committed(icon);
      const last = icon.size - 1;
      for (const [x, y] of [
        [0, 0],
        [last, 0],
        [0, last],
        [last, last],
      ] as const) {
        expect(pixel(image, x, y)[3], `corner (${x}, ${y})`).toBe(0);
      }
      expect(pixel(image, icon.size / 2, icon.size / 2)[3]).toBe(255);
    },
  );
});
