import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { icons, renderPixels } from '../scripts/make-icons.ts';
import { crc32, encodePng } from '../scripts/png.ts';

function ihdrSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** RGBA pixels of an 8-bit RGBA, non-interlaced PNG (all this project's encoder writes). */
function decodePixels(png: Buffer): Uint8Array {
  const { width, height } = ihdrSize(png);
  const idat: Buffer[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    if (png.subarray(offset + 4, offset + 8).toString('latin1') === 'IDAT') {
      idat.push(png.subarray(offset + 8, offset + 8 + length));
    }
    offset += 12 + length;
  }
  const filtered = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y += 1) {
    const filter = filtered[y * (stride + 1)];
    for (let i = 0; i < stride; i += 1) {
      const x = filtered[y * (stride + 1) + 1 + i] ?? 0;
      const a = i >= 4 ? (pixels[y * stride + i - 4] ?? 0) : 0;
      const b = y > 0 ? (pixels[(y - 1) * stride + i] ?? 0) : 0;
      const c = y > 0 && i >= 4 ? (pixels[(y - 1) * stride + i - 4] ?? 0) : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter ?? 0] ?? 0;
      pixels[y * stride + i] = (x + predicted) & 0xff;
    }
  }
  return pixels;
}

describe('PNG encoder', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('writes pixels that decode back unchanged', () => {
    const rgba = Uint8Array.from({ length: 3 * 2 * 4 }, (_, i) => (i * 37) & 0xff);
    const png = encodePng(3, 2, rgba);
    expect(ihdrSize(png)).toEqual({ width: 3, height: 2 });
    expect(decodePixels(png)).toEqual(rgba);
  });

  it('rejects pixel data of the wrong length', () => {
    expect(() => encodePng(2, 2, new Uint8Array(15))).toThrow();
  });
});

// The committed icons are exactly what scripts/make-icons.ts draws, so a changed drawing shows up
// as a failing test until `npm run icons` has been run.
describe('app icons', () => {
  it.each(icons.map((icon) => [icon.file, icon] as const))(
    'public/icons/%s is the script output at its size',
    async (file, icon) => {
      const committed = await readFile(new URL(`../public/icons/${file}`, import.meta.url));
      expect(ihdrSize(committed)).toEqual({ width: icon.size, height: icon.size });
      // Pixels, not bytes: another zlib build may deflate the same drawing differently.
      expect(
        Buffer.from(decodePixels(committed)).equals(Buffer.from(renderPixels(icon))),
        'the drawing differs: run `npm run icons`',
      ).toBe(true);
    },
  );

  it('covers every size the manifests and the apple-touch-icon need', () => {
    expect(icons.map((icon) => `${icon.file} ${icon.size}`).sort()).toEqual([
      'app-192.png 192',
      'app-512.png 512',
      'app-maskable-512.png 512',
      'apple-touch-icon.png 180',
      'desk-192.png 192',
      'desk-512.png 512',
      'desk-maskable-512.png 512',
    ]);
  });
});
