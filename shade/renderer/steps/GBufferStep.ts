import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { GBufferTextures } from "../extension/GBufferTextures.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import { GPUGeometryCache, type GPUGeometry } from "../mesh/GPUGeometryCache.js";
import { MaterialBindings } from "../mesh/MaterialBindings.js";
import { MeshDrawList } from "../mesh/MeshDrawList.js";
import { draw_runs, make_scene_layout } from "../mesh/draw_runs.js";
import { FrustumCulling } from "../mesh/FrustumCulling.js";
import { SURFACE_PULLED_WGSL, SURFACE_WGSL } from "../mesh/surface_wgsl.js";
import { skinned_vertices_layout } from "../mesh/skinned_vertices.js";
import { material_variant } from "../mesh/material_variant.js";
import { ObjectBuffer } from "../mesh/ObjectBuffer.js";
import type { Scene } from "../scene/Scene.js";
import { RunBundle } from "./RunBundle.js";
import { GBUFFER_FORMATS, make_gbuffer_pipelines } from "./gbuffer_pipelines.js";

export { GBUFFER_FORMATS };

const TARGET_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

const GBUFFER_WGSL = /* wgsl */ `
${SURFACE_WGSL}
${SURFACE_PULLED_WGSL}
// pipelines for masked materials set it: the discard (and the early depth test it costs) only where needed
override MASKED: bool = false;

struct GBufferOut {
    @location(0) albedo: vec4f,
    @location(1) normal: vec4f,
    @location(2) material: vec4u,
    @location(3) object_id: u32,
    @location(4) emissive: vec4f,
};

@fragment
fn fs_gbuffer(in: SurfaceVarying, @builtin(front_facing) front: bool) -> GBufferOut {
    let o = objects[in.object];
    let s = material_surface(in, front, MASKED);
    var out: GBufferOut;
    out.albedo = vec4f(s.albedo, 1.0);
    out.normal = vec4f(s.normal, s.roughness);
    out.material = vec4u(u32(clamp(s.metalness, 0.0, 1.0) * 255.0 + 0.5), o.ids.z & 255u, o.ids.y & 255u, 0u);
    out.object_id = o.ids.x;
    out.emissive = vec4f(s.emissive, s.occlusion);
    return out;
}
`;

interface DeviceState {
    /** By `material_variant`: single- and double-sided, opaque and masked, three or five vertex buffers. */
    readonly pipelines: readonly GPURenderPipeline[];
    /** The same over a depth prepass (depth-compare "equal", no depth write); made the first time one is drawn. */
    equal_pipelines: readonly GPURenderPipeline[] | null;
    /** The same variants pulling a skin batch's vertices (`draw_runs`' `pulled`), plain and over a prepass; made when first drawn. */
    pulled_pipelines: readonly GPURenderPipeline[] | null;
    equal_pulled_pipelines: readonly GPURenderPipeline[] | null;
    readonly module: GPUShaderModule;
    readonly layout: GPUPipelineLayout;
    /** Scene, material and the skin batch's vertices (`SKINNED_VERTICES_GROUP`): what every pass's pulling pipelines bind. */
    readonly pulled_layout: GPUPipelineLayout;
    readonly scene_layout: GPUBindGroupLayout;
    readonly geometries: GPUGeometryCache;
    readonly materials: MaterialBindings;
    scene_group: GPUBindGroup | null;
    scene_group_camera: GPUBuffer | null;
    scene_group_generation: number;
    scene_group_visible: number;
    /** This frame's object buffer (set by `scene_group`). */
    objects: GPUBuffer | null;
    /** The visibility pass's descriptor (its timestamp writes set per frame). */
    readonly cull_descriptor: GPUComputePassDescriptor;
    /** The opaque static runs' draws, recorded once and replayed while its key holds (`GBufferStep.bundles`). */
    readonly bundle: RunBundle;
}

const GBUFFER_COLOR_FORMATS: GPUTextureFormat[] = [
    GBUFFER_FORMATS.albedo,
    GBUFFER_FORMATS.normal,
    GBUFFER_FORMATS.material,
    GBUFFER_FORMATS.object_id,
    GBUFFER_FORMATS.emissive,
];
const BUNDLE_ENCODER: GPURenderBundleEncoderDescriptor = {
    label: "gbuffer static draws",
    colorFormats: GBUFFER_COLOR_FORMATS,
    depthStencilFormat: GBUFFER_FORMATS.depth,
};
// over a depth prepass the pass's depth is read-only: so must a bundle executed in it be
const BUNDLE_ENCODER_OVER_PREPASS: GPURenderBundleEncoderDescriptor = { ...BUNDLE_ENCODER, label: "gbuffer static draws (over the depth prepass)", depthReadOnly: true };

