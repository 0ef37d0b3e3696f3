/** Most levels a bloom chain has. */
export const MAX_BLOOM_LEVELS = 12;

/**
 * The levels a bloom chain of `levels` has for a `width` x `height` image: `levels`, clamped so that the smallest
 * level is at least one texel on its shorter side (level k is `max(1, width >> k)` x `max(1, height >> k)`), and
 * never fewer than 1.
 */
export function bloom_level_count(width: number, height: number, levels: number): number {
    let fit = 0;
    let side = Math.min(width, height) >> 1;
    while (side >= 1 && fit < MAX_BLOOM_LEVELS) {
        fit++;
        side >>= 1;
    }
    return Math.max(1, Math.min(levels, fit));
}
