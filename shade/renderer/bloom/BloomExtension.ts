import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { FramePhase } from "../extension/FramePhase.js";
import { RenderExtension } from "../extension/RenderExtension.js";
import { SceneColor } from "../extension/SceneColor.js";
import { check_fullscreen_path, use_compute, type FullscreenPath } from "../fullscreen/FullscreenPath.js";
import { BloomPipelines, type BloomPassKind } from "./BloomPipelines.js";
import { bloom_level_count, MAX_BLOOM_LEVELS } from "./bloom_level_count.js";
import { BLOOM_FORMAT } from "./bloom_wgsl.js";

export interface BloomOptions {
    /**
     * The share of the picture that becomes glow: the output is `mix(scene, bloom, intensity)`, in [0, 1].
     * Default 0.04 (Jimenez 2014). 0 records nothing: the scene colour passes through untouched.
     */
    readonly intensity?: number;
    /** How far each upsample's 3x3 tent reaches, in texels of the smaller level, in (0, 8]. Default 1. */
    readonly radius?: number;
    /**
     * Levels of the mip chain below the scene colour, 1 to 12, each half the size of the one above. Default 6.
     * Clamped each frame to what the size allows (the smallest level at least one texel high and wide).
     */
    readonly levels?: number;
    /** Raster, compute or "auto" (default: the device's `fullscreen_paths`, else the measured rule). */
    readonly path?: FullscreenPath;
}

/** What one bloom pass reads and writes, filled by `record` and read by its execute. */
interface BloomPass {
    readonly kind: BloomPassKind;
    compute: boolean;
    /** The level (downsample), this level's downsample (upsample) or the scene colour (composite). */
    a: FrameGraphHandle;
    /** The same as `a` (downsample), or the upsampled smaller level. */
    b: FrameGraphHandle;
    output: FrameGraphHandle;
    width: number;
    height: number;
    pipelines: BloomPipelines | null;
}

const DEFAULT_INTENSITY = 0.04;
const DEFAULT_RADIUS = 1;
const DEFAULT_LEVELS = 6;
const MAX_RADIUS = 8;
// the raster path draws into the levels, the compute path stores into them; the composite is the scene colour
// from here on (read back, copied)
const LEVEL_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x08 /* STORAGE_BINDING */ | 0x04 /* TEXTURE_BINDING */;
const SCENE_USAGE = LEVEL_USAGE | 0x01 /* COPY_SRC */;

// pass and texture names, made once (a template string per frame allocates)
const DOWNSAMPLE_NAMES = numbered("bloom downsample");
const UPSAMPLE_NAMES = numbered("bloom upsample");
const LEVEL_NAMES = numbered("bloom level");
const UPSAMPLED_NAMES = numbered("bloom upsampled level");

function numbered(name: string): string[] {
    const names: string[] = [];
    for (let k = 1; k <= MAX_BLOOM_LEVELS; k++) names.push(`${name} ${k}`);
    return names;
}

/**
 * Physically based bloom on the HDR scene colour at BeforePresent, before the tonemap (Jimenez 2014, as Unity,
 * Bevy and Blender do it): the scene colour is downsampled level by level with a 13-tap filter, the levels are
 * added back up from the smallest with a 3x3 tent filter, and their average is mixed into the scene with
 * `intensity`. No threshold, and a mix rather than an add: the picture's energy is kept, a share of it spread to
 * the neighbours, so only what is bright enough to show (emissive surfaces, highlights) visibly glows.
 *
 * No Karis average on the first downsample: it weights bright texels down, which loses energy around every
 * bright edge; fireflies are left to the TAA. The chain is `rgba16float` (storage and render everywhere;
 * `rg11b10ufloat` is not a storage format in core WebGPU). 2 x levels passes: raster or compute as the other
 * full-screen steps choose (`use_compute`); the new scene colour is a graph transient at the output size.
 */
