import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import { ViewTextures } from "../extension/ViewTextures.js";
import { FullscreenEffect } from "../fullscreen/FullscreenEffect.js";
import type { Camera } from "../scene/Camera.js";
import { SCENE_COLOR_FORMAT } from "./LightingStep.js";
import { build_resolve_state, resize_history, resolve_group, resolve_variant, type ResolveState } from "./TaaResolvePipelines.js";
import { use_compute } from "../fullscreen/FullscreenPath.js";
import { Velocity } from "../products/Velocity.js";
import { TemporalJitter } from "./TemporalJitter.js";

// storage too: the sharpen writes it from compute where that is the faster path
const SCENE_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x08 /* STORAGE_BINDING */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

/** Weight of the current frame in the resolve once the history is established. */
const HISTORY_BLEND = 0.1;
/** Strength of the sharpen after the resolve (0: none). */
const SHARPEN_STRENGTH = 0.2;
const PARAMS_FLOATS = 8;
/** Float offset of `jitter.xy` in the camera's uniform block (CAMERA_WGSL). */
const CAMERA_JITTER = 88;

/**
 * The upscale boundary (TAA): at BeforePresent, resolves the jittered internal-resolution `SceneColor` into
 * an output-resolution history (reprojected by the `Velocity` product when the frame has one, which follows moving
 * meshes; through depth and last frame's camera otherwise; clamped to the current neighbourhood), sharpens it,
 * and republishes `SceneColor` at the output size. With `enabled` false it records nothing: both sides of the
 * boundary are one size.
 *
 * The history is reset (the frame resolves from the current colour alone) on the first frame, a new device,
 * a change of output or internal size, a frame without the upscale in between, and `reset_history()`.
 */
export class UpscaleStep {
    /** This frame's jitter in clip space (x, y), as last written by `next_jitter`. */
    readonly jitter = new Float32Array(2);
    readonly sequence = new TemporalJitter(16);

