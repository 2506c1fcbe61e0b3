// npm run icons — draws the app icons into public/icons/. The mark is the one of
// public/favicon.svg (umbrella on a shield), redrawn here as polygons so the PNGs come from code
// in the repository and every run gives the same bytes (tests/icons.test.ts checks that).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePng } from './png.ts';

type Point = readonly [number, number];
type Polygon = readonly Point[];

/** Shapes of one colour; each polygon is filled on its own, so overlaps simply merge. */
interface Layer {
  color: string;
  polygons: readonly Polygon[];
}

export interface IconSpec {
  file: string;
  size: number;
  /** Layers from bottom to top, in canvas units: (0, 0) top left, (1, 1) bottom right. */
  layers: () => Layer[];
}

const colors = {
  brand50: '#f0f5fa',
  brand800: '#1e3a5f',
  accent: '#d98a1c',
  light: '#f5f7fa',
  white: '#ffffff',
};

// 4x4 samples per pixel: smooth edges without noticeable cost at 512 px.
const SUPERSAMPLING = 4;

// ---------------------------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------------------------

function cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps = 48): Point[] {
  const points: Point[] = [];
  for (let i = 1; i <= steps; i += 1) {
    const t = i / steps;
    const u = 1 - t;
    const a = u * u * u;
    const b = 3 * u * u * t;
    const c = 3 * u * t * t;
    const d = t * t * t;
    points.push([
      a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
      a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
    ]);
  }
  return points;
}

/** Points on a circular arc; angles in radians, clockwise on screen (y points down). */
function arc(cx: number, cy: number, r: number, from: number, to: number, steps = 48): Point[] {
  const points: Point[] = [];
  for (let i = 0; i <= steps; i += 1) {
    const angle = from + ((to - from) * i) / steps;
    points.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)]);
  }
  return points;
}

function circle(cx: number, cy: number, r: number): Polygon {
  return arc(cx, cy, r, 0, 2 * Math.PI, 96).slice(1);
}

function rect(x: number, y: number, w: number, h: number): Polygon {
  return [
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ];
}

function roundedRect(x: number, y: number, w: number, h: number, r: number): Polygon {
  const q = Math.PI / 2;
  return [
    ...arc(x + w - r, y + r, r, -q, 0, 16),
    ...arc(x + w - r, y + h - r, r, 0, q, 16),
    ...arc(x + r, y + h - r, r, q, 2 * q, 16),
    ...arc(x + r, y + r, r, 2 * q, 3 * q, 16),
  ];
}

/** Grows a convex polygon by `distance` (mitred corners): the outline around the shield. */
function grow(polygon: Polygon, distance: number): Polygon {
  let area = 0;
  polygon.forEach(([x0, y0], i) => {
    const [x1, y1] = polygon[(i + 1) % polygon.length] ?? [x0, y0];
    area += x0 * y1 - x1 * y0;
  });
  const outward = area > 0 ? -1 : 1;
  const normal = (a: Point, b: Point): Point => {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const length = Math.hypot(dx, dy) || 1;
    return [(outward * -dy) / length, (outward * dx) / length];
  };
  return polygon.map((point, i) => {
    const before = polygon[(i - 1 + polygon.length) % polygon.length] ?? point;
    const after = polygon[(i + 1) % polygon.length] ?? point;
    const n1 = normal(before, point);
    const n2 = normal(point, after);
    const bisector: Point = [n1[0] + n2[0], n1[1] + n2[1]];
    const scale = (2 * distance) / (bisector[0] * bisector[0] + bisector[1] * bisector[1] || 1);
    return [point[0] + bisector[0] * scale, point[1] + bisector[1] * scale];
  });
}

function place(polygons: readonly Polygon[], scale: number, dx: number, dy: number): Polygon[] {
  return polygons.map((polygon) =>
    polygon.map(([x, y]): Point => [x * scale + dx, y * scale + dy]),
  );
}

// ---------------------------------------------------------------------------------------------
// The mark, in the 64-unit coordinates of public/favicon.svg
// ---------------------------------------------------------------------------------------------

// M32 4 8 13v17c0 15.5 10.2 26.3 24 30 13.8-3.7 24-14.5 24-30V13L32 4Z, without repeated ends.
const shieldOutline: Polygon = [
  [32, 4],
  [8, 13],
  [8, 30],
  ...cubic([8, 30], [8, 45.5], [18.2, 56.3], [32, 60]),
  ...cubic([32, 60], [45.8, 56.3], [56, 45.5], [56, 30]).slice(0, -1),
  [56, 30],
  [56, 13],
];

