import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SURFACE_PULLED_WGSL, SURFACE_VERTEX_BUFFERS, SURFACE_VERTEX_BUFFERS_PULLED, SURFACE_WGSL, UV_VERTEX_BUFFERS_PULLED } from "../mesh/surface_wgsl.js";
import { skinned_vertices_layout } from "../mesh/skinned_vertices.js";
import { draw_runs, GBUFFER_FORMATS, MESH_VERTEX_BUFFERS, type GBufferStep } from "../steps/GBufferStep.js";
import { PrepassDepth } from "./PrepassDepth.js";

const DEPTH_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

// Opaque meshes: positions alone, no fragment stage. Masked ones: the G-buffer's own vertex stages and
// `material_surface` (only its coverage test survives; the rest is dead code), so that the prepass keeps exactly
// the fragments the G-buffer keeps. Every clip position is `@invariant` and computed as the G-buffer computes it:
// the depths match bit for bit, and the G-buffer's "equal" test passes on exactly the surfaces drawn here.
const PREPASS_WGSL = /* wgsl */ `
${SURFACE_WGSL}
${SURFACE_PULLED_WGSL}

struct DepthVarying {
    @builtin(position) @invariant clip: vec4f,
};

@vertex
fn vs_depth(@location(0) position: vec3f, @builtin(instance_index) instance: u32) -> DepthVarying {
    let o = objects[visible[instance]];
    let world = o.model * vec4f(position, 1.0);
    var out: DepthVarying;
    out.clip = camera.view_projection * world;
    return out;
}

@vertex
fn vs_depth_pulled(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> DepthVarying {
    let o = objects[visible[instance]];
    let world = o.model * vec4f(skinned_position(skin_base(o.normal_0), vertex), 1.0);
    var out: DepthVarying;
    out.clip = camera.view_projection * world;
    return out;
}

@fragment
fn fs_depth_masked(in: SurfaceVarying, @builtin(front_facing) front: bool) {
    _ = material_surface(in, front, true);
}
`;

interface DeviceState {
    /** By `material_variant`, as the G-buffer's (cull mode, masked, vertex buffers); opaque variants share. */
    readonly pipelines: readonly GPURenderPipeline[];
    /** The same pulling a skin batch's vertices; made when first drawn. */
    pulled: readonly GPURenderPipeline[] | null;
    readonly module: GPUShaderModule;
    readonly pulled_layout: GPUPipelineLayout;
}

/**
 * Makes `PrepassDepth`: records pass "depth prepass" (after the G-buffer's culling pass, which it places first),
 * which draws the G-buffer's opaque runs depth-only into the frame's depth; the G-buffer loads that depth and
 * tests "equal" against it (`GBufferStep.use_prepass_depth`). The draw list itself is built when the G-buffer
 * records, after FrameStart's extensions: what they change in the scene is in this frame's prepass too.
 */
export class PrepassDepthStep {
    #gbuffer: GBufferStep | null = null;
    #depth: FrameGraphHandle = -1;
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    readonly #descriptor: GPURenderPassDescriptor = { label: "depth prepass", colorAttachments: [] };

    /** At FrameStart, before its extensions record (and after skinning, whose positions it draws). */
    record(frame: FrameContext, gbuffer: GBufferStep): void {
        const w = frame.resolution[0];
        const h = frame.resolution[1];
        this.#gbuffer = gbuffer;
        // the culling pass ahead of this one (it writes the indirect draws both read); the list it culls is built
        // later, when the G-buffer records, and both execute after that
        gbuffer.add_cull(frame);
        const pass = frame.graph.add("depth prepass", this, execute_prepass);
        this.#depth = pass.write(pass.create("depth", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.depth, DEPTH_USAGE)));
        gbuffer.use_prepass_depth(frame, this.#depth);
        frame.create(PrepassDepth).provide(this.#depth);
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const gbuffer = this.#gbuffer!;
        const gbuffer_state = gbuffer.device_state(device);
        // the visibility pass uploaded the objects this frame: this is their bind group
        const group = gbuffer.scene_group(device, gbuffer_state);
        const state = this.#state_for(device, gbuffer_state.scene_layout, gbuffer_state.materials.layout);
        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#depth, 1);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        const list = gbuffer.draw_list;
        if (list.opaque_run_count > 0) {
            pass.setBindGroup(0, group);
            draw_runs(pass, gbuffer_state, list.opaque_runs, list.opaque_run_count, "surface", state.pipelines, "all", 0, gbuffer.indirect(device), list.batch_run_count > 0 ? (state.pulled ??= make_pipelines(device, state.module, state.pulled_layout, true)) : null);
        }
        pass.end();
    }

    #state_for(device: GPUDevice, scene_layout: GPUBindGroupLayout, material_layout: GPUBindGroupLayout): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_state(device, scene_layout, material_layout);
            this.#per_device.set(device, state);
        }
        return state;
    }
}