/**
 * The G-buffer step: draws the scene's opaque meshes into the four targets and depth at the internal
 * resolution (per-object data in one storage buffer, equal meshes instanced) and publishes them as
 * `GBufferTextures` and `ViewTextures`.
 */
export class GBufferStep {
    // the G-buffer albedo's clear value: the scene's sky colour, alpha 0 (unlit)
    readonly #sky = { r: 0.05, g: 0.07, b: 0.1, a: 0 };
    /**
     * Whether the opaque runs of unskinned meshes are recorded once into a render bundle and replayed while
     * nothing their draws depend on changes (`StaticRunsKey`: the runs, their buffers, material bind groups and
     * pipelines, the scene bind group; not the object data, so a mesh moving replays it), re-recorded when
     * something does. Skinned meshes are drawn after it, directly. Default true; false draws every run directly.
     */
    bundles = true;
    #bundle_records = 0;
    /** The frame's draws; the transparency step draws its blended runs. */
    readonly draw_list = new MeshDrawList();
    readonly objects = new ObjectBuffer();
    /**
     * GPU frustum culling of the opaque runs (`FrustumCulling`): a compute pass ("gbuffer cull") before the first
     * pass that draws the list writes each run's indirect draw; `culling.enabled = false` draws every object.
     */
    readonly culling = new FrustumCulling();
    // what the bundle's recording reads (one object, filled before each `execute`)
    readonly #recording: StaticRecording = { list: this.draw_list, state: null, group: null, pipelines: null, indirect: null };

    #albedo = -1;
    #normal = -1;
    #material = -1;
    #object_id = -1;
    #emissive = -1;
    #depth = -1;
    // the depth prepass's depth, when this frame made one (`use_prepass_depth`), and that frame's serial
    #prepass_depth: FrameGraphHandle = -1;
    #prepass_serial = -1;
    #over_prepass = false;
    // the frame whose culling pass is added (a prepass adds it before the list is built)
    #cull_serial = -1;
    #camera: GPUBuffer | null = null;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "gbuffer", colorAttachments: this.#colors };
    readonly #per_device = new WeakMap<GPUDevice, DeviceState>();
    static readonly #up_normal: GPUColorDict = { r: 0, g: 1, b: 0, a: 0 };
    // nothing emitted, nothing occluded
    static readonly #no_emission: GPUColorDict = { r: 0, g: 0, b: 0, a: 1 };

    /** How many times the render bundle was recorded (on any device); for tests and inspectors. */
    get bundle_records(): number {
        return this.#bundle_records;
    }

    /**
     * Builds the frame's draw list (and takes the sky and camera) for the passes that draw it (`SceneDraws`: the
     * shadow map's and a depth prepass's too). `record` calls it.
     */
    build(frame: FrameContext, scene: Scene): void {
        this.draw_list.build(scene, this.objects, frame.view.camera.position, GPUGeometryCache.of(frame.device));
        // every slot's visible entry is written by it, so it runs whenever anything is drawn (culling or not)
        if (this.objects.count > 0) this.add_cull(frame);
        const sky = scene.sky;
        this.#sky.r = sky[0];
        this.#sky.g = sky[1];
        this.#sky.b = sky[2];
        this.#camera = frame.view.camera.buffer;
    }

