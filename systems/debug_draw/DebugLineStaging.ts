import { LINE_BYTES, type DebugLines } from "./DebugLines.js";

// slot states
const READY = 0; // mapped, nobody writing into it
const ATTACHED = 1; // mapped, a DebugLines store writes into it
const COPIED = 2; // unmapped, its copy encoded; mapped again once that is submitted (the next frame)
const PENDING = 3; // mapAsync in flight
const DEAD = 4;

interface StagingSlot {
    readonly buffer: GPUBuffer;
    readonly size: number;
    state: number;
    f32: Float32Array<ArrayBuffer>;
    u32: Uint32Array<ArrayBuffer>;
    // bound once per slot: mapAsync's then() gets the same functions every frame
    readonly mapped: () => void;
    readonly failed: () => void;
}

const SLOTS = 3;

/**
 * A staging belt for the one-frame lines: a ring of MAP_WRITE | COPY_SRC buffers (created mapped, mapped again
 * with mapAsync after their copy was submitted). `DebugDrawSystem.line` writes straight into the mapped range of
 * the slot attached to `frame_lines`; the frame unmaps it and records one copyBufferToBuffer into the line
 * buffer, so the lines are written once instead of written and then copied again by `queue.writeBuffer`.
 *
 * When no slot is mapped (mapAsync has not resolved: it needs the event loop) or the lines outgrow the slot,
 * the lines stay in (or move to) the store's CPU arrays and that frame goes up by `writeBuffer`; the slots grow
 * to the largest frame seen.
 *
 * Allocation: each map cycle allocates what the WebGPU API returns (mapAsync's promise and its then(), the
 * mapped ArrayBuffer, two views over it), about 300 bytes, in the mapAsync callback, not in the frame's code.
 */
export class DebugLineStaging {
    readonly #device: GPUDevice;
    readonly #frame: DebugLines;
    readonly #drawn: DebugLines;
    readonly #slots: StagingSlot[] = [];
    #size: number;
    /** Frames that went up from the CPU arrays (no slot mapped, or overflow): for tests and the bench. */
    fallback_frames = 0;
    /** Frames copied from a staging slot. */
    staged_frames = 0;

    /** `frame` is the store being written (staging ranges are attached to it), `drawn` the one a frame took. */
    constructor(device: GPUDevice, frame: DebugLines, drawn: DebugLines) {
        this.#device = device;
        this.#frame = frame;
        this.#drawn = drawn;
        this.#size = Math.max(64, frame.capacity) * LINE_BYTES;
        for (let i = 0; i < SLOTS; i++) this.#slots.push(this.#create(i));
    }

    /** Bytes of a staging buffer (new slots; smaller ones are replaced when next handed out). */
    get size(): number {
        return this.#size;
    }

    /** Slots mapped and free or written into. */
    get mapped_slots(): number {
        let n = 0;
        for (const slot of this.#slots) if (slot.state === READY || slot.state === ATTACHED) n++;
        return n;
    }

    /** A frame of `bytes` did not fit: later slots hold at least that (doubling). */
    want(bytes: number): void {
        let size = this.#size;
        while (size < bytes) size *= 2;
        this.#size = size;
    }

    /**
     * Asks for the mapping of slots whose copy was encoded by an earlier frame. Called before this frame's
     * encoding, when the earlier frame's command buffer has been submitted (mapping a buffer that a pending
     * command buffer uses makes its submit fail).
     */
    remap(): void {
        const slots = this.#slots;
        for (let i = 0; i < slots.length; i++) {
            const slot = slots[i];
            if (slot.state !== COPIED) continue;
            slot.state = PENDING;
            slot.buffer.mapAsync(GPUMapMode.WRITE).then(slot.mapped, slot.failed);
        }
    }

    /**
     * Moves `lines` (staged in a slot) to `dst` at `offset`: the slot is unmapped and copied on `encoder`
     * (without one, written from the mapped range by `writeBuffer`), and `lines` goes back to its CPU arrays.
     */
    copy(lines: DebugLines, count: number, encoder: GPUCommandEncoder | null, dst: GPUBuffer, offset: number): void {
        const slot = this.#slots[lines.slot];
        const bytes = count * LINE_BYTES;
        if (count === 0) {
            lines.unstage(false);
            slot.state = READY;
            return;
        }
        if (encoder !== null) {
            slot.buffer.unmap();
            encoder.copyBufferToBuffer(slot.buffer, 0, dst, offset, bytes);
        } else {
            this.#device.queue.writeBuffer(dst, offset, lines.bytes, 0, bytes);
            slot.buffer.unmap();
        }
        lines.unstage(false);
        slot.state = COPIED;
        this.staged_frames++;
    }

    /**
     * Attaches a mapped slot to the frame store (when empty and on its CPU arrays) if one is ready; first takes
     * back slots that neither store holds any more (a store that outgrew its slot left it). After each upload,
     * and when a mapping resolves (so that the lines written before the next frame are staged).
     */
    attach(): void {
        const lines = this.#frame;
        const drawn = this.#drawn;
        const slots = this.#slots;
        for (let i = 0; i < slots.length; i++) {
            if (slots[i].state === ATTACHED && lines.slot !== i && drawn.slot !== i) slots[i].state = READY;
        }
        if (lines.slot >= 0 || lines.count !== 0) return;
        for (let i = 0; i < slots.length; i++) {
            let slot = slots[i];
            if (slot.state !== READY) continue;
            if (slot.size < this.#size) {
                // too small for the frames seen: replaced by one of the new size, created mapped
                slot.state = DEAD;
                slot.buffer.destroy();
                slot = slots[i] = this.#create(i);
            }
            slot.state = ATTACHED;
            lines.stage(slot.f32, slot.u32, i);
            return;
        }
    }

    destroy(): void {
        for (const slot of this.#slots) {
            slot.state = DEAD;
            slot.buffer.destroy();
        }
    }

    #create(index: number): StagingSlot {
        const size = this.#size;
        const buffer = this.#device.createBuffer({
            label: `debug draw staging ${index}`,
            size,
            usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
            mappedAtCreation: true,
        });
        const range = buffer.getMappedRange();
        const slot: StagingSlot = {
            buffer,
            size,
            state: READY,
            f32: new Float32Array(range),
            u32: new Uint32Array(range),
            mapped: () => {
                if (slot.state !== PENDING) return; // destroyed meanwhile
                const mapped = buffer.getMappedRange();
                slot.f32 = new Float32Array(mapped);
                slot.u32 = new Uint32Array(mapped);
                slot.state = READY;
                this.attach();
            },
            failed: () => {
                slot.state = DEAD; // destroyed or device lost: the frames fall back
            },
        };
        return slot;
    }
}
