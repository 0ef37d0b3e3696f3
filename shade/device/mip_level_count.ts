/** Mip levels a full chain of a `width` x `height` texture has (1 for 1x1). */
export function mip_level_count(width: number, height: number): number {
    return 32 - Math.clz32(Math.max(width, height, 1));
}

