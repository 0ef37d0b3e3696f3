import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../shade/device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension, type RenderExtensionOwner } from "../../shade/renderer/extension/RenderExtension.js";
import { SceneColor } from "../../shade/renderer/extension/SceneColor.js";
import { HIGHLIGHT_ENTRY_BYTES, STEP_STRIDE } from "./highlight.wgsl.js";
import {
    build_highlight_state,
    destroy_highlight_buffers,
    highlight_composite_pipeline,
    MAX_STEPS,
    SEED_FORMAT,
    type HighlightDeviceState,
} from "./HighlightDeviceState.js";
import { HighlightPicks } from "./HighlightPicks.js";

/** The highlighted objects of a frame, as the system lists them for the extension; the owner named in errors. */
export interface HighlightSource extends RenderExtensionOwner {
    /**
     * Writes this frame's highlighted objects into `entries` (as `HIGHLIGHT_ENTRY_BYTES` records: id u32,
     * width f32, 2 pad, RGBA f32) and returns how many; grows `entries` through `reserve` when needed.
     */
    collect(entries: HighlightEntries): number;
    /** The entity whose mesh has `object_id` (0: none), or null. */
    entity_of_object(object_id: number): number | null;
}

/** The CPU side of the entry buffer. */
export class HighlightEntries {
    bytes = new ArrayBuffer(HIGHLIGHT_ENTRY_BYTES * 16);
    u32 = new Uint32Array(this.bytes);
    f32 = new Float32Array(this.bytes);

    /** Room for `count` entries (grows x2, keeping what is written). */
    reserve(count: number): void {
        if (count * HIGHLIGHT_ENTRY_BYTES <= this.bytes.byteLength) return;
        let size = this.bytes.byteLength;
        while (size < count * HIGHLIGHT_ENTRY_BYTES) size *= 2;
        const bytes = new ArrayBuffer(size);
        new Uint8Array(bytes).set(new Uint8Array(this.bytes));
        this.bytes = bytes;
        this.u32 = new Uint32Array(bytes);
        this.f32 = new Float32Array(bytes);
    }
}

const SEED_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04; /* TEXTURE_BINDING */
const FLOOD_NAMES = Array.from({ length: MAX_STEPS }, (_, k) => `highlight / flood ${1 << k}`);

interface PassData {
    input: FrameGraphHandle;
    ids: FrameGraphHandle;
    output: FrameGraphHandle;
    /** log2 of the flood step. */
    level: number;
    format: GPUTextureFormat;
}

/**
 * Outlines the highlighted objects at AfterTransparency by a jump flood over the G-buffer's object-id
 * target (`GBufferTextures.object_id`, r32uint): "highlight / seed" marks every pixel of a highlighted
 * object with its own position; `ceil(log2(width)) + 1` passes "highlight / flood N" (N = the widest
 * outline's next power of two down to 1) carry the nearest seed to every pixel, so the cost grows with the
 * log of the width, not with a blur kernel's area; "highlight / composite" draws the pixels outside their
 * nearest object within its width, blended over the scene colour. Outlines are drawn over whatever is
 * in front of the object's visible silhouette and before the fog of war (which declares itself after this).
 *
 * Picking: `pick(x, y)` queues a read of the object id under a pixel; the next frame copies that texel to a
 * mappable buffer in a side-effect pass ("highlight / pick") and the promise resolves once the GPU is done.
 * Without a pending pick nothing of it is recorded or allocated.
 */
export class HighlightExtension extends RenderExtension {
    name = "highlight";
    phase = FramePhase.AfterTransparency;

    readonly #source: HighlightSource;
    readonly #entries = new HighlightEntries();
    #count = 0;
    #state: HighlightDeviceState | null = null;
    #destroyed = false;
    readonly #seed_data: PassData = { input: -1, ids: -1, output: -1, level: 0, format: SEED_FORMAT };
    readonly #flood_data: PassData[] = Array.from({ length: MAX_STEPS }, () => ({ input: -1, ids: -1, output: -1, level: 0, format: SEED_FORMAT }));
    readonly #composite_data: PassData = { input: -1, ids: -1, output: -1, level: 0, format: "rgba16float" };
    readonly #pick_data: PassData = { input: -1, ids: -1, output: -1, level: 0, format: "r32uint" };
    readonly #seed: (data: PassData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #flood: (data: PassData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #composite: (data: PassData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #pick: (data: PassData, resources: FrameGraphResources, execution: FrameExecution) => void;
    readonly #attachments: GPURenderPassColorAttachment[] = [];
    readonly #pass: GPURenderPassDescriptor = { label: "highlight", colorAttachments: this.#attachments };
    readonly #seed_keys: unknown[] = [null, null];
    readonly #flood_keys: unknown[] = [null];
    readonly #composite_keys: unknown[] = [null, null, null];
    readonly #seed_params = new Uint32Array(4);
    readonly #dynamic_offset = [0];
    /** Flood passes recorded last frame (for tests and benches). */
    flood_passes = 0;
    /** Pick passes recorded since construction (for tests). */
    pick_passes = 0;