export class BloomExtension extends RenderExtension {
    name = "bloom";
    phase = FramePhase.BeforePresent;

    #intensity = DEFAULT_INTENSITY;
    #radius = DEFAULT_RADIUS;
    #levels = DEFAULT_LEVELS;
    #path: FullscreenPath = "auto";
    #pipelines: BloomPipelines | null = null;
    readonly #params = new Float32Array(4);
    // what the uniform block holds: written again only when a value changes
    readonly #written = new Float32Array(4);
    readonly #downsamples: BloomPass[] = [];
    readonly #upsamples: BloomPass[] = [];
    readonly #composite = bloom_pass(2);
    readonly #levels_now: FrameGraphHandle[] = [];

    constructor(options: BloomOptions = {}) {
        super();
        if (options.intensity !== undefined) this.intensity = options.intensity;
        if (options.radius !== undefined) this.radius = options.radius;
        if (options.levels !== undefined) this.levels = options.levels;
        if (options.path !== undefined) this.path = options.path;
        for (let k = 0; k < MAX_BLOOM_LEVELS; k++) {
            this.#downsamples.push(bloom_pass(0));
            this.#upsamples.push(bloom_pass(1));
            this.#levels_now.push(-1);
        }
    }

    /** The share of the picture that becomes glow, in [0, 1]; 0 records nothing. */
    get intensity(): number {
        return this.#intensity;
    }

    set intensity(value: number) {
        if (!(value >= 0 && value <= 1)) throw new RangeError(`BloomExtension '${this.name}': intensity must be in [0, 1], got ${value}`);
        this.#intensity = value;
    }

    /** The upsample tent's reach in texels of the smaller level, in (0, 8]. */
    get radius(): number {
        return this.#radius;
    }

    set radius(value: number) {
        if (!(value > 0 && value <= MAX_RADIUS)) throw new RangeError(`BloomExtension '${this.name}': radius must be in (0, ${MAX_RADIUS}] texels, got ${value}`);
        this.#radius = value;
    }

    /** Levels of the mip chain asked for, 1 to 12 (clamped to the size each frame: see `bloom_level_count`). */
    get levels(): number {
        return this.#levels;
    }

    set levels(value: number) {
        if (!(value >= 1 && value <= MAX_BLOOM_LEVELS) || (value | 0) !== value) {
            throw new RangeError(`BloomExtension '${this.name}': levels must be a whole number in [1, ${MAX_BLOOM_LEVELS}], got ${value}`);
        }
        this.#levels = value;
    }

    /** Raster, compute or "auto". */
    get path(): FullscreenPath {
        return this.#path;
    }

    set path(value: FullscreenPath) {
        this.#path = check_fullscreen_path(value, `BloomExtension '${this.name}'`);
    }