    readonly #sharpen = new FullscreenEffect({
        label: "taa sharpen",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: `${TAA_SHARPEN_WGSL}
fn effect(uv: vec2f) -> vec4f {
    return sharpen_at(vec2i(frag_coord));
}`,
    });
    readonly #per_device = new WeakMap<GPUDevice, ResolveState>();
    #reset_requested = false;
    // The clip offsets of every phase at one size, as boxed numbers in a tagged array (the leading null keeps
    // it tagged): a double read from a typed array and passed to a call is boxed anew, 16 bytes a value, every
    // frame; an element of this array is handed over as the box it already is.
    readonly #boxed: unknown[] = [null];
    #boxed_width = 0;
    #boxed_height = 0;

    // this frame's resolve, filled by record and read by execute (one resolve per frame: the step is the slot)
    #state: ResolveState | null = null;
    #frame_index = -1;
    #color: FrameGraphHandle = -1;
    #depth: FrameGraphHandle = -1;
    #velocity: FrameGraphHandle = -1;
    #history_read: FrameGraphHandle = -1;
    #history_write: FrameGraphHandle = -1;
    #write_index = 0;
    #reset = true;
    #camera: GPUBuffer | null = null;
    #internal_width = 0;
    #internal_height = 0;
    readonly #current_jitter = new Float32Array(2);
    readonly #params = new Float32Array(PARAMS_FLOATS);
    readonly #keys: unknown[] = [null, null, null, null];
    readonly #velocity_keys: unknown[] = [null, null, null, null, null];
    // compute variants: slot 5 holds the history written as a storage texture
    readonly #compute_keys: unknown[] = [null, null, null, null, null, null];
    readonly #compute_velocity_keys: unknown[] = [null, null, null, null, null, null];
    readonly #compute_descriptor: GPUComputePassDescriptor = { label: "taa resolve (compute)" };
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "taa resolve", colorAttachments: this.#colors };

    /**
     * The jitter for frame `frame_number` at the internal resolution, in clip space, for
     * `camera.update(w, h, jitter[0], jitter[1])` when the upscale is on. Returns `jitter` (no allocation;
     * `jitter_camera` also spares the two boxed numbers that passing them on costs).
     */
    next_jitter(frame_number: number, internal_width: number, internal_height: number): Float32Array {
        return this.sequence.write_clip(frame_number, internal_width, internal_height, this.jitter);
    }

    /**
     * `next_jitter` and `camera.update(width, height, jitter[0], jitter[1])` in one call, without the per-frame
     * garbage of passing two freshly read doubles (see `#boxed`). What the Renderer calls when the upscale is on.
     */
    jitter_camera(camera: Camera, frame_number: number, width: number, height: number): void {
        const jitter = this.next_jitter(frame_number, width, height);
        if (width !== this.#boxed_width || height !== this.#boxed_height) this.#box_offsets(width, height);
        const phase = jitter_phase(frame_number, this.sequence.phases);
        camera.update(width, height, this.#boxed[1 + phase * 2] as number, this.#boxed[2 + phase * 2] as number);
    }

    /** Drops the history: the next frame resolves from its own colour alone (a camera cut, a teleport). */
    reset_history(): void {
        this.#reset_requested = true;
    }

    /**
     * Call at BeforePresent, before its extensions. With `fuse_sharpen` (nothing is recorded between this and the
     * tonemap) the sharpen is left to the tonemap (`TonemapStep.record`'s `sharpen`), which does both in one pass:
     * `SceneColor` is then the resolved history, unsharpened.
     */
    record(frame: FrameContext, enabled: boolean, fuse_sharpen = false): void {
        if (!enabled) return;
        const graph = frame.graph;
        const state = this.#state_for(frame.device);
        const out_w = frame.output_resolution[0];
        const out_h = frame.output_resolution[1];
        const in_w = frame.internal_resolution[0];
        const in_h = frame.internal_resolution[1];
        if (state.history_width !== out_w || state.history_height !== out_h) resize_history(frame.device, state, out_w, out_h);

        const reset =
            this.#reset_requested ||
            state.valid === -1 ||
            state.valid_frame !== graph.frame_index - 1 ||
            state.valid_internal_width !== in_w ||
            state.valid_internal_height !== in_h;
        this.#reset_requested = false;
        const read_index = state.valid === -1 ? 1 : state.valid;
        this.#write_index = 1 - read_index;

        // the jitter this frame was rendered with, as the camera holds it (whoever set it)
        const camera = frame.view.camera;
        this.#current_jitter[0] = camera.data[CAMERA_JITTER];
        this.#current_jitter[1] = camera.data[CAMERA_JITTER + 1];
        this.#state = state;
        this.#reset = reset;
        this.#frame_index = graph.frame_index;
        this.#camera = camera.buffer;
        this.#internal_width = in_w;
        this.#internal_height = in_h;

        const scene = frame.get(SceneColor);
        const pass = graph.add("taa resolve", this, execute_resolve);
        this.#color = pass.read(scene.color);
        this.#depth = pass.read(frame.get(ViewTextures).depth);
        this.#velocity = frame.has(Velocity) ? pass.read(frame.get(Velocity).velocity) : -1;
        this.#history_read = pass.read(graph.import_texture("taa history (previous)", state.history[read_index]!));
        // writing an imported texture keeps the pass: the history must be written every frame
        this.#history_write = pass.write(graph.import_texture("taa history", state.history[this.#write_index]!), "clear");

        if (fuse_sharpen) {
            scene.color = this.#history_write;
            return;
        }
        const output = graph.create("upscaled scene colour", TextureResourceDescriptor.of(out_w, out_h, SCENE_COLOR_FORMAT, SCENE_USAGE));
        scene.color = this.#sharpen.graph_draw(graph, output, this.#history_write);
    }

    /** @internal runs the resolve pass */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#state!;

        // the camera adds the jitter to projection[8], [9]; with w = -z_view that moves the image by -jitter in NDC
        const params = this.#params;
        params[0] = -0.5 * this.#current_jitter[0];
        params[1] = 0.5 * this.#current_jitter[1];
        params[2] = -state.valid_jitter[0];
        params[3] = -state.valid_jitter[1];
        params[4] = this.#reset ? 1 : HISTORY_BLEND;
        device.queue.writeBuffer(state.params, 0, params);

        const with_velocity = this.#velocity !== -1;
        // raster or compute by the device's fullscreen_paths (the sharpen follows the same setting)
        const compute = use_compute(device, "auto");
        const variant = (with_velocity ? 1 : 0) + (compute ? 2 : 0);
        const keys = compute ? (with_velocity ? this.#compute_velocity_keys : this.#compute_keys) : with_velocity ? this.#velocity_keys : this.#keys;
        keys[0] = this.#camera;
        keys[1] = resources.view(this.#color);
        keys[2] = resources.view(this.#depth);
        keys[3] = resources.view(this.#history_read);
        if (with_velocity) keys[4] = resources.view(this.#velocity);
        const built = resolve_variant(device, state, variant);
        if (compute) {
            keys[5] = resources.view(this.#history_write);
            this.#compute_descriptor.timestampWrites = execution.timestamp_writes;
            const pass = execution.encoder.beginComputePass(this.#compute_descriptor);
            pass.setPipeline(built.compute!);
            pass.setBindGroup(0, resolve_group(device, state, variant, keys));
            // integer shifts, not Math.ceil: a double handed to the call would be boxed (16 bytes a frame)
            pass.dispatchWorkgroups((state.history_width + 7) >> 3, (state.history_height + 7) >> 3);
            pass.end();
        } else {
            this.#colors[0] = resources.color_attachment(this.#history_write);
            this.#descriptor.timestampWrites = execution.timestamp_writes;
            const pass = execution.encoder.beginRenderPass(this.#descriptor);
            pass.setPipeline(built.raster!);
            pass.setBindGroup(0, resolve_group(device, state, variant, keys));
            pass.draw(3);
            pass.end();
        }

        state.valid = this.#write_index;
        state.valid_frame = this.#frame_index;
        state.valid_internal_width = this.#internal_width;
        state.valid_internal_height = this.#internal_height;
        state.valid_jitter[0] = this.#current_jitter[0];
        state.valid_jitter[1] = this.#current_jitter[1];
    }

    #box_offsets(width: number, height: number): void {
        const clip = new Float32Array(2);
        for (let phase = 0; phase < this.sequence.phases; phase++) {
            this.sequence.write_clip(phase, width, height, clip);
            this.#boxed[1 + phase * 2] = clip[0];
            this.#boxed[2 + phase * 2] = clip[1];
        }
        this.#boxed_width = width;
        this.#boxed_height = height;
    }

    #state_for(device: GPUDevice): ResolveState {
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = build_resolve_state(device);
            this.#per_device.set(device, state);
        }
        return state;
    }
}

function jitter_phase(frame_number: number, phases: number): number {
    return ((frame_number % phases) + phases) % phases;
}

function execute_resolve(step: UpscaleStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}

/**
 * The TAA sharpen at pixel `p` of input 0 (the resolved history), `fn sharpen_at(p: vec2i) -> vec4f` for a
 * `FullscreenEffect`'s fragment: a 5-tap unsharp mask held inside the taps' range (no halos) and scaled down where
 * the neighbourhood already has contrast (contrast-adaptive, so edges the resolve kept do not ring). The sharpen
 * pass and the tonemap fused with it (`TonemapStep`) both call it.
 */
export const TAA_SHARPEN_WGSL = /* wgsl */ `
fn sharpen_at(p: vec2i) -> vec4f {
    let centre = load_input_0(p);
    let c = centre.rgb;
    let n = load_input_0(p + vec2i(0, -1)).rgb;
    let s = load_input_0(p + vec2i(0, 1)).rgb;
    let e = load_input_0(p + vec2i(1, 0)).rgb;
    let w = load_input_0(p + vec2i(-1, 0)).rgb;
    let low = min(c, min(min(n, s), min(e, w)));
    let high = max(c, max(max(n, s), max(e, w)));
    // contrast in a compressed (x / (1 + x)) space, so HDR highlights do not switch the sharpen off
    let low_c = low / (1.0 + low);
    let high_c = high / (1.0 + high);
    let adapt = sqrt(clamp(min(low_c, 1.0 - high_c) / max(high_c, vec3f(1.0e-4)), vec3f(0.0), vec3f(1.0)));
    let amount = ${SHARPEN_STRENGTH.toFixed(4)} * adapt;
    let sharpened = c + amount * (4.0 * c - n - s - e - w);
    return vec4f(clamp(sharpened, low, high), centre.a);
}
`;