function execute_prepass(step: PrepassDepthStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}

function build_state(device: GPUDevice, scene_layout: GPUBindGroupLayout, material_layout: GPUBindGroupLayout): DeviceState {
    const module = device.createShaderModule({ label: "depth prepass shader", code: PREPASS_WGSL });
    const layout = device.createPipelineLayout({ label: "depth prepass pipeline layout", bindGroupLayouts: [scene_layout, material_layout] });
    const pulled_layout = device.createPipelineLayout({
        label: "depth prepass pipeline layout (skin batch vertices)",
        bindGroupLayouts: [scene_layout, material_layout, skinned_vertices_layout(device)],
    });
    return { pipelines: make_pipelines(device, module, layout, false), pulled: null, module, pulled_layout };
}

// by material_variant; `pulled`: positions (and the masked variants' normals) from a skin batch's buffers
function make_pipelines(device: GPUDevice, module: GPUShaderModule, layout: GPUPipelineLayout, pulled: boolean): GPURenderPipeline[] {
    const depthStencil: GPUDepthStencilState = { format: GBUFFER_FORMATS.depth, depthWriteEnabled: true, depthCompare: "less" };
    const batch = pulled ? " (skin batch)" : "";
    // opaque: positions only (draw_runs binds the other buffers too; the pipeline ignores them)
    const opaque = [false, true].map((double_sided) =>
        device.createRenderPipeline({
            label: `depth prepass pipeline${double_sided ? " (double-sided)" : ""}${batch}`,
            layout,
            vertex: pulled ? { module, entryPoint: "vs_depth_pulled" } : { module, entryPoint: "vs_depth", buffers: MESH_VERTEX_BUFFERS.slice(0, 1) },
            primitive: { topology: "triangle-list", cullMode: double_sided ? "none" : "back", frontFace: "ccw" },
            depthStencil,
        }),
    );
    const pipelines: GPURenderPipeline[] = [];
    for (let variant = 0; variant < 8; variant++) {
        const double_sided = (variant & 1) !== 0;
        const masked = (variant & 2) !== 0;
        const surface = (variant & 4) !== 0;
        if (!masked) {
            pipelines.push(opaque[double_sided ? 1 : 0]);
            continue;
        }
        const vertex: GPUVertexState = pulled
            ? surface
                ? { module, entryPoint: "vs_surface_pulled", buffers: SURFACE_VERTEX_BUFFERS_PULLED }
                : { module, entryPoint: "vs_surface_basic_pulled", buffers: UV_VERTEX_BUFFERS_PULLED }
            : surface
              ? { module, entryPoint: "vs_surface", buffers: SURFACE_VERTEX_BUFFERS }
              : { module, entryPoint: "vs_surface_basic", buffers: MESH_VERTEX_BUFFERS };
        pipelines.push(
            device.createRenderPipeline({
                label: `depth prepass pipeline (masked)${double_sided ? " (double-sided)" : ""}${surface ? " (tangents, uv1)" : ""}${batch}`,
                layout,
                vertex,
                fragment: { module, entryPoint: "fs_depth_masked", targets: [] },
                primitive: { topology: "triangle-list", cullMode: double_sided ? "none" : "back", frontFace: "ccw" },
                depthStencil,
            }),
        );
    }
    return pipelines;
}