    record(frame: FrameContext): void {
        if (this.#intensity === 0) return;
        const device = frame.device;
        const pipelines = this.#pipelines_for(device);
        const compute = use_compute(device, this.#path);
        const graph = frame.graph;
        const scene = frame.get(SceneColor);
        const d = frame.describe(scene.color);
        const levels = bloom_level_count(d.width, d.height, this.#levels);
        this.#write_params(pipelines, levels);

        // down: each level from the one above, the first from the scene colour
        let source = scene.color;
        for (let k = 0; k < levels; k++) {
            const pass = this.#downsamples[k];
            const builder = graph.add(DOWNSAMPLE_NAMES[k], pass, execute_bloom_pass);
            pass.a = pass.b = builder.read(source);
            pass.width = Math.max(1, d.width >> (k + 1));
            pass.height = Math.max(1, d.height >> (k + 1));
            const level = builder.create(LEVEL_NAMES[k], TextureResourceDescriptor.of(pass.width, pass.height, BLOOM_FORMAT, LEVEL_USAGE));
            source = this.#levels_now[k] = pass.output = builder.write(level, "clear");
            pass.compute = compute;
            pass.pipelines = pipelines;
        }
        // up: each level plus the tent of the sum of the smaller ones, from the smallest (which is its own sum)
        let smaller = source;
        for (let k = levels - 2; k >= 0; k--) {
            const below = this.#downsamples[k];
            const pass = this.#upsamples[k];
            const builder = graph.add(UPSAMPLE_NAMES[k], pass, execute_bloom_pass);
            pass.a = builder.read(this.#levels_now[k]);
            pass.b = builder.read(smaller);
            pass.width = below.width;
            pass.height = below.height;
            const sum = builder.create(UPSAMPLED_NAMES[k], TextureResourceDescriptor.of(pass.width, pass.height, BLOOM_FORMAT, LEVEL_USAGE));
            smaller = pass.output = builder.write(sum, "clear");
            pass.compute = compute;
            pass.pipelines = pipelines;
        }
        // the average of the levels, tent-filtered up to the scene's size, mixed into a new scene colour
        const pass = this.#composite;
        const builder = graph.add("bloom composite", pass, execute_bloom_pass);
        pass.a = builder.read(scene.color);
        pass.b = builder.read(smaller);
        pass.width = d.width;
        pass.height = d.height;
        const output = builder.create("bloom scene colour", TextureResourceDescriptor.of(d.width, d.height, BLOOM_FORMAT, SCENE_USAGE));
        scene.color = pass.output = builder.write(output, "clear");
        pass.compute = compute;
        pass.pipelines = pipelines;
    }

    override destroy(): void {
        this.#pipelines?.destroy();
        this.#pipelines = null;
    }

    #pipelines_for(device: GPUDevice): BloomPipelines {
        const current = this.#pipelines;
        if (current !== null && current.device === device) return current;
        // a new device (a restart, a lost device): the old one's objects go with it
        current?.destroy();
        this.#written.fill(Number.NaN);
        return (this.#pipelines = new BloomPipelines(device, this.name));
    }

    #write_params(pipelines: BloomPipelines, levels: number): void {
        const params = this.#params;
        params[0] = this.#intensity;
        params[1] = this.#radius;
        params[2] = 1 / levels;
        const written = this.#written;
        if (params[0] === written[0] && params[1] === written[1] && params[2] === written[2]) return;
        written.set(params);
        pipelines.device.queue.writeBuffer(pipelines.params, 0, params);
    }
}

function bloom_pass(kind: BloomPassKind): BloomPass {
    return { kind, compute: false, a: -1, b: -1, output: -1, width: 1, height: 1, pipelines: null };
}

function execute_bloom_pass(pass: BloomPass, resources: FrameGraphResources, execution: FrameExecution): void {
    const pipelines = pass.pipelines!;
    const a = resources.view(pass.a);
    const b = pass.b === pass.a ? a : resources.view(pass.b);
    if (pass.compute) {
        const compute = pipelines.compute;
        const descriptor = compute.descriptors[pass.kind];
        descriptor.timestampWrites = execution.timestamp_writes;
        const encoder = execution.encoder.beginComputePass(descriptor);
        encoder.setPipeline(compute.pipelines[pass.kind]);
        encoder.setBindGroup(0, pipelines.compute_group(a, b, resources.view(pass.output)));
        // integer shifts, not Math.ceil: a double handed to the call would be boxed
        encoder.dispatchWorkgroups((pass.width + 7) >> 3, (pass.height + 7) >> 3);
        encoder.end();
        return;
    }
    const raster = pipelines.raster;
    raster.attachments[0] = resources.color_attachment(pass.output);
    const descriptor = raster.descriptors[pass.kind];
    descriptor.timestampWrites = execution.timestamp_writes;
    const encoder = execution.encoder.beginRenderPass(descriptor);
    encoder.setPipeline(raster.pipelines[pass.kind]);
    encoder.setBindGroup(0, pipelines.raster_group(a, b));
    encoder.draw(3);
    encoder.end();
}
