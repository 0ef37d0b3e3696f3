// The bloom written again on the CPU, one channel, straight from its description (Jimenez 2014): WebGPU's bilinear
// filter with clamp-to-edge, the 13-tap downsample, the 3x3 tent upsample adding each level onto the next larger
// one, and mix(scene, average of the levels, intensity). What the GPU passes are checked against.

/** One channel of an image, rows top to bottom. */
export interface Channel {
    readonly width: number;
    readonly height: number;
    readonly data: Float64Array;
}

export function channel(width: number, height: number, f: (x: number, y: number) => number = () => 0): Channel {
    const data = new Float64Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = f(x, y);
    return { width, height, data };
}

/** WebGPU's mirror-repeat of a texel index. */
function mirror(i: number, n: number): number {
    const m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m >= n ? 2 * n - 1 - m : m;
}

function texel(img: Channel, x: number, y: number): number {
    return img.data[mirror(y, img.height) * img.width + mirror(x, img.width)];
}

/** A bilinear, mirror-repeat sample at `uv` (0,0 the top-left corner). */
export function sample(img: Channel, u: number, v: number): number {
    const x = u * img.width - 0.5;
    const y = v * img.height - 0.5;
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    const top = texel(img, x0, y0) * (1 - fx) + texel(img, x0 + 1, y0) * fx;
    const bottom = texel(img, x0, y0 + 1) * (1 - fx) + texel(img, x0 + 1, y0 + 1) * fx;
    return top * (1 - fy) + bottom * fy;
}

const DOWNSAMPLE_TAPS: readonly (readonly [number, number, number])[] = [
    [0, 0, 0.125],
    [-2, -2, 0.03125], [2, -2, 0.03125], [-2, 2, 0.03125], [2, 2, 0.03125],
    [0, -2, 0.0625], [-2, 0, 0.0625], [2, 0, 0.0625], [0, 2, 0.0625],
    [-1, -1, 0.125], [1, -1, 0.125], [-1, 1, 0.125], [1, 1, 0.125],
];

function downsample(src: Channel, width: number, height: number): Channel {
    const tx = 1 / src.width;
    const ty = 1 / src.height;
    return channel(width, height, (x, y) => {
        const u = (x + 0.5) / width;
        const v = (y + 0.5) / height;
        let sum = 0;
        for (const [dx, dy, w] of DOWNSAMPLE_TAPS) sum += w * sample(src, u + dx * tx, v + dy * ty);
        return sum;
    });
}

function tent(src: Channel, u: number, v: number, radius: number): number {
    const tx = radius / src.width;
    const ty = radius / src.height;
    let sum = 0;
    for (let j = -1; j <= 1; j++) for (let i = -1; i <= 1; i++) sum += (2 - Math.abs(i)) * (2 - Math.abs(j)) * sample(src, u + i * tx, v + j * ty);
    return sum / 16;
}

/** The scene after the bloom. */
export function bloom_reference(scene: Channel, levels: number, radius: number, intensity: number): Channel {
    const chain: Channel[] = [];
    let above = scene;
    for (let k = 1; k <= levels; k++) {
        above = downsample(above, Math.max(1, scene.width >> k), Math.max(1, scene.height >> k));
        chain.push(above);
    }
    let sum = chain[levels - 1];
    for (let k = levels - 2; k >= 0; k--) {
        const level = chain[k];
        const smaller = sum;
        sum = channel(level.width, level.height, (x, y) => level.data[y * level.width + x] + tent(smaller, (x + 0.5) / level.width, (y + 0.5) / level.height, radius));
    }
    const total = sum;
    return channel(scene.width, scene.height, (x, y) => {
        const glow = tent(total, (x + 0.5) / scene.width, (y + 0.5) / scene.height, radius) / levels;
        const s = scene.data[y * scene.width + x];
        return s * (1 - intensity) + glow * intensity;
    });
}
