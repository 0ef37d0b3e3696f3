import type { FrameContext } from "./FrameContext.js";
import type { FramePhase } from "./FramePhase.js";
import type { FrameProductClass } from "../products/FrameProduct.js";
import { extension_label } from "./extension_label.js";

/** A class of render extension, as `after` and `before` name them. */
export type RenderExtensionClass = abstract new (...args: never[]) => RenderExtension;

/**
 * Who registered an extension: a game system, usually (`new MarkerExtension(this)` in its `startup`). Typed by
 * shape, so that the renderer knows nothing of the engine; its `name` is shown by `describe()`, the inspector
 * and every `RenderExtensionError`.
 */
export interface RenderExtensionOwner {
    readonly name: string;
}

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
    /** Who owns the extension (the system that passed itself to the constructor), or null. */
    readonly owner: RenderExtensionOwner | null;
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

    /** `owner`: what registers the extension, named beside it in errors and `describe()` (the seed passes `this`). */
    constructor(owner: RenderExtensionOwner | null = null) {
        this.owner = owner;
    }

    /** Records this frame's work; exchanges everything with the frame through its records. */
    record(frame: FrameContext): void {
        void frame;
        throw new Error(`render extension ${extension_label(this)} (${this.constructor.name}) does not implement record(frame)`);
    }

    /** Releases what the extension owns. Not called by registration; the owner calls it. */
    destroy(): void {}
}
