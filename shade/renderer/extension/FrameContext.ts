import type { FrameGraph } from "../../device/graph/FrameGraph.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import { FramePhase } from "./FramePhase.js";
import { frame_phase_name } from "./frame_phase_name.js";
import { phases_carrying, type FrameRecord, type FrameRecordClass, type FrameRecordHost } from "./FrameRecord.js";
import type { RenderView } from "./RenderView.js";
import type { Scene } from "../scene/Scene.js";

interface RecordEntry {
    /** The record of the current (or last) frame: `ring[slot]`. */
    record: FrameRecord;
    serial: number;
    /**
     * Instances used in turn, one per frame. A record kept past its frame is then a different object from the
     * next frames' record, so its guard sees the old frame's serial and asserts instead of silently reading the
     * new frame's handles. Development builds rotate `RECORD_RING` instances (a record kept up to that many
     * frames is caught); production builds, whose guards are stripped, reuse one.
     */
    ring: FrameRecord[];
    slot: number;
    // what mark_records() saw, for rollback_records()
    live_at_mark: boolean;
    publications_at_mark: number;
    saved_at_mark: boolean;
}

const RECORD_RING = __SHADE_DEBUG__ ? 4 : 1;

/**
 * What an extension is handed when its phase comes round: the frame's graph, the view, the resolution of
 * this side of the upscale, and the frame's records (`has`/`get`/`create`, keyed by record class).
 */
export class FrameContext implements FrameRecordHost {
    readonly #graph: FrameGraph;
    readonly view: RenderView;

    readonly #internal = new Uint32Array(2);
    readonly #output = new Uint32Array(2);
    readonly #records = new Map<FrameRecordClass, RecordEntry>();
    // the same entries as a list, walked without an iterator by mark/rollback
    readonly #entries: RecordEntry[] = [];
    #phase: FramePhase = FramePhase.FrameStart;
    #serial = 0;
    #closed = true;

    readonly #device: GPUDevice | null;
    #scene: Scene | null = null;

    constructor(graph: FrameGraph, view: RenderView, device: GPUDevice | null = null) {
        this.#graph = graph;
        this.view = view;
        this.#device = device;
    }

