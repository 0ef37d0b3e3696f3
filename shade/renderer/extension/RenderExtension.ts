import type { FrameContext } from "./FrameContext.js";
import type { FramePhase } from "./FramePhase.js";
import type { FrameProductClass } from "../products/FrameProduct.js";

/** A class of render extension, as `after` and `before` name them. */
export type RenderExtensionClass = abstract new (...args: never[]) => RenderExtension;

/**
 * Work that records into the frame graph when its phase comes round. Declare `name`, `phase` and,
 * optionally, `after`/`before` (classes, ordering within the phase); implement `record`. An extension
 * with nothing to draw returns from `record` without recording - the only "off" switch there is.
 *
 * `name`, `phase` and `record` have no defaults: `add_extension` refuses an extension that lacks one, with a
 * message naming its class. They are not abstract so that a subclass written as the seed writes it (fields
 * and methods without `override`, a class that only declares its order) type-checks as it stands.
 */
export class RenderExtension {
    /** Names the extension in errors, graph scopes, GPU debug groups and the dump; unique within its phase. */
    declare name: string;
    declare phase: FramePhase;
    /** Extensions of these classes in the same phase record before this one. */
    after: readonly RenderExtensionClass[] = [];
    /** Extensions of these classes in the same phase record after this one. */
    before: readonly RenderExtensionClass[] = [];
    /**
     * Optional frame products this extension reads (e.g. `SceneColorCopy`): the renderer makes each at this
     * extension's phase only while some extension there declares it. Checked at `add_extension`.
     */
    requires: readonly FrameProductClass[] = [];

    /** Records this frame's work; exchanges everything with the frame through its records. */
    record(frame: FrameContext): void {
        void frame;
        throw new Error(`render extension '${this.name}' (${this.constructor.name}) does not implement record(frame)`);
    }

    /** Releases what the extension owns. Not called by registration; the owner calls it. */
    destroy(): void {}
}
