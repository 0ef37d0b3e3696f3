import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension, type RenderExtensionOwner, type RenderExtensionClass } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";
import { CAMERA_BYTES } from "../../shade/renderer/scene/Camera.js";
import { FogOfWarExtension } from "../fog_of_war/FogOfWarExtension.js";
import { HighlightExtension } from "../highlight/HighlightExtension.js";
import { ParticleExtension } from "../particles/ParticleExtension.js";
import { PathDisplayExtension } from "../path_display/PathDisplayExtension.js";
import { Trail3DExtension } from "../trails/Trail3DExtension.js";
import { DEBUG_LINE_WGSL, LINE_PARAMS_BYTES } from "./debug_line.wgsl.js";
import { DebugLineStaging } from "./DebugLineStaging.js";
import { LINE_BYTES, type DebugLines } from "./DebugLines.js";

/** What the extension draws: the system's line stores and settings; the owner named in errors. */
export interface DebugLineSource extends RenderExtensionOwner {
    readonly timed_lines: DebugLines;
    /** The one-frame lines being written (the extension attaches staging ranges to it). */
    readonly frame_lines: DebugLines;
    /** The one-frame lines the last `frame_recorded` took. */
    readonly drawn_lines: DebugLines;
    readonly line_width: number;
    readonly depth_test: boolean;
    /** Moves the one-frame lines written so far into `drawn_lines` (a swap): this frame takes them. */
    frame_recorded(): void;
}

interface DrawData {
    camera: GPUBuffer | null;
    depth: FrameGraphHandle;
    output: FrameGraphHandle;
    color_format: GPUTextureFormat;
    depth_format: GPUTextureFormat;
    timed: number;
    frame: number;
}

interface PipelineEntry {
    readonly color_format: GPUTextureFormat;
    readonly depth_format: GPUTextureFormat;
    readonly pipeline: GPURenderPipeline;
}

interface DeviceState {
    readonly device: GPUDevice;
    readonly module: GPUShaderModule;
    readonly layout: GPUBindGroupLayout;
    readonly pipeline_layout: GPUPipelineLayout;
    readonly params: GPUBuffer;
    readonly pipelines: PipelineEntry[];
    readonly cameras: GPUBuffer[];
    readonly groups: GPUBindGroup[];
    lines: GPUBuffer | null;
    readonly staging: DebugLineStaging;
    /** Timed lines' version and count in the GPU buffer, -1 when they must go up again. */
    timed_version: number;
    timed_count: number;
}

const PREMULTIPLIED_OVER: GPUBlendState = {
    color: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
    alpha: { srcFactor: "one", dstFactor: "one-minus-src-alpha", operation: "add" },
};
const MAX_CAMERAS = 8;
const VERTEX_BUFFERS: GPUVertexBufferLayout[] = [
    {
        arrayStride: LINE_BYTES,
        stepMode: "instance",
        attributes: [
            { shaderLocation: 0, offset: 0, format: "float32x3" },
            { shaderLocation: 1, offset: 12, format: "float32x3" },
            { shaderLocation: 2, offset: 24, format: "unorm8x4" },
        ],
    },
];

/**
 * Draws a `DebugDrawSystem`'s lines at AfterTransparency, last of the scene content: blended over the scene
 * colour (read, written, published), depth-tested read-only against `ViewTextures.depth` (or drawn over
 * everything with `depth_test: false`). One pass, "debug draw / draw": the lines are one instance buffer
 * (timed lines first, uploaded only when they changed; then this frame's lines) and one instanced draw,
 * each line a 4-vertex strip widened to `line_width` pixels in the vertex shader.
 *
 * This frame's lines reach the instance buffer through a staging belt (`DebugLineStaging`): written straight
 * into a mapped staging buffer and copied on the GPU, or, when no staging buffer was mapped in time, by
 * `writeBuffer` from the CPU arrays.
 *
 * Why not `GPUDynamicMeshRenderer`: it draws indexed triangle geometry in world space, so a line would be
 * four vertices, six indices and a world-space width built on the CPU (about 90 bytes instead of 28 per
 * line, and no constant pixel width); 300k lines a frame is an instance buffer's job.
 *
 * Ordering: last of the scene content. After fog of war, so that the fog never hides developer geometry (the
 * seed's one deliberate exception), and after every extension the fog itself follows (highlight, particles, path
 * display, trails), named here too: a constraint on an absent class is none, so without the fog only these keep
 * debug draw behind them (by name alone "debug draw" sorts first).
 */
