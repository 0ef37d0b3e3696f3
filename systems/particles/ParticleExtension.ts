import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../shade/device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension, type RenderExtensionOwner } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";
import { CAMERA_BYTES } from "../../shade/renderer/scene/Camera.js";
import { ParticleAtlas } from "./ParticleAtlas.js";
import { ACCUM_FORMAT, build_particle_draw_state, REVEALAGE_FORMAT, type ParticleDrawState } from "./ParticleDrawState.js";
import type { ParticleRuntime } from "./ParticleRuntime.js";
import { RENDER_PARAMS_BYTES, SPLAT_WORDS, SPLAT_WORKGROUP } from "./particle_render.wgsl.js";
import { COUNTERS_BYTES } from "./particle_simulate.wgsl.js";

const TRANSIENT_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04; /* TEXTURE_BINDING */
const REVEALAGE_CLEAR: GPUColorDict = { r: 1, g: 1, b: 1, a: 1 };
const ALPHA_ARGS_OFFSET = 16;

/** The handles of one frame's draw, reused. */
interface FrameDraw {
    camera: GPUBuffer | null;
    depth: FrameGraphHandle;
    /** The colour the additive pass writes, and the one the composite writes (after it). */
    additive_color: FrameGraphHandle;
    composite_color: FrameGraphHandle;
    accum: FrameGraphHandle;
    revealage: FrameGraphHandle;
    color_format: GPUTextureFormat;
    depth_format: GPUTextureFormat;
    splat_color: FrameGraphHandle;
    width: number;
    height: number;
}

type Execute = (data: FrameDraw, resources: FrameGraphResources, execution: FrameExecution) => void;

/**
 * Draws the particles (`"particles"`, AfterTransparency), owned by `GPUParticleEmitterSystem`. Up to three
 * passes, only for blend modes that have emitters:
 *
 * - `"particles / additive"`: one drawIndirect of camera-facing billboards added over the scene colour;
 * - `"particles / accumulate"`: one drawIndirect of the alpha particles into two transient targets
 *   (weighted blended OIT: accumulation rgba16float, revealage r16float);
 * - `"particles / composite"`: resolves them over the scene colour.
 *
 * - `"particles / splat"`: particles smaller than `splat_pixels` on screen (sorted out by the simulation) are
 *   added into their pixel by a compute pass with atomics (the additive ones' colour; the alpha ones' OIT
 *   terms); `"particles / splat resolve"` adds the additive sums onto the scene colour and the composite folds
 *   the alpha ones in. The rasteriser's cost per triangle is what small particles would spend their time on.
 *
 * Every draw reads the scene depth (depth-tested, never written; soft particles also sample it). The vertex
 * counts come from the simulation: the CPU never learns how many particles are alive.
 */
export class ParticleExtension extends RenderExtension {
    name = "particles";
    phase = FramePhase.AfterTransparency;

