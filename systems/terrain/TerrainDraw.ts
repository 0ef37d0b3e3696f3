import type { TerrainGrid } from "./TerrainGrid.js";
import { TERRAIN_UNIFORM_BYTES } from "./terrain.wgsl.js";

/** One terrain's GPU copy on one device. */
export interface TerrainGPU {
    readonly device: GPUDevice;
    readonly generation: number;
    readonly vertices: GPUBuffer;
    readonly indices: GPUBuffer;
    readonly uniform: GPUBuffer;
    readonly index_count: number;
    /** Bind group of (camera, uniform), rebuilt when the camera buffer changes. */
    group: GPUBindGroup | null;
    group_camera: GPUBuffer | null;
}

/**
 * A terrain as the extension draws it: its grid, its uniform block, and the GPU copy (a cache of the CPU
 * truth, rebuilt on a new device or when `generation` moves on).
 */
export class TerrainDraw {
    readonly eid: number;
    grid: TerrainGrid;
    /** Bumped when the grid or the uniform block changes. */
    generation = 0;
    readonly uniform = new ArrayBuffer(TERRAIN_UNIFORM_BYTES);
    readonly uniform_f32 = new Float32Array(this.uniform);
    readonly uniform_u32 = new Uint32Array(this.uniform);
    gpu: TerrainGPU | null = null;

    constructor(eid: number, grid: TerrainGrid) {
        this.eid = eid;
        this.grid = grid;
    }

    /** Destroys the GPU copy (the next draw builds it again). */
    release(): void {
        const gpu = this.gpu;
        this.gpu = null;
        if (gpu === null) return;
        gpu.vertices.destroy();
        gpu.indices.destroy();
        gpu.uniform.destroy();
    }
}
