/**
 * Bytes per texel block, and the block's width and height, of the formats engines allocate. Depth formats whose
 * layout the implementation chooses ("depth24plus") are counted as 4 bytes, the usual size.
 */
function block(format: string): [bytes: number, width: number, height: number] {
    switch (format) {
        case "r8unorm": case "r8snorm": case "r8uint": case "r8sint": case "stencil8":
            return [1, 1, 1];
        case "r16unorm": case "r16snorm": case "r16uint": case "r16sint": case "r16float":
        case "rg8unorm": case "rg8snorm": case "rg8uint": case "rg8sint": case "depth16unorm":
            return [2, 1, 1];
        case "rg16unorm": case "rg16snorm": case "rg16uint": case "rg16sint": case "rg16float":
        case "r32uint": case "r32sint": case "r32float":
        case "rgba8unorm": case "rgba8unorm-srgb": case "rgba8snorm": case "rgba8uint": case "rgba8sint":
        case "bgra8unorm": case "bgra8unorm-srgb":
        case "rgb9e5ufloat": case "rgb10a2uint": case "rgb10a2unorm": case "rg11b10ufloat":
        case "depth24plus": case "depth24plus-stencil8": case "depth32float":
            return [4, 1, 1];
        case "depth32float-stencil8":
            return [5, 1, 1];
        case "rg32uint": case "rg32sint": case "rg32float":
        case "rgba16unorm": case "rgba16snorm": case "rgba16uint": case "rgba16sint": case "rgba16float":
            return [8, 1, 1];
        case "rgba32uint": case "rgba32sint": case "rgba32float":
            return [16, 1, 1];
    }
    // compressed: bc1/bc4/etc2 rgb8(a1)/eac r11 are 8 bytes per 4x4 block, the rest of bc/etc/eac 16 bytes;
    // astc is 16 bytes per block of the size in its name
    const astc = /^astc-(\d+)x(\d+)-/.exec(format);
    if (astc !== null) return [16, Number(astc[1]), Number(astc[2])];
    if (/^(bc1|bc4|etc2-rgb8|eac-r11)/.test(format)) return [8, 4, 4];
    return [16, 4, 4];
}

/** Bytes of one texture, every mip level, layer and sample included (what the GPU allocates, before padding). */
export function texture_byte_size(
    format: string,
    width: number,
    height: number,
    depth_or_layers = 1,
    mip_levels = 1,
    samples = 1,
    dimension: GPUTextureDimension = "2d",
): number {
    const [bytes, bw, bh] = block(format);
    let total = 0;
    for (let level = 0; level < mip_levels; level++) {
        const w = Math.max(1, width >> level);
        const h = Math.max(1, height >> level);
        // a 3D texture's depth halves with each level too; array layers do not
        const d = dimension === "3d" ? Math.max(1, depth_or_layers >> level) : depth_or_layers;
        total += Math.ceil(w / bw) * Math.ceil(h / bh) * bytes * d;
    }
    return total * samples;
}

/** The size of a `GPUTextureDescriptor`'s texture in bytes (see `texture_byte_size`). */
export function texture_descriptor_byte_size(descriptor: GPUTextureDescriptor): number {
    const size = descriptor.size;
    let width: number;
    let height: number;
    let depth: number;
    if (Symbol.iterator in Object(size)) {
        const list = Array.from(size as Iterable<number>);
        width = list[0] ?? 1;
        height = list[1] ?? 1;
        depth = list[2] ?? 1;
    } else {
        const dict = size as GPUExtent3DDict;
        width = dict.width;
        height = dict.height ?? 1;
        depth = dict.depthOrArrayLayers ?? 1;
    }
    return texture_byte_size(descriptor.format, width, height, depth, descriptor.mipLevelCount ?? 1, descriptor.sampleCount ?? 1, descriptor.dimension ?? "2d");
}
