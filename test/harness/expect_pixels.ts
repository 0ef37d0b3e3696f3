// Pixel assertions that leave a picture behind when they fail.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { to_rgba8, write_png } from './png.js';
import { pixel_at, type TextureReadback } from './read_texture.js';

/** `<repo>/test/output`: where failure images go (git-ignored). */
export const TEST_OUTPUT_DIR = fileURLToPath(new URL('../output/', import.meta.url));

/** Writes `result` as `test/output/<name>.png` (converted with `to_rgba8`) and returns the path. */
export function write_readback_png(result: TextureReadback, name: string): string {
  const path = join(TEST_OUTPUT_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '_')}.png`);
  write_png(path, result.width, result.height, to_rgba8(result));
  return path;
}

/**
 * Asserts that texel (x, y) matches `expected` channel by channel within `tolerance` (absolute, in the
 * format's units: 0..255 for 8-bit formats, floats for float formats). `expected` may list fewer values than
 * the format has channels (e.g. only RGB). On mismatch writes the image to `test/output/<name>.png` and throws.
 */
export function expect_pixel(
  result: TextureReadback,
  x: number,
  y: number,
  expected: number[],
  tolerance: number,
  name?: string,
): void {
  const actual = pixel_at(result, x, y);
  if (expected.length > actual.length) {
    throw new Error(`expect_pixel: expected has ${expected.length} values but ${result.format} has ${actual.length} channels`);
  }
  const ok = expected.every((e, i) => Math.abs(actual[i]! - e) <= tolerance);
  if (ok) return;
  const image_name = name ?? `expect_pixel_${result.format}_${x}_${y}`;
  const path = write_readback_png(result, image_name);
  throw new Error(
    `pixel (${x}, ${y}) of ${result.width}x${result.height} ${result.format}${name ? ` '${name}'` : ''}: ` +
      `expected [${expected.join(', ')}] +/- ${tolerance}, actual [${actual.join(', ')}]; image written to ${path}`,
  );
}
