import type { Scene } from "../scene/Scene.js";
import { MAX_POINT_LIGHTS } from "../scene/Scene.js";

/** Screen tile edge, in pixels of the internal resolution. */
export const LIGHT_TILE_SIZE = 32;
const HEADER = 4;

/**
 * Point lights binned into screen tiles on the CPU, so the deferred lighting pass shades each pixel with the
 * lights whose range can reach its tile instead of all of them. A light's range sphere is bounded by the
 * screen rectangle of its world-space box's corners (conservative: a corner behind the camera covers the
 * whole screen). Layout of the storage buffer, all u32: `tiles_x, tiles_y, tile_size, index_base`, then
 * `offset, count` per tile, then the light indices from `index_base`.
 */
export class LightTiles {
    #data = new Uint32Array(HEADER + 2 * 64);
    readonly #rects = new Int32Array(MAX_POINT_LIGHTS * 4);
    readonly #gpu = new WeakMap<GPUDevice, GPUBuffer>();
    /** Bumped when a GPU buffer is replaced (bind groups rebuild). */
    generation = 0;
    /** Light indices written last frame (for tests and tools). */
    index_count = 0;

    /** Bins the scene's point lights for a `width` x `height` target seen through `view_projection`. */
    build(scene: Scene, view_projection: Float32Array, width: number, height: number): void {
        const tiles_x = Math.ceil(width / LIGHT_TILE_SIZE);
        const tiles_y = Math.ceil(height / LIGHT_TILE_SIZE);
        const tile_count = tiles_x * tiles_y;
        const light_count = Math.min(scene.point_light_count, MAX_POINT_LIGHTS);
        const rects = this.#rects;
        let total = 0;
        for (let i = 0; i < light_count; i++) {
            const light = scene.point_light(i);
            total += this.#screen_rect(light.position, light.range, view_projection, width, height, i);
        }
        const needed = HEADER + 2 * tile_count + total;
        if (this.#data.length < needed) {
            let size = this.#data.length;
            while (size < needed) size *= 2;
            this.#data = new Uint32Array(size);
        }
        const data = this.#data;
        const index_base = HEADER + 2 * tile_count;
        data[0] = tiles_x;
        data[1] = tiles_y;
        data[2] = LIGHT_TILE_SIZE;
        data[3] = index_base;
        // counts, then offsets by prefix sum, then the indices
        data.fill(0, HEADER, index_base);
        for (let i = 0; i < light_count; i++) {
            for (let y = rects[i * 4 + 1]; y <= rects[i * 4 + 3]; y++) {
                for (let x = rects[i * 4]; x <= rects[i * 4 + 2]; x++) data[HEADER + 2 * (y * tiles_x + x) + 1]++;
            }
        }
        let offset = index_base;
        for (let t = 0; t < tile_count; t++) {
            data[HEADER + 2 * t] = offset;
            offset += data[HEADER + 2 * t + 1];
            data[HEADER + 2 * t + 1] = 0;
        }
        for (let i = 0; i < light_count; i++) {
            for (let y = rects[i * 4 + 1]; y <= rects[i * 4 + 3]; y++) {
                for (let x = rects[i * 4]; x <= rects[i * 4 + 2]; x++) {
                    const t = HEADER + 2 * (y * tiles_x + x);
                    data[data[t] + data[t + 1]++] = i;
                }
            }
        }
        this.index_count = total;
    }

    /** The device's buffer as last uploaded (for passes after the lighting pass in the same frame). */
    buffer(device: GPUDevice): GPUBuffer {
        const buffer = this.#gpu.get(device);
        if (buffer === undefined) throw new Error("LightTiles.buffer: nothing was uploaded on this device yet");
        return buffer;
    }

    /** The device's buffer holding the last `build` (grown as needed). */
    upload(device: GPUDevice): GPUBuffer {
        const used = (HEADER + 2 * this.#data[0] * this.#data[1] + this.index_count) * 4;
        let buffer = this.#gpu.get(device);
        if (buffer === undefined || buffer.size < used) {
            buffer?.destroy();
            let size = buffer === undefined ? 4096 : buffer.size;
            while (size < used) size *= 2;
            buffer = device.createBuffer({ label: "light tiles", size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
            this.#gpu.set(device, buffer);
            this.generation++;
        }
        device.queue.writeBuffer(buffer, 0, this.#data.buffer, 0, used);
        return buffer;
    }

    // writes light i's tile rectangle; returns how many tiles it covers (0 when off screen)
    #screen_rect(
        position: ArrayLike<number>,
        range: number,
        m: Float32Array,
        width: number,
        height: number,
        i: number,
    ): number {
        const tiles_x = Math.ceil(width / LIGHT_TILE_SIZE);
        const tiles_y = Math.ceil(height / LIGHT_TILE_SIZE);
        let min_x = Infinity;
        let min_y = Infinity;
        let max_x = -Infinity;
        let max_y = -Infinity;
        let behind = false;
        for (let c = 0; c < 8; c++) {
            const x = position[0] + (c & 1 ? range : -range);
            const y = position[1] + (c & 2 ? range : -range);
            const z = position[2] + (c & 4 ? range : -range);
            const w = m[3] * x + m[7] * y + m[11] * z + m[15];
            if (w <= 1e-5) {
                behind = true;
                break;
            }
            const nx = (m[0] * x + m[4] * y + m[8] * z + m[12]) / w;
            const ny = (m[1] * x + m[5] * y + m[9] * z + m[13]) / w;
            if (nx < min_x) min_x = nx;
            if (nx > max_x) max_x = nx;
            if (ny < min_y) min_y = ny;
            if (ny > max_y) max_y = ny;
        }
        if (behind) {
            min_x = -1;
            min_y = -1;
            max_x = 1;
            max_y = 1;
        }
        const rects = this.#rects;
        if (max_x < -1 || min_x > 1 || max_y < -1 || min_y > 1) {
            rects[i * 4] = 0;
            rects[i * 4 + 1] = 0;
            rects[i * 4 + 2] = -1; // empty
            rects[i * 4 + 3] = -1;
            return 0;
        }
        // NDC -> pixels (y down), widened by a pixel for the TAA jitter and rounding, -> tiles
        const s = LIGHT_TILE_SIZE;
        const x0 = clamp(Math.floor((((min_x + 1) / 2) * width - 1) / s), 0, tiles_x - 1);
        const x1 = clamp(Math.floor((((max_x + 1) / 2) * width + 1) / s), 0, tiles_x - 1);
        const y0 = clamp(Math.floor((((1 - max_y) / 2) * height - 1) / s), 0, tiles_y - 1);
        const y1 = clamp(Math.floor((((1 - min_y) / 2) * height + 1) / s), 0, tiles_y - 1);
        rects[i * 4] = x0;
        rects[i * 4 + 1] = y0;
        rects[i * 4 + 2] = x1;
        rects[i * 4 + 3] = y1;
        return (x1 - x0 + 1) * (y1 - y0 + 1);
    }
}

function clamp(v: number, lo: number, hi: number): number {
    return v < lo ? lo : v > hi ? hi : v;
}