// The favicon's canopy (M16 32c0-9 7.2-15 16-15s16 6 16 15Z) with a scalloped hem, which the
// favicon leaves out because it would not show at 16 px.
const canopy: Polygon = [
  [16, 32],
  ...cubic([16, 32], [16, 23], [23.2, 17], [32, 17]),
  ...cubic([32, 17], [40.8, 17], [48, 23], [48, 32]),
  ...[0, 1, 2].flatMap((i) => {
    const right = 48 - (32 / 3) * i;
    const r = 32 / 6;
    // A shallow arc between two hem points, bulging up into the canopy.
    const sag = r * 0.75;
    const cx = right - r;
    const cy = 32 + sag;
    const radius = Math.hypot(r, sag);
    const half = Math.atan2(sag, r);
    return arc(cx, cy, radius, -half, -Math.PI + half, 16).slice(1);
  }),
];

// The handle: the favicon's stroke M32 32v11a3.5 3.5 0 0 1-7 0 (width 3, round caps) and a tip.
const handle: Polygon[] = [
  rect(30.5, 29, 3, 14),
  [...arc(28.5, 43, 5, 0, Math.PI), ...arc(28.5, 43, 2, Math.PI, 0)],
  circle(25, 43, 1.5),
  roundedRect(31, 13.5, 2, 5, 1),
];

interface MarkOptions {
  /** Canvas units per favicon unit. */
  scale: number;
  /** Where the favicon's centre (32, 32) goes. */
  cx: number;
  cy: number;
  /** A ring in this colour keeps the dark shield visible on dark desktops and taskbars. */
  outline?: { color: string; width: number };
}

function mark({ scale, cx, cy, outline }: MarkOptions): Layer[] {
  const at = (polygons: readonly Polygon[]) =>
    place(polygons, scale, cx - 32 * scale, cy - 32 * scale);
  const layers: Layer[] = [];
  if (outline) {
    layers.push({ color: outline.color, polygons: at([grow(shieldOutline, outline.width)]) });
  }
  layers.push(
    { color: colors.brand800, polygons: at([shieldOutline]) },
    { color: colors.light, polygons: at([canopy, ...handle]) },
  );
  return layers;
}

