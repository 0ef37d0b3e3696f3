// A JS reference of the renderer's tonemap (ACES fit, then the sRGB transfer), for pixel expectations.

/** Linear HDR value -> 8-bit sRGB value as the tonemap step writes a non-sRGB target. */
export function tonemapped(linear: number): number {
  const x = Math.max(0, linear);
  const aces = Math.min(1, Math.max(0, (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14)));
  const srgb = aces <= 0.0031308 ? aces * 12.92 : 1.055 * Math.pow(aces, 1 / 2.4) - 0.055;
  return srgb * 255;
}
