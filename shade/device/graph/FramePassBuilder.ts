import type { FrameGraphHandle } from "./FrameGraphHandle.js";
import type { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

/**
 * How a write treats what the texture held before.
 * - `"auto"`: the first write of the frame clears; a later write loads (keeps) the previous version.
 * - `"load"`: keep the previous contents, even on the first write of an imported texture.
 * - `"clear"`: start from the clear value; the previous version is not consumed.
 */
export type WriteMode = "auto" | "load" | "clear";

/** The graph side of a builder; implemented by FrameGraph. */
export interface FramePassDeclarations {
    /** Counts frames; a builder handed out in another frame is refused. */
    readonly frame_index: number;
    pass_name(pass: number): string;
    declare_create(pass: number, name: string, descriptor: TextureResourceDescriptor): FrameGraphHandle;
    declare_read(pass: number, handle: FrameGraphHandle): FrameGraphHandle;
    declare_write(pass: number, handle: FrameGraphHandle, mode: WriteMode): FrameGraphHandle;
    declare_side_effect(pass: number): void;
}

/**
 * Declares what one pass creates, reads and writes. Returned by `FrameGraph.add`; valid until the pass's
 * frame is reset.
 */
export class FramePassBuilder {
    readonly #graph: FramePassDeclarations;
    readonly #pass: number;
    /** @internal the frame this builder was handed out for (set by `FrameGraph.add`) */
    frame = -1;

    constructor(graph: FramePassDeclarations, pass: number) {
        this.#graph = graph;
        this.#pass = pass;
    }

    #pass_of_this_frame(): number {
        if (this.frame !== this.#graph.frame_index) {
            throw new Error(
                `Frame graph: the builder of pass '${this.#graph.pass_name(this.#pass)}' was kept from an earlier frame; ` +
                    `a builder is valid only in the frame graph.add returned it - use this frame's builder`,
            );
        }
        return this.#pass;
    }

    /** A new transient texture, alive from this pass on; the graph decides its lifetime. */
    create(name: string, descriptor: TextureResourceDescriptor): FrameGraphHandle {
        return this.#graph.declare_create(this.#pass_of_this_frame(), name, descriptor);
    }

    /** This pass consumes `handle` as it stands (sampling it, copying from it). Returns `handle`. */
    read(handle: FrameGraphHandle): FrameGraphHandle {
        return this.#graph.declare_read(this.#pass_of_this_frame(), handle);
    }

    /**
     * This pass writes the resource behind `handle` and produces its next version, which is returned;
     * `handle` is superseded from here on.
     */
    write(handle: FrameGraphHandle, mode: WriteMode = "auto"): FrameGraphHandle {
        return this.#graph.declare_write(this.#pass_of_this_frame(), handle, mode);
    }

    /** Keep this pass even if nothing consumes what it writes (uploads to buffers the graph cannot see). */
    make_side_effect(): this {
        this.#graph.declare_side_effect(this.#pass_of_this_frame());
        return this;
    }
}