    /**
     * The frame's graph: record passes into it. Valid only while the frame is open (inside `record`); a
     * FrameContext kept past its frame refuses, rather than record into whatever frame comes next.
     */
    get graph(): FrameGraph {
        if (this.#closed) graph_after_close();
        return this.#graph;
    }

    /**
     * The device this frame renders with, for GPU objects an extension owns across frames (keep them in a
     * cache keyed by device: a restart or a lost device brings a new one).
     */
    get device(): GPUDevice {
        if (this.#device === null) throw new Error("FrameContext.device: this frame has no GPU device (a device-independent test frame)");
        return this.#device;
    }

    /**
     * What the renderer draws this frame (meshes, the sun, lights): for extensions that draw the scene again
     * from elsewhere, such as a shadow map from the sun.
     */
    get scene(): Scene {
        if (this.#scene === null) throw new Error("FrameContext.scene: this frame has no scene (a frame not opened by a Renderer)");
        return this.#scene;
    }

    /** @internal the renderer sets the scene it draws before each frame */
    bind_scene(scene: Scene): void {
        this.#scene = scene;
    }

    /** The phase now recording. */
    get phase(): FramePhase {
        return this.#phase;
    }

    /** @internal identifies the open frame; records compare against it */
    get frame_serial(): number {
        return this.#serial;
    }

    /** True between frames: records and handles of the last frame are dead. */
    get closed(): boolean {
        return this.#closed;
    }

    /**
     * `[width, height]` in pixels of this side of the upscale: the internal resolution up to
     * AfterTransparency, the output resolution at BeforePresent and Overlay. Never a constant: it follows the
     * live target size and the resolution scale.
     */
    get resolution(): Readonly<Uint32Array> {
        return this.#phase <= FramePhase.AfterTransparency ? this.#internal : this.#output;
    }

    /** The internal (pre-upscale) resolution, whatever the phase. */
    get internal_resolution(): Readonly<Uint32Array> {
        return this.#internal;
    }

    /** The output (post-upscale) resolution, whatever the phase. */
    get output_resolution(): Readonly<Uint32Array> {
        return this.#output;
    }

    /** The descriptor (size, format) of a handle: how work across the upscale learns the ratio. */
    describe(handle: FrameGraphHandle): TextureResourceDescriptor {
        return this.graph.describe(handle);
    }

    /** Whether this frame carries a `type` record now (absent and empty stay distinguishable). */
    has(type: FrameRecordClass): boolean {
        if (!type.is_present_at(this.#phase)) return false;
        const entry = this.#records.get(type);
        return entry !== undefined && entry.serial === this.#serial;
    }

    /** The frame's `type` record; throws a sentence naming the phases that carry it when absent. */
    get<R extends FrameRecord>(type: FrameRecordClass<R>): R {
        this.#expect_open(type, "get");
        if (!type.is_present_at(this.#phase)) {
            throw new Error(
                `frame.get(${type.name}) at ${frame_phase_name(this.#phase)}: ${type.name} is not carried at ${frame_phase_name(this.#phase)}; ` +
                    `it is carried at ${phases_carrying(type)}`,
            );
        }
        const entry = this.#records.get(type);
        if (entry === undefined || entry.serial !== this.#serial) {
            throw new Error(
                `frame.get(${type.name}) at ${frame_phase_name(this.#phase)}: nothing created a ${type.name} this frame ` +
                    `(it can be carried at ${phases_carrying(type)}); test with frame.has(${type.name}) first`,
            );
        }
        return entry.record as R;
    }

    /** Adds a `type` record to this frame; throws if the frame already carries one. */
    create<R extends FrameRecord>(type: FrameRecordClass<R>): R {
        this.#expect_open(type, "create");
        if (!type.is_present_at(this.#phase)) {
            throw new Error(
                `frame.create(${type.name}) at ${frame_phase_name(this.#phase)}: ${type.name} is not carried at ${frame_phase_name(this.#phase)}; ` +
                    `it is carried at ${phases_carrying(type)}`,
            );
        }
        let entry = this.#records.get(type);
        if (entry !== undefined && entry.serial === this.#serial) {
            throw new Error(
                `frame.create(${type.name}) at ${frame_phase_name(this.#phase)}: this frame already carries a ${type.name}; ` +
                    `read it with frame.get(${type.name})`,
            );
        }
        if (entry === undefined) {
            const record = new type();
            entry = { record, serial: this.#serial, ring: [record], slot: 0, live_at_mark: false, publications_at_mark: 0, saved_at_mark: false };
            this.#records.set(type, entry);
            this.#entries.push(entry);
        } else {
            entry.serial = this.#serial;
            const slot = (entry.slot + 1) % RECORD_RING;
            entry.slot = slot;
            const kept = entry.ring[slot];
            // a record that can clear itself is reused: no garbage per frame for the built-ins once the ring is full
            if (kept !== undefined && kept.reset_for_reuse()) entry.record = kept;
            else entry.record = entry.ring[slot] = new type();
        }
        entry.record.attach(this);
        return entry.record as R;
    }

    /** @internal saves the state of every record of this frame before one extension records */
    mark_records(): void {
        const entries = this.#entries;
        for (let i = 0; i < entries.length; i++) {
            const entry = entries[i];
            entry.live_at_mark = entry.serial === this.#serial;
            if (!entry.live_at_mark) continue;
            entry.publications_at_mark = entry.record.publications;
            entry.saved_at_mark = entry.record.save_state();
        }
    }

    /**
     * @internal undoes what one failed extension did to the records since `mark_records`: records it created
     * are withdrawn, records it published into are restored (or withdrawn when they cannot restore)
     */
    rollback_records(): void {
        const entries = this.#entries;
        for (let i = 0; i < entries.length; i++) {
            const entry = entries[i];
            if (entry.serial !== this.#serial) continue;
            if (!entry.live_at_mark) {
                entry.serial = -1;
            } else if (entry.record.publications !== entry.publications_at_mark) {
                if (entry.saved_at_mark) entry.record.restore_state();
                else entry.serial = -1;
            }
        }
    }

    /** @internal opens a frame at FrameStart with the two resolutions of this frame */
    begin(internal_width: number, internal_height: number, output_width: number, output_height: number): void {
        this.#serial++;
        this.#closed = false;
        this.#phase = FramePhase.FrameStart;
        this.#internal[0] = internal_width;
        this.#internal[1] = internal_height;
        this.#output[0] = output_width;
        this.#output[1] = output_height;
    }

    /** @internal moves the frame to the next phase */
    enter(phase: FramePhase): void {
        this.#phase = phase;
    }

    /** @internal closes the frame: every record of it is dead from here on */
    close(): void {
        this.#closed = true;
        this.#serial++;
    }

    #expect_open(type: FrameRecordClass, verb: string): void {
        if (this.#closed) {
            throw new Error(`frame.${verb}(${type.name}) after the frame closed; a FrameContext is valid only inside record()`);
        }
    }
}

// kept out of the getter so that the getter stays small enough to inline
function graph_after_close(): never {
    throw new Error("frame.graph used after the frame closed; a FrameContext is valid only inside record() - record passes from record(frame)");
}