/** A clipboard in 24x30 units, placed with its top left corner at (x, y). */
function clipboard(scale: number, x: number, y: number, gapColor: string): Layer[] {
  const at = (polygons: readonly Polygon[]) => place(polygons, scale, x, y);
  return [
    { color: gapColor, polygons: at([roundedRect(-2.5, 0.5, 29, 32, 5)]) },
    { color: colors.white, polygons: at([roundedRect(0, 3, 24, 27, 3)]) },
    {
      color: colors.brand800,
      polygons: at([
        roundedRect(6.5, 0, 11, 6.5, 2),
        roundedRect(5, 12, 14, 2.6, 1.3),
        roundedRect(5, 17.5, 14, 2.6, 1.3),
        roundedRect(5, 23, 9, 2.6, 1.3),
      ]),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// The icons
// ---------------------------------------------------------------------------------------------

const fullCanvas: Polygon = rect(0, 0, 1, 1);

// The public app: the bare shield, so it stays a shield whatever the desktop puts around it.
const appLayers = (): Layer[] =>
  mark({ scale: 0.88 / 60, cx: 0.5, cy: 0.5, outline: { color: colors.white, width: 1.5 } });

// Maskable: launchers crop to a circle or squircle; the mark stays in the central 80 %.
const appMaskableLayers = (): Layer[] => [
  { color: colors.brand50, polygons: [fullCanvas] },
  ...mark({ scale: 0.68 / 56, cx: 0.5, cy: 0.5 }),
];

// iOS rounds the corners itself and shows transparency as black.
const appleTouchLayers = (): Layer[] => [
  { color: colors.brand50, polygons: [fullCanvas] },
  ...mark({ scale: 0.74 / 56, cx: 0.5, cy: 0.5 }),
];

// Survey Desk: an orange tile with a clipboard on the shield, so the staff app is not mistaken
// for the public one next to it.
function deskMark(scale: number, cx: number, cy: number): Layer[] {
  return [
    ...mark({ scale, cx: cx - 5 * scale, cy }),
    ...clipboard(scale * 0.95, cx + 8 * scale, cy + 5 * scale, colors.accent),
  ];
}

const deskLayers = (): Layer[] => [
  { color: colors.accent, polygons: [roundedRect(0.02, 0.02, 0.96, 0.96, 0.2)] },
  ...deskMark(0.7 / 64, 0.5, 0.47),
];

const deskMaskableLayers = (): Layer[] => [
  { color: colors.accent, polygons: [fullCanvas] },
  ...deskMark(0.56 / 64, 0.5, 0.48),
];

export const icons: readonly IconSpec[] = [
  { file: 'app-192.png', size: 192, layers: appLayers },
  { file: 'app-512.png', size: 512, layers: appLayers },
  { file: 'app-maskable-512.png', size: 512, layers: appMaskableLayers },
  { file: 'apple-touch-icon.png', size: 180, layers: appleTouchLayers },
  { file: 'desk-192.png', size: 192, layers: deskLayers },
  { file: 'desk-512.png', size: 512, layers: deskLayers },
  { file: 'desk-maskable-512.png', size: 512, layers: deskMaskableLayers },
];

// ---------------------------------------------------------------------------------------------
// Rasterising
// ---------------------------------------------------------------------------------------------

/** Marks with `id` every sample whose centre lies inside the polygon (even-odd rule). */
function fillPolygon(samples: Uint8Array, n: number, polygon: Polygon, id: number): void {
  const points = polygon.map(([x, y]): Point => [x * n, y * n]);
  const ys = points.map((p) => p[1]);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(n, Math.ceil(Math.max(...ys)));
  for (let row = top; row < bottom; row += 1) {
    const y = row + 0.5;
    const crossings: number[] = [];
    points.forEach(([x0, y0], i) => {
      const [x1, y1] = points[(i + 1) % points.length] ?? [x0, y0];
      if (y0 <= y !== y1 <= y) crossings.push(x0 + ((y - y0) * (x1 - x0)) / (y1 - y0));
    });
    crossings.sort((a, b) => a - b);
    for (let i = 0; i + 1 < crossings.length; i += 2) {
      const from = Math.max(0, Math.ceil((crossings[i] ?? 0) - 0.5));
      const to = Math.min(n, Math.ceil((crossings[i + 1] ?? 0) - 0.5));
      samples.fill(id, row * n + from, row * n + Math.max(from, to));
    }
  }
}

function parseColor(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** Straight RGBA pixels of the icon: each pixel is the average of its samples' top colours. */
export function renderPixels(icon: IconSpec): Uint8Array {
  const layers = icon.layers();
  const n = icon.size * SUPERSAMPLING;
  // 0 is "nothing painted", layer i is id i + 1.
  const samples = new Uint8Array(n * n);
  layers.forEach((layer, index) => {
    for (const polygon of layer.polygons) fillPolygon(samples, n, polygon, index + 1);
  });
  const palette = layers.map((layer) => parseColor(layer.color));
  const pixels = new Uint8Array(icon.size * icon.size * 4);
  const perPixel = SUPERSAMPLING * SUPERSAMPLING;
  for (let py = 0; py < icon.size; py += 1) {
    for (let px = 0; px < icon.size; px += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < SUPERSAMPLING; sy += 1) {
        const row = (py * SUPERSAMPLING + sy) * n + px * SUPERSAMPLING;
        for (let sx = 0; sx < SUPERSAMPLING; sx += 1) {
          const color = palette[(samples[row + sx] ?? 0) - 1];
          if (!color) continue;
          r += color[0];
          g += color[1];
          b += color[2];
          covered += 1;
        }
      }
      if (covered === 0) continue;
      const offset = (py * icon.size + px) * 4;
      pixels[offset] = Math.round(r / covered);
      pixels[offset + 1] = Math.round(g / covered);
      pixels[offset + 2] = Math.round(b / covered);
      pixels[offset + 3] = Math.round((covered * 255) / perPixel);
    }
  }
  return pixels;
}

export function renderIcon(icon: IconSpec): Buffer {
  return encodePng(icon.size, icon.size, renderPixels(icon));
}

const iconsDir = fileURLToPath(new URL('../public/icons/', import.meta.url));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await mkdir(iconsDir, { recursive: true });
  for (const icon of icons) {
    const png = renderIcon(icon);
    await writeFile(path.join(iconsDir, icon.file), png);
    console.log(`geschrieben: public/icons/${icon.file} (${png.length} Bytes)`);
  }
}