export class DebugDrawExtension extends RenderExtension {
    name = "debug draw";
    phase = FramePhase.AfterTransparency;
    override after: readonly RenderExtensionClass[] = [FogOfWarExtension, HighlightExtension, ParticleExtension, PathDisplayExtension, Trail3DExtension];

    readonly #source: DebugLineSource;
    #state: DeviceState | null = null;
    #destroyed = false;
    readonly #params = new Float32Array(LINE_PARAMS_BYTES / 4);
    readonly #draw: DrawData = {
        camera: null,
        depth: -1,
        output: -1,
        color_format: "rgba16float",
        depth_format: "depth32float",
        timed: 0,
        frame: 0,
    };
    readonly #execute: (data: DrawData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #color_attachments: GPURenderPassColorAttachment[] = [];
    readonly #pass_descriptor: GPURenderPassDescriptor = { label: "debug draw / draw", colorAttachments: this.#color_attachments };

    constructor(source: DebugLineSource) {
        super(source);
        this.#source = source;
        this.#execute = (data, resources, execution) => this.#encode(data, resources, execution);
    }

    override record(frame: FrameContext): void {
        if (this.#destroyed) throw new Error("DebugDrawExtension 'debug draw' used after destroy(); start the DebugDrawSystem up again");
        const source = this.#source;
        source.frame_recorded();
        const timed = source.timed_lines.count;
        const lines = source.drawn_lines.count;
        if (timed + lines === 0) return; // nothing to draw: the colour stays exactly as it was
        const graph = frame.graph;
        const scene = frame.get(SceneColor);
        const depth = frame.get(ViewTextures).depth;
        const draw = this.#draw;
        draw.camera = frame.view.camera.buffer;
        draw.color_format = graph.describe(scene.color).format;
        draw.depth_format = graph.describe(depth).format;
        draw.timed = timed;
        draw.frame = lines;
        const builder = graph.add("debug draw / draw", draw, this.#execute);
        draw.depth = builder.read(depth);
        draw.output = builder.write(scene.color, "load");
        scene.color = draw.output;
    }

    /**
     * Uploads `timed` timed lines (when changed) and `frame` one-frame lines to `device`; what the draw pass does
     * first. Staged lines are copied on `encoder` (submitted before the next upload); without one they are
     * written from the mapped range.
     */
    upload(device: GPUDevice, timed: number, frame: number, encoder: GPUCommandEncoder | null = null): void {
        const source = this.#source;
        const state = this.#device_state(device);
        const staging = state.staging;
        // the copies of earlier frames are submitted by now: map those slots again
        staging.remap();
        const bytes = (timed + frame) * LINE_BYTES;
        if (state.lines === null || state.lines.size < bytes) {
            state.lines?.destroy();
            let size = Math.max(64 * LINE_BYTES, state.lines?.size ?? 0);
            while (size < bytes) size *= 2;
            state.lines = device.createBuffer({ label: "debug draw lines", size, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
            state.timed_version = -1;
        }
        const queue = device.queue;
        const timed_lines = source.timed_lines;
        if (timed > 0 && (state.timed_version !== timed_lines.version || state.timed_count !== timed)) {
            queue.writeBuffer(state.lines, 0, timed_lines.bytes, 0, timed * LINE_BYTES);
            state.timed_version = timed_lines.version;
            state.timed_count = timed;
        }
        const drawn = source.drawn_lines;
        if (drawn.slot >= 0) {
            staging.copy(drawn, frame, encoder, state.lines, timed * LINE_BYTES);
        } else if (frame > 0) {
            queue.writeBuffer(state.lines, timed * LINE_BYTES, drawn.bytes, 0, frame * LINE_BYTES);
            staging.want(frame * LINE_BYTES);
            staging.fallback_frames++;
        }
        staging.attach();
        this.#params[0] = source.line_width;
        queue.writeBuffer(state.params, 0, this.#params);
    }

    override destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        const state = this.#state;
        this.#state = null;
        if (state !== null) this.#drop_state(state);
        this.#draw.camera = null;
        this.#color_attachments.length = 0;
    }

    #encode(data: DrawData, resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        this.upload(device, data.timed, data.frame, execution.encoder);
        const state = this.#state!;
        this.#color_attachments[0] = resources.color_attachment(data.output);
        this.#pass_descriptor.depthStencilAttachment = resources.depth_attachment(data.depth);
        const pass = execution.encoder.beginRenderPass(this.#pass_descriptor);
        pass.setPipeline(this.#pipeline(state, data.color_format, data.depth_format));
        pass.setBindGroup(0, this.#group(state, data.camera!));
        pass.setVertexBuffer(0, state.lines!);
        pass.draw(4, data.timed + data.frame);
        pass.end();
    }

    #device_state(device: GPUDevice): DeviceState {
        const current = this.#state;
        if (current !== null && current.device === device) return current;
        if (current !== null) this.#drop_state(current);
        const layout = device.createBindGroupLayout({
            label: "debug draw bind group layout",
            entries: [
                { binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform", minBindingSize: CAMERA_BYTES } },
                { binding: 1, visibility: GPUShaderStage.VERTEX, buffer: { type: "uniform" } },
            ],
        });
        const state: DeviceState = {
            device,
            module: device.createShaderModule({ label: "debug draw line shader", code: DEBUG_LINE_WGSL }),
            layout,
            pipeline_layout: device.createPipelineLayout({ label: "debug draw pipeline layout", bindGroupLayouts: [layout] }),
            params: device.createBuffer({ label: "debug draw params", size: LINE_PARAMS_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
            pipelines: [],
            cameras: [],
            groups: [],
            lines: null,
            staging: new DebugLineStaging(device, this.#source.frame_lines, this.#source.drawn_lines),
            timed_version: -1,
            timed_count: 0,
        };
        this.#state = state;
        return state;
    }

    /** The staging belt of the state's device. */
    get staging(): DebugLineStaging | null {
        return this.#state?.staging ?? null;
    }

    #drop_state(state: DeviceState): void {
        // lines written into a staging range are kept: copied back to the stores' CPU arrays before it goes
        const source = this.#source;
        source.frame_lines.unstage(true);
        source.drawn_lines.unstage(true);
        state.staging.destroy();
        state.lines?.destroy();
        state.params.destroy();
    }

    #pipeline(state: DeviceState, color_format: GPUTextureFormat, depth_format: GPUTextureFormat): GPURenderPipeline {
        const pipelines = state.pipelines;
        for (let i = 0; i < pipelines.length; i++) {
            const entry = pipelines[i];
            if (entry.color_format === color_format && entry.depth_format === depth_format) return entry.pipeline;
        }
        const pipeline = state.device.createRenderPipeline({
            label: `debug draw line pipeline (${color_format}, ${depth_format})`,
            layout: state.pipeline_layout,
            vertex: { module: state.module, entryPoint: "vs_main", buffers: VERTEX_BUFFERS },
            fragment: { module: state.module, entryPoint: "fs_main", targets: [{ format: color_format, blend: PREMULTIPLIED_OVER }] },
            primitive: { topology: "triangle-strip", cullMode: "none" },
            depthStencil: { format: depth_format, depthWriteEnabled: false, depthCompare: this.#source.depth_test ? "less" : "always" },
        });
        pipelines.push({ color_format, depth_format, pipeline });
        return pipeline;
    }

    #group(state: DeviceState, camera: GPUBuffer): GPUBindGroup {
        const cameras = state.cameras;
        for (let i = 0; i < cameras.length; i++) if (cameras[i] === camera) return state.groups[i];
        if (cameras.length >= MAX_CAMERAS) {
            cameras.length = 0;
            state.groups.length = 0;
        }
        const group = state.device.createBindGroup({
            label: "debug draw bind group",
            layout: state.layout,
            entries: [
                { binding: 0, resource: { buffer: camera, size: CAMERA_BYTES } },
                { binding: 1, resource: { buffer: state.params } },
            ],
        });
        cameras.push(camera);
        state.groups.push(group);
        return group;
    }
}
