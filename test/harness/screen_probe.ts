// Where a world point lands on a square target, and how bright a read-back pixel is: what pixel tests of lit
// scenes ask of their images.
import { pixel_at, type TextureReadback } from './read_texture.js';

/** The pixel of a `size` x `size` target where world point (x, y, z) lands under `view_projection` (column-major). */
export function screen_pixel(view_projection: ArrayLike<number>, size: number, x: number, y: number, z: number): [number, number] {
  const m = view_projection;
  const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
  const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
  const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
  return [Math.floor(((cx / cw) * 0.5 + 0.5) * size), Math.floor((0.5 - (cy / cw) * 0.5) * size)];
}

/** Rec. 709 luminance of an 8-bit read-back pixel. */
export function luminance_at(image: TextureReadback, [x, y]: readonly [number, number]): number {
  const [r, g, b] = pixel_at(image, x, y);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
