import { MeshPassExtension } from "./MeshPassExtension.js";
import { OUTLINE_WGSL } from "./mesh_pass_wgsl.js";
import type { PipelineCache } from "../pipeline/PipelineCache.js";

export interface OutlinePassOptions {
    /** Default "outline". */
    readonly name?: string;
    /** Linear RGBA of the ink. Default black. */
    readonly color?: ArrayLike<number>;
    /** How far the shell is pushed out along the normals, world units. Default 0.05. */
    readonly width?: number;
    readonly pipelines?: PipelineCache;
}

/**
 * An ink outline around the meshes that join it (pixi3d's `OutlinePass`): a shell pushed out along the normals,
 * front faces culled, in one flat colour. `values.data` holds the colour (0..3) and the width (4); change them
 * at any time.
 */
export function make_outline_pass(options: OutlinePassOptions = {}): MeshPassExtension {
    const pass = new MeshPassExtension({ name: options.name ?? "outline", shader: OUTLINE_WGSL, cull: "front", blend: "replace", pipelines: options.pipelines });
    const v = pass.values.data;
    const c = options.color ?? [0, 0, 0, 1];
    for (let i = 0; i < 4; i++) v[i] = c[i] ?? 1;
    v[4] = options.width ?? 0.05;
    return pass;
}
