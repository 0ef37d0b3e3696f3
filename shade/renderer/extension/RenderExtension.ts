import type { FrameContext } from "./FrameContext.js";
import type { FramePhase } from "./FramePhase.js";

/** A class of render extension, as `after` and `before` name them. */
export type RenderExtensionClass = abstract new (...args: never[]) => RenderExtension;

/**
 * Work that records into the frame graph when its phase comes round. Declare `name`, `phase` and,
 * optionally, `after`/`before` (classes, ordering within the phase); implement `record`. An extension
 * with nothing to draw returns from `record` without recording - the only "off" switch there is.
 */
export abstract class RenderExtension {
    /** Names the extension in errors, graph scopes, GPU debug groups and the dump. */
    abstract name: string;
    abstract phase: FramePhase;
    /** Extensions of these classes in the same phase record before this one. */
    after: readonly RenderExtensionClass[] = [];
    /** Extensions of these classes in the same phase record after this one. */
    before: readonly RenderExtensionClass[] = [];

    /** Records this frame's work; exchanges everything with the frame through its records. */
    abstract record(frame: FrameContext): void;

    /** Releases what the extension owns. Not called by registration; the owner calls it. */
    destroy(): void {}
}
