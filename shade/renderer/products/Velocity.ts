import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "../extension/FramePhase.js";
import { FrameProduct } from "./FrameProduct.js";

/**
 * Format of the velocity target: motion in xy, zw 0 (rgba16float, not rg16float: compute writes the still world
 * into it, and rg16float is no storage format in core WebGPU).
 */
export const VELOCITY_FORMAT: GPUTextureFormat = "rgba16float";

/**
 * Screen-space motion per pixel at the internal resolution (motion blur, TAA, temporal denoisers): this
 * frame's uv minus last frame's uv of the surface seen there (x right, y down, 1 = the whole width or height),
 * with the TAA jitter taken out of both, so a still pixel reads 0. Meshes move by their world matrix and the
 * camera; everything else under the depth (the sky, surfaces extensions drew into the G-buffer) moves with the
 * camera alone, as a still world; a mesh first drawn this frame has no motion of its own. Carried from
 * AfterGBuffer to BeforePresent, only in frames where some registered extension of those phases declares
 * `requires = [Velocity]`, or where the built-in TAA asks for it (meshes moved). Made after the AfterGBuffer
 * extensions unless one of them declares it (then before them: their own surfaces are not in it).
 */
export class Velocity extends FrameProduct {
    #velocity: FrameGraphHandle = -1;

    static override is_present_at(phase: FramePhase): boolean {
        return phase >= FramePhase.AfterGBuffer && phase <= FramePhase.BeforePresent;
    }

    /** The motion target (`VELOCITY_FORMAT`: xy the motion). */
    get velocity(): FrameGraphHandle {
        return this.read(this.#velocity, "velocity");
    }

    /** @internal the renderer fills it in */
    provide(handle: FrameGraphHandle): void {
        this.#velocity = handle;
    }

    override reset_for_reuse(): boolean {
        this.#velocity = -1;
        return true;
    }
}
