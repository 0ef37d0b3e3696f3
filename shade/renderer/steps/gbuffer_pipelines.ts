import { FLAT_PIPELINE_SET, FLAT_VARIANT, MESH_VERTEX_BUFFERS } from "../mesh/draw_runs.js";
import { SURFACE_VERTEX_BUFFERS, SURFACE_VERTEX_BUFFERS_PULLED, UV_VERTEX_BUFFERS_PULLED } from "../mesh/surface_wgsl.js";

/** Formats of the G-buffer targets and depth. Two are integer formats: nothing may blend into them. */
export const GBUFFER_FORMATS = {
    albedo: "rgba8unorm",
    normal: "rgba16float",
    material: "rgba8uint",
    object_id: "r32uint",
    emissive: "rgba16float",
    depth: "depth32float",
} as const satisfies Record<string, GPUTextureFormat>;

/**
 * @internal The G-buffer's sixteen pipeline variants (`material_variant`, and each for a flat-shaded geometry:
 * `FLAT_VARIANT`, normals from screen derivatives); `over_prepass`: depth-compare "equal"
 * against the prepass's depth, which already holds these surfaces, and no depth write (the attachment is
 * read-only); `pulled`: positions and normals from a skin batch's buffers (`layout` then has them at group 2).
 */
export function make_gbuffer_pipelines(device: GPUDevice, module: GPUShaderModule, layout: GPUPipelineLayout, over_prepass: boolean, pulled = false): GPURenderPipeline[] {
    const pipelines: GPURenderPipeline[] = [];
    for (let variant = 0; variant < FLAT_PIPELINE_SET; variant++) {
        const double_sided = (variant & 1) !== 0;
        const masked = (variant & 2) !== 0;
        const surface = (variant & 4) !== 0;
        const flat = (variant & FLAT_VARIANT) !== 0;
        pipelines.push(
            device.createRenderPipeline({
                label: `gbuffer pipeline${double_sided ? " (double-sided)" : ""}${masked ? " (masked)" : ""}${surface ? " (tangents, uv1)" : ""}${flat ? " (flat)" : ""}${over_prepass ? " (over the depth prepass)" : ""}${pulled ? " (skin batch)" : ""}`,
                layout,
                vertex: pulled
                    ? surface
                        ? { module, entryPoint: "vs_surface_pulled", buffers: SURFACE_VERTEX_BUFFERS_PULLED }
                        : { module, entryPoint: "vs_surface_basic_pulled", buffers: UV_VERTEX_BUFFERS_PULLED }
                    : surface
                      ? { module, entryPoint: "vs_surface", buffers: SURFACE_VERTEX_BUFFERS }
                      : { module, entryPoint: "vs_surface_basic", buffers: MESH_VERTEX_BUFFERS },
                fragment: {
                    module,
                    entryPoint: "fs_gbuffer",
                    constants: { MASKED: masked ? 1 : 0, FLAT_NORMALS: flat ? 1 : 0 },
                    targets: [
                        { format: GBUFFER_FORMATS.albedo },
                        { format: GBUFFER_FORMATS.normal },
                        { format: GBUFFER_FORMATS.material },
                        { format: GBUFFER_FORMATS.object_id },
                        { format: GBUFFER_FORMATS.emissive },
                    ],
                },
                primitive: { topology: "triangle-list", cullMode: double_sided ? "none" : "back", frontFace: "ccw" },
                depthStencil: over_prepass
                    ? { format: GBUFFER_FORMATS.depth, depthWriteEnabled: false, depthCompare: "equal" }
                    : { format: GBUFFER_FORMATS.depth, depthWriteEnabled: true, depthCompare: "less" },
            }),
        );
    }
    return pipelines;
}