    readonly #picks: HighlightPicks;

    constructor(source: HighlightSource) {
        super(source);
        this.#source = source;
        this.#picks = new HighlightPicks(source);
        this.#seed = (data, resources, execution) => this.#encode_seed(data, resources, execution);
        this.#flood = (data, resources, execution) => this.#encode_flood(data, resources, execution);
        this.#composite = (data, resources, execution) => this.#encode_composite(data, resources, execution);
        this.#pick = (data, resources, execution) => this.#encode_pick(data, resources, execution);
    }

    /** Picks queued and not yet resolved. */
    get pending_picks(): number {
        return this.#picks.pending;
    }

    /**
     * The entity whose mesh covers pixel (x, y) of the internal resolution (the G-buffer's), or null on the
     * sky or a mesh no entity names. Read back from the next frame rendered; resolves when the GPU is done.
     */
    pick(x: number, y: number): Promise<number | null> {
        if (this.#destroyed) return Promise.reject(new Error("HighlightExtension.pick: the extension was destroyed; start the HighlightSystem up again"));
        if (!(Number.isInteger(x) && Number.isInteger(y))) {
            return Promise.reject(new RangeError(`HighlightExtension.pick: (x, y) must be whole pixels, got (${x}, ${y})`));
        }
        return this.#picks.queue(x, y);
    }

    override record(frame: FrameContext): void {
        if (this.#destroyed) throw new Error("HighlightExtension 'highlight' used after destroy(); start the HighlightSystem up again");
        const entries = this.#entries;
        const count = (this.#count = this.#source.collect(entries));
        const picking = this.#picks.ready;
        this.flood_passes = 0;
        if (count === 0 && !picking) return;
        const graph = frame.graph;
        const ids = frame.get(GBufferTextures).object_id;
        if (picking) this.#record_pick(frame, ids);
        if (count === 0) return;

        let widest = 0;
        const f32 = entries.f32;
        for (let e = 0; e < count; e++) widest = Math.max(widest, f32[e * 8 + 1]);
        // steps 2^k .. 1 with 2^k >= the width: the sum of the steps reaches every pixel within it
        let levels = 1;
        while (1 << (levels - 1) < widest && levels < MAX_STEPS) levels++;

        const size = graph.describe(ids);
        const seed_descriptor = TextureResourceDescriptor.of(size.width, size.height, SEED_FORMAT, SEED_USAGE);
        const seed = this.#seed_data;
        let builder = graph.add("highlight / seed", seed, this.#seed);
        seed.ids = builder.read(ids);
        seed.output = builder.write(builder.create("highlight seeds", seed_descriptor));
        let seeds = seed.output;
        for (let level = levels - 1; level >= 0; level--) {
            const data = this.#flood_data[level];
            data.level = level;
            builder = graph.add(FLOOD_NAMES[level], data, this.#flood);
            data.input = builder.read(seeds);
            data.output = builder.write(builder.create("highlight seeds", seed_descriptor));
            seeds = data.output;
        }
        this.flood_passes = levels;
        const scene = frame.get(SceneColor);
        const composite = this.#composite_data;
        composite.format = graph.describe(scene.color).format;
        builder = graph.add("highlight / composite", composite, this.#composite);
        composite.input = builder.read(seeds);
        composite.ids = builder.read(ids);
        composite.output = builder.write(scene.color, "load");
        scene.color = composite.output;
    }

    override destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        const state = this.#state;
        this.#state = null;
        // an in-flight read keeps its buffer until it resolves
        if (state !== null) destroy_highlight_buffers(state, this.#picks.in_flight);
        this.#picks.destroy();
        this.#attachments.length = 0;
    }

    #record_pick(frame: FrameContext, ids: FrameGraphHandle): void {
        const size = frame.describe(ids);
        if (!this.#picks.next_within(size.width, size.height)) return;
        const data = this.#pick_data;
        const builder = frame.graph.add("highlight / pick", data, this.#pick);
        data.ids = builder.read(ids);
        builder.make_side_effect();
        this.pick_passes++;
    }

    #encode_pick(data: PassData, resources: FrameGraphResources, execution: FrameExecution): void {
        // none left when destroyed since recording: no device state is made for it
        if (!this.#picks.queued) return;
        const state = this.#device_state(execution.graphics);
        this.#picks.encode(execution.encoder, resources.texture(data.ids), state.pick_buffer);
    }

    #encode_seed(data: PassData, resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#device_state(device);
        const count = this.#count;
        const entries = this.#entries;
        const bytes = count * HIGHLIGHT_ENTRY_BYTES;
        if (state.entries.size < bytes) {
            state.entries.destroy();
            state.entries = device.createBuffer({ label: "highlight entries", size: entries.bytes.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
            state.groups.clear();
        }
        device.queue.writeBuffer(state.entries, 0, entries.bytes, 0, bytes);
        this.#seed_params[0] = count;
        device.queue.writeBuffer(state.seed_params, 0, this.#seed_params);
        const ids = resources.view(data.ids);
        const keys = this.#seed_keys;
        keys[0] = ids;
        keys[1] = state.entries;
        let group = state.groups.find(keys);
        if (group === null) {
            group = state.groups.add(
                keys,
                device.createBindGroup({
                    label: "highlight seed bind group",
                    layout: state.seed_layout,
                    entries: [
                        { binding: 0, resource: ids },
                        { binding: 1, resource: { buffer: state.entries } },
                        { binding: 2, resource: { buffer: state.seed_params } },
                    ],
                }),
            );
        }
        this.#draw(resources, execution, data.output, state.seed_pipeline, group, "highlight / seed");
    }

    #encode_flood(data: PassData, resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#device_state(device);
        const input = resources.view(data.input);
        const keys = this.#flood_keys;
        keys[0] = input;
        let group = state.groups.find(keys);
        if (group === null) {
            group = state.groups.add(
                keys,
                device.createBindGroup({
                    label: "highlight flood bind group",
                    layout: state.flood_layout,
                    entries: [
                        { binding: 0, resource: input },
                        { binding: 1, resource: { buffer: state.steps, size: 16 } },
                    ],
                }),
            );
        }
        this.#dynamic_offset[0] = data.level * STEP_STRIDE;
        this.#draw(resources, execution, data.output, state.flood_pipeline, group, FLOOD_NAMES[data.level], this.#dynamic_offset);
    }

    #encode_composite(data: PassData, resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        const state = this.#device_state(device);
        const seeds = resources.view(data.input);
        const ids = resources.view(data.ids);
        const keys = this.#composite_keys;
        keys[0] = seeds;
        keys[1] = ids;
        keys[2] = state.entries;
        let group = state.groups.find(keys);
        if (group === null) {
            group = state.groups.add(
                keys,
                device.createBindGroup({
                    label: "highlight composite bind group",
                    layout: state.composite_layout,
                    entries: [
                        { binding: 0, resource: seeds },
                        { binding: 1, resource: ids },
                        { binding: 2, resource: { buffer: state.entries } },
                    ],
                }),
            );
        }
        this.#draw(resources, execution, data.output, highlight_composite_pipeline(state, data.format), group, "highlight / composite");
    }

    #draw(
        resources: FrameGraphResources,
        execution: FrameExecution,
        output: FrameGraphHandle,
        pipeline: GPURenderPipeline,
        group: GPUBindGroup,
        label: string,
        offsets?: number[],
    ): void {
        this.#attachments[0] = resources.color_attachment(output);
        this.#pass.label = label;
        this.#pass.timestampWrites = execution.timestamp_writes;
        const pass = execution.encoder.beginRenderPass(this.#pass);
        pass.setPipeline(pipeline);
        if (offsets === undefined) pass.setBindGroup(0, group);
        else pass.setBindGroup(0, group, offsets);
        pass.draw(3);
        pass.end();
    }

    #device_state(device: GPUDevice): HighlightDeviceState {
        const current = this.#state;
        if (current !== null && current.device === device) return current;
        if (current !== null) destroy_highlight_buffers(current, this.#picks.in_flight);
        const state = build_highlight_state(device, this.#entries.bytes.byteLength);
        this.#state = state;
        return state;
    }
}