    readonly #runtime: ParticleRuntime;
    #state: ParticleDrawState | null = null;
    readonly #draw: FrameDraw = {
        camera: null,
        depth: -1,
        additive_color: -1,
        composite_color: -1,
        accum: -1,
        revealage: -1,
        color_format: "rgba16float",
        depth_format: "depth32float",
        splat_color: -1,
        width: 0,
        height: 0,
    };
    readonly #keys: unknown[] = [null, null, null];
    readonly #splat_keys: unknown[] = [null, null, null];
    readonly #splat_pass: GPUComputePassDescriptor = { label: "particles / splat" };
    readonly #execute_splat: Execute;
    readonly #execute_resolve: Execute;
    readonly #composite_keys: unknown[] = [null, null, null, null];
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #oit_colors: GPURenderPassColorAttachment[] = [];
    readonly #additive_pass: GPURenderPassDescriptor = { label: "particles / additive", colorAttachments: this.#colors };
    readonly #accumulate_pass: GPURenderPassDescriptor = { label: "particles / accumulate", colorAttachments: this.#oit_colors };
    readonly #composite_pass: GPURenderPassDescriptor = { label: "particles / composite", colorAttachments: this.#colors };
    readonly #resolve_pass: GPURenderPassDescriptor = { label: "particles / splat resolve", colorAttachments: this.#colors };
    readonly #render_params = new Uint32Array(RENDER_PARAMS_BYTES / 4);
    readonly #render_params_f32 = new Float32Array(this.#render_params.buffer);
    readonly #execute_additive: Execute;
    readonly #execute_accumulate: Execute;
    readonly #execute_composite: Execute;

    constructor(runtime: ParticleRuntime, owner: RenderExtensionOwner | null = null) {
        super(owner);
        this.#runtime = runtime;
        this.#execute_additive = (data, resources, execution) => this.#additive(data, resources, execution);
        this.#execute_accumulate = (data, resources, execution) => this.#accumulate(data, resources, execution);
        this.#execute_composite = (data, resources, execution) => this.#composite(data, resources, execution);
        this.#execute_splat = (data, resources, execution) => this.#splat(data, resources, execution);
        this.#execute_resolve = (data, resources, execution) => this.#resolve(data, resources, execution);
    }

    record(frame: FrameContext): void {
        const table = this.#runtime.table;
        if (table.additive_count === 0 && table.alpha_count === 0) return;
        const graph = frame.graph;
        const scene = frame.get(SceneColor);
        const depth = frame.get(ViewTextures).depth;
        const draw = this.#draw;
        draw.camera = frame.view.camera.buffer;
        draw.depth = depth;
        draw.color_format = graph.describe(scene.color).format;
        draw.depth_format = graph.describe(depth).format;
        draw.width = frame.resolution[0];
        draw.height = frame.resolution[1];
        const splat = this.#runtime.splat_pixels > 0;
        if (splat) {
            // writes the accumulation buffer, which the graph does not see: kept as a side effect
            graph.add("particles / splat", draw, this.#execute_splat).make_side_effect().read(depth);
        }
        if (table.additive_count > 0) {
            const pass = graph.add("particles / additive", draw, this.#execute_additive);
            pass.read(depth);
            draw.additive_color = pass.write(scene.color, "load");
            scene.color = draw.additive_color;
            if (splat) {
                const resolve = graph.add("particles / splat resolve", draw, this.#execute_resolve);
                draw.splat_color = resolve.write(scene.color, "load");
                scene.color = draw.splat_color;
            }
        }
        if (table.alpha_count > 0) {
            const w = frame.resolution[0];
            const h = frame.resolution[1];
            const accumulate = graph.add("particles / accumulate", draw, this.#execute_accumulate);
            accumulate.read(depth);
            draw.accum = accumulate.write(accumulate.create("particle accumulation", TextureResourceDescriptor.of(w, h, ACCUM_FORMAT, TRANSIENT_USAGE)));
            draw.revealage = accumulate.write(
                accumulate.create("particle revealage", TextureResourceDescriptor.of(w, h, REVEALAGE_FORMAT, TRANSIENT_USAGE)),
            );
            const composite = graph.add("particles / composite", draw, this.#execute_composite);
            composite.read(draw.accum);
            composite.read(draw.revealage);
            draw.composite_color = composite.write(scene.color, "load");
            scene.color = draw.composite_color;
        }
    }

    override destroy(): void {
        this.#state?.render_params.destroy();
        this.#state?.accumulation?.destroy();
        this.#state = null;
        this.#draw.camera = null;
        this.#colors.length = 0;
        this.#oit_colors.length = 0;
    }

    #draw_state(device: GPUDevice, data: FrameDraw): ParticleDrawState {
        const particles = this.#runtime.state(device);
        const s = this.#state;
        if (s !== null && s.device === device && s.particles === particles && s.color_format === data.color_format && s.depth_format === data.depth_format) {
            return s;
        }
        s?.render_params.destroy();
        s?.accumulation?.destroy();
        const state = build_particle_draw_state(device, particles, data.color_format, data.depth_format);
        this.#state = state;
        return state;
    }

    // the uniforms follow the atlas (its frames' mean alpha); written when it changed
    #params(state: ParticleDrawState): void {
        const atlas = this.#runtime.atlas;
        if (state.atlas_version === atlas.version) return;
        state.atlas_version = atlas.version;
        const p = this.#render_params;
        const f = this.#render_params_f32;
        p[0] = this.#runtime.capacity;
        p[1] = ParticleAtlas.COLUMNS;
        p[2] = ParticleAtlas.ROWS;
        p[3] = this.#splat_row();
        for (let i = 0; i < ParticleAtlas.FRAMES; i++) f[4 + i] = atlas.frame_alpha[i];
        state.device.queue.writeBuffer(state.render_params, 0, p);
    }

    #splat_row(): number {
        return Math.min(Math.ceil(this.#runtime.capacity / SPLAT_WORKGROUP), 65535);
    }

    // the splat's sums for this resolution (zero when created)
    #accumulation(state: ParticleDrawState, data: FrameDraw): GPUBuffer {
        const bytes = data.width * data.height * SPLAT_WORDS * 4;
        if (state.accumulation === null || state.accumulation.size < bytes) {
            state.accumulation?.destroy();
            state.accumulation = state.device.createBuffer({
                label: "particles: splat accumulation",
                size: bytes,
                usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
            });
        }
        return state.accumulation;
    }

    #splat(data: FrameDraw, resources: FrameGraphResources, execution: FrameExecution): void {
        const state = this.#draw_state(execution.graphics, data);
        this.#params(state);
        const accumulation = this.#accumulation(state, data);
        // zeroed here, before this frame's splat, rather than after its last reader
        execution.encoder.clearBuffer(accumulation, 0, data.width * data.height * SPLAT_WORDS * 4);
        const p = state.particles;
        const keys = this.#splat_keys;
        keys[0] = data.camera;
        keys[1] = resources.view(data.depth);
        keys[2] = state.accumulation;
        let group = state.splat_groups.find(keys);
        if (group === null) {
            group = state.splat_groups.add(
                keys,
                state.device.createBindGroup({
                    label: "particles: splat bind group",
                    layout: state.splat_layout,
                    entries: [
                        { binding: 0, resource: { buffer: data.camera!, size: CAMERA_BYTES } },
                        { binding: 1, resource: { buffer: p.particles } },
                        { binding: 2, resource: { buffer: p.emitters } },
                        { binding: 3, resource: { buffer: p.splat_list } },
                        { binding: 4, resource: { buffer: state.render_params } },
                        { binding: 5, resource: { buffer: p.counters, size: COUNTERS_BYTES } },
                        { binding: 6, resource: keys[1] as GPUTextureView },
                        { binding: 7, resource: { buffer: accumulation } },
                    ],
                }),
            );
        }
        this.#splat_pass.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginComputePass(this.#splat_pass);
        pass.setPipeline(state.splat);
        pass.setBindGroup(0, group);
        const groups = Math.ceil(this.#runtime.capacity / SPLAT_WORKGROUP);
        const row = this.#splat_row();
        pass.dispatchWorkgroups(row, Math.ceil(groups / row));
        pass.end();
    }

    #resolve(data: FrameDraw, resources: FrameGraphResources, execution: FrameExecution): void {
        const state = this.#draw_state(execution.graphics, data);
        const accumulation = state.accumulation!;
        const keys = this.#splat_keys;
        keys[0] = data.camera;
        keys[1] = accumulation;
        keys[2] = null;
        let group = state.splat_groups.find(keys);
        if (group === null) {
            group = state.splat_groups.add(
                keys,
                state.device.createBindGroup({
                    label: "particles: splat resolve bind group",
                    layout: state.resolve_layout,
                    entries: [
                        { binding: 0, resource: { buffer: data.camera!, size: CAMERA_BYTES } },
                        { binding: 1, resource: { buffer: accumulation } },
                    ],
                }),
            );
        }
        this.#colors[0] = resources.color_attachment(data.splat_color);
        this.#resolve_pass.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#resolve_pass);
        pass.setPipeline(state.resolve);
        pass.setBindGroup(0, group);
        pass.draw(3);
        pass.end();
    }

    #group(state: ParticleDrawState, data: FrameDraw, resources: FrameGraphResources): GPUBindGroup {
        const keys = this.#keys;
        keys[0] = data.camera;
        keys[1] = resources.view(data.depth);
        keys[2] = state.particles.atlas_view;
        const cached = state.groups.find(keys);
        if (cached !== null) return cached;
        const p = state.particles;
        const group = state.device.createBindGroup({
            label: "particles: draw bind group",
            layout: state.layout,
            entries: [
                { binding: 0, resource: { buffer: data.camera!, size: CAMERA_BYTES } },
                { binding: 1, resource: { buffer: p.particles } },
                { binding: 2, resource: { buffer: p.emitters } },
                { binding: 3, resource: { buffer: p.draw_list } },
                { binding: 4, resource: { buffer: state.render_params } },
                { binding: 5, resource: p.atlas_view },
                { binding: 6, resource: p.sampler },
                { binding: 7, resource: keys[1] as GPUTextureView },
            ],
        });
        return state.groups.add(keys, group);
    }

    #additive(data: FrameDraw, resources: FrameGraphResources, execution: FrameExecution): void {
        const state = this.#draw_state(execution.graphics, data);
        this.#params(state);
        this.#colors[0] = resources.color_attachment(data.additive_color);
        this.#additive_pass.depthStencilAttachment = resources.depth_attachment(data.depth);
        this.#additive_pass.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#additive_pass);
        pass.setPipeline(state.additive);
        pass.setBindGroup(0, this.#group(state, data, resources));
        pass.drawIndirect(state.particles.draw_args, 0);
        pass.end();
    }

    #accumulate(data: FrameDraw, resources: FrameGraphResources, execution: FrameExecution): void {
        const state = this.#draw_state(execution.graphics, data);
        this.#params(state);
        this.#oit_colors[0] = resources.color_attachment(data.accum);
        this.#oit_colors[1] = resources.color_attachment(data.revealage, REVEALAGE_CLEAR);
        this.#accumulate_pass.depthStencilAttachment = resources.depth_attachment(data.depth);
        this.#accumulate_pass.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#accumulate_pass);
        pass.setPipeline(state.accumulate);
        pass.setBindGroup(0, this.#group(state, data, resources));
        pass.drawIndirect(state.particles.draw_args, ALPHA_ARGS_OFFSET);
        pass.end();
    }

    #composite(data: FrameDraw, resources: FrameGraphResources, execution: FrameExecution): void {
        const state = this.#draw_state(execution.graphics, data);
        const keys = this.#composite_keys;
        keys[0] = resources.view(data.accum);
        keys[1] = resources.view(data.revealage);
        keys[2] = data.camera;
        keys[3] = this.#accumulation(state, data);
        let group = state.composite_groups.find(keys);
        if (group === null) {
            group = state.composite_groups.add(
                keys,
                state.device.createBindGroup({
                    label: "particles: composite bind group",
                    layout: state.composite_layout,
                    entries: [
                        { binding: 0, resource: keys[0] as GPUTextureView },
                        { binding: 1, resource: keys[1] as GPUTextureView },
                        { binding: 2, resource: { buffer: data.camera!, size: CAMERA_BYTES } },
                        { binding: 3, resource: { buffer: keys[3] as GPUBuffer } },
                    ],
                }),
            );
        }
        this.#colors[0] = resources.color_attachment(data.composite_color);
        this.#composite_pass.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#composite_pass);
        pass.setPipeline(state.composite);
        pass.setBindGroup(0, group);
        pass.draw(3);
        pass.end();
    }
}