    /**
     * @internal Adds pass "gbuffer cull" (the visibility of every slot, the indirect draws) once this frame: from
     * `build`, or earlier from a depth prepass, whose draws it must precede though the list is built later.
     */
    add_cull(frame: FrameContext): void {
        if (this.#cull_serial === frame.frame_serial) return;
        this.#cull_serial = frame.frame_serial;
        frame.graph.add("gbuffer cull", this, execute_cull).make_side_effect();
    }

    /**
     * @internal A depth prepass draws this frame's draw list into `depth`: `record` loads it and draws with
     * depth-compare "equal" instead of clearing a depth of its own.
     */
    use_prepass_depth(frame: FrameContext, depth: FrameGraphHandle): void {
        this.#prepass_depth = depth;
        this.#prepass_serial = frame.frame_serial;
    }

    record(frame: FrameContext, scene: Scene): void {
        const w = frame.resolution[0];
        const h = frame.resolution[1];
        // a prepass of a frame that was dropped before its G-buffer recorded is not this frame's
        const over_prepass = this.#prepass_serial === frame.frame_serial;
        this.#prepass_serial = -1;
        this.#over_prepass = over_prepass;
        this.build(frame, scene);
        const pass = frame.graph.add("gbuffer", this, execute_gbuffer);
        this.#albedo = pass.write(pass.create("gbuffer albedo", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.albedo, TARGET_USAGE)));
        this.#normal = pass.write(pass.create("gbuffer normal", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.normal, TARGET_USAGE)));
        this.#material = pass.write(pass.create("gbuffer material", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.material, TARGET_USAGE)));
        this.#object_id = pass.write(pass.create("gbuffer object id", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.object_id, TARGET_USAGE)));
        this.#emissive = pass.write(pass.create("gbuffer emissive", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.emissive, TARGET_USAGE)));
        // over a prepass the depth is only read (a read-only attachment): what the pass wrote is final
        this.#depth = over_prepass
            ? pass.read(this.#prepass_depth)
            : pass.write(pass.create("depth", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.depth, TARGET_USAGE)));

        const g = frame.create(GBufferTextures);
        g.albedo = this.#albedo;
        g.normal = this.#normal;
        g.material = this.#material;
        g.object_id = this.#object_id;
        g.emissive = this.#emissive;
        frame.create(ViewTextures).depth = this.#depth;
    }

    /** The device's state: pipelines, geometry buffers, material bind groups (built once per device). */
    device_state(device: GPUDevice): DeviceState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_state(device);
            this.#per_device.set(device, state);
        }
        return state;
    }

    /**
     * Uploads this frame's objects and returns the bind group of camera + objects (rebuilt when either
     * buffer is replaced). Called once a frame by the G-buffer pass; later passes use `state.scene_group`.
     */
    scene_group(device: GPUDevice, state: DeviceState): GPUBindGroup {
        const objects = this.objects.upload(device);
        state.objects = objects;
        const visible = this.culling.visible(device, this.objects.count);
        const camera = this.#camera!;
        if (
            state.scene_group === null ||
            state.scene_group_camera !== camera ||
            state.scene_group_generation !== this.objects.generation ||
            state.scene_group_visible !== this.culling.generation
        ) {
            state.scene_group = device.createBindGroup({
                label: "mesh scene bind group",
                layout: state.scene_layout,
                entries: [
                    { binding: 0, resource: { buffer: camera } },
                    { binding: 1, resource: { buffer: objects } },
                    { binding: 2, resource: { buffer: visible } },
                ],
            });
            state.scene_group_camera = camera;
            state.scene_group_generation = this.objects.generation;
            state.scene_group_visible = this.culling.generation;
        }
        return state.scene_group;
    }

    /**
     * The indirect draw arguments of this frame's opaque runs when they are culled (pass to `draw_runs`), or null
     * when every object is drawn directly.
     */
    indirect(device: GPUDevice): GPUBuffer | null {
        return this.culling.run_count > 0 && this.culling.culls(device) ? this.culling.args(device) : null;
    }

    /** @internal The visibility pass: uploads the objects, writes the run table, culls. */
    execute_cull(execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.device_state(device);
        const list = this.draw_list;
        if (this.objects.count === 0) {
            // added ahead of a prepass, before the list turned out empty: nothing to cull (the pass kept for its timing)
            state.cull_descriptor.timestampWrites = execution.timestamp_writes;
            execution.encoder.beginComputePass(state.cull_descriptor).end();
            return;
        }
        // the table first: it says how many levels of detail the visible slots are kept for
        this.culling.update_from(list, state.geometries);
        this.scene_group(device, state);
        state.cull_descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginComputePass(state.cull_descriptor);
        this.culling.record(device, pass, this.#camera!, state.objects!, this.objects.count);
        pass.end();
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.device_state(device);
        const group = this.scene_group(device, state);
        const colors = this.#colors;
        colors[0] = resources.color_attachment(this.#albedo, this.#sky);
        colors[1] = resources.color_attachment(this.#normal, GBufferStep.#up_normal);
        colors[2] = resources.color_attachment(this.#material);
        colors[3] = resources.color_attachment(this.#object_id);
        colors[4] = resources.color_attachment(this.#emissive, GBufferStep.#no_emission);
        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#depth, 1);
        this.#descriptor.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        const list = this.draw_list;
        if (list.opaque_run_count > 0) {
            const pipelines = this.#over_prepass ? (state.equal_pipelines ??= make_gbuffer_pipelines(device, state.module, state.layout, true)) : state.pipelines;
            if (this.bundles) this.#draw_bundled(device, pass, state, group, pipelines);
            else {
                pass.setBindGroup(0, group);
                draw_runs(pass, state, list.opaque_runs, list.opaque_run_count, "surface", pipelines, "all", 0, this.indirect(device), list.batch_run_count > 0 ? this.#pulled(device, state) : null);
            }
        }
        pass.end();
    }

    // the static runs from the bundle (recorded again when its key moved), then the skinned runs directly
    #draw_bundled(device: GPUDevice, pass: GPURenderPassEncoder, state: DeviceState, group: GPUBindGroup, pipelines: readonly GPURenderPipeline[]): void {
        const list = this.draw_list;
        const bundle = state.bundle;
        const indirect = this.indirect(device);
        const changed = bundle.key.update(state, list.opaque_runs, list.opaque_run_count, material_variant, group, pipelines, indirect);
        const r = this.#recording;
        r.list = list;
        r.state = state;
        r.group = group;
        r.pipelines = pipelines;
        r.indirect = indirect;
        const records = bundle.records;
        bundle.execute(device, pass, changed, this.#over_prepass ? BUNDLE_ENCODER_OVER_PREPASS : BUNDLE_ENCODER, r, record_static_runs);
        this.#bundle_records += bundle.records - records;
        if (bundle.key.skinned_count > 0) {
            // (after a bundle the pass has nothing bound)
            pass.setBindGroup(0, group);
            draw_runs(pass, state, list.opaque_runs, list.opaque_run_count, "surface", pipelines, "skinned", 0, indirect, this.#pulled(device, state));
        }
    }

    // the pulling pipelines of this frame's kind (over a prepass or not)
    #pulled(device: GPUDevice, state: DeviceState): readonly GPURenderPipeline[] {
        return this.#over_prepass
            ? (state.equal_pulled_pipelines ??= make_gbuffer_pipelines(device, state.module, state.pulled_layout, true, true))
            : (state.pulled_pipelines ??= make_gbuffer_pipelines(device, state.module, state.pulled_layout, false, true));
    }
}

export { material_variant } from "../mesh/material_variant.js";
// where they were first defined, for code that imports them from here
export { draw_runs, make_scene_layout, MESH_VERTEX_BUFFERS, MESH_VERTEX_BUFFERS_WITH_PREVIOUS, type RunFilter, type RunVertexBuffers } from "../mesh/draw_runs.js";

function build_state(device: GPUDevice): DeviceState {
    const scene_layout = make_scene_layout(device);
    const materials = new MaterialBindings(device);
    const module = device.createShaderModule({ label: "gbuffer shader", code: GBUFFER_WGSL });
    const layout = device.createPipelineLayout({ label: "gbuffer pipeline layout", bindGroupLayouts: [scene_layout, materials.layout] });
    return {
        pipelines: make_gbuffer_pipelines(device, module, layout, false),
        equal_pipelines: null,
        pulled_pipelines: null,
        equal_pulled_pipelines: null,
        module,
        layout,
        pulled_layout: device.createPipelineLayout({
            label: "mesh pipeline layout (skin batch vertices)",
            bindGroupLayouts: [scene_layout, materials.layout, skinned_vertices_layout(device)],
        }),
        scene_layout,
        geometries: GPUGeometryCache.of(device),
        materials,
        scene_group: null,
        scene_group_camera: null,
        scene_group_generation: -1,
        scene_group_visible: -1,
        objects: null,
        cull_descriptor: { label: "gbuffer cull" },
        bundle: new RunBundle("gbuffer static draws"),
    };
}

function execute_gbuffer(step: GBufferStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}

/** What `record_static_runs` draws: the list's static runs with the scene group, pipelines and indirect arguments. */
interface StaticRecording {
    list: MeshDrawList;
    state: DeviceState | null;
    group: GPUBindGroup | null;
    pipelines: readonly GPURenderPipeline[] | null;
    indirect: GPUBuffer | null;
}

function record_static_runs(r: StaticRecording, encoder: GPURenderBundleEncoder): void {
    encoder.setBindGroup(0, r.group!);
    draw_runs(encoder, r.state!, r.list.opaque_runs, r.list.opaque_run_count, "surface", r.pipelines, "static", 0, r.indirect);
}

function execute_cull(step: GBufferStep, _resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute_cull(execution);
}
