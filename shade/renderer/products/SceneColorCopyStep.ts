import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import { SceneColorCopy } from "./SceneColorCopy.js";

const COPY_USAGE = 0x04 /* TEXTURE_BINDING */ | 0x02 /* COPY_DST */ | 0x01 /* COPY_SRC */;

/** One copy of one frame: a frame can copy at several phases, each executed after all are recorded. */
interface CopySlot {
    source: FrameGraphHandle;
    copy: FrameGraphHandle;
    readonly size: { width: number; height: number };
    readonly from: GPUTexelCopyTextureInfo;
    readonly to: GPUTexelCopyTextureInfo;
}

/** Makes `SceneColorCopy`: one texture copy of the scene colour per phase that wants one, pass "scene colour copy". */
export class SceneColorCopyStep {
    readonly #slots: CopySlot[] = [];
    #cursor = 0;
    #frame = -1;

    record(frame: FrameContext): void {
        const graph = frame.graph;
        if (graph.frame_index !== this.#frame) {
            this.#frame = graph.frame_index;
            this.#cursor = 0;
        }
        let slot = this.#slots[this.#cursor];
        if (slot === undefined) {
            const unset = null as unknown as GPUTexture;
            slot = { source: -1, copy: -1, size: { width: 0, height: 0 }, from: { texture: unset }, to: { texture: unset } };
            this.#slots.push(slot);
        }
        this.#cursor++;
        const source = frame.get(SceneColor).color;
        const d = graph.describe(source);
        const pass = graph.add("scene colour copy", slot, execute_copy);
        slot.source = pass.read(source);
        slot.copy = pass.write(pass.create("scene colour copy", TextureResourceDescriptor.of(d.width, d.height, d.format, COPY_USAGE)));
        // made per phase: one made at an earlier phase is still carried, and takes this phase's copy
        (frame.has(SceneColorCopy) ? frame.get(SceneColorCopy) : frame.create(SceneColorCopy)).provide(slot.copy, frame);
    }
}

function execute_copy(slot: CopySlot, resources: FrameGraphResources, execution: FrameExecution): void {
    const d = resources.descriptor(slot.source);
    slot.from.texture = resources.texture(slot.source);
    slot.to.texture = resources.texture(slot.copy);
    slot.size.width = d.width;
    slot.size.height = d.height;
    execution.encoder.copyTextureToTexture(slot.from, slot.to, slot.size);
}
