import { MeshPassExtension } from "./MeshPassExtension.js";
import { RIM_WGSL } from "./mesh_pass_wgsl.js";
import type { PipelineCache } from "../pipeline/PipelineCache.js";

export interface RimPassOptions {
    /** Default "hover rim". */
    readonly name?: string;
    /** Linear RGB of the glow and its strength (alpha). Default white, 1. */
    readonly color?: ArrayLike<number>;
    /** Fresnel exponent: higher is a thinner rim. Default 2. */
    readonly power?: number;
    readonly pipelines?: PipelineCache;
}

/**
 * A hover rim on the meshes that join it: an additive fresnel glow, brightest where the surface turns away from
 * the camera. `values.data` holds the colour and strength (0..3), the exponent (4) and the clip-depth pull
 * that keeps the second draw in front of the first (5).
 */
export function make_rim_pass(options: RimPassOptions = {}): MeshPassExtension {
    const pass = new MeshPassExtension({ name: options.name ?? "hover rim", shader: RIM_WGSL, cull: "back", blend: "additive", depth_compare: "less-equal", pipelines: options.pipelines });
    const v = pass.values.data;
    const c = options.color ?? [1, 1, 1, 1];
    for (let i = 0; i < 4; i++) v[i] = c[i] ?? 1;
    v[4] = options.power ?? 2;
    v[5] = 1e-5;
    return pass;
}
