import type { FrameContext } from "./FrameContext.js";
import { FRAME_PHASES, FramePhase } from "./FramePhase.js";
import { frame_phase_name } from "./frame_phase_name.js";
import { FrameGraphMark } from "../../device/graph/FrameGraphMark.js";
import { RenderExtension } from "./RenderExtension.js";
import { RenderExtensionError } from "./RenderExtensionError.js";
import { resolve_extension_order } from "./resolve_extension_order.js";
import { extension_label } from "./extension_label.js";
import { is_frame_product_class } from "../products/FrameProduct.js";
import { phases_carrying } from "./FrameRecord.js";

/** The resolved pipeline as plain data: `RenderExtensionRegistry.describe()`. */
export interface RenderPipelineDescription {
    readonly phases: readonly {
        readonly phase: FramePhase;
        readonly name: string;
        readonly extensions: readonly {
            readonly name: string;
            readonly class: string;
            /** The owner's name (the system that registered it), or null. */
            readonly owner: string | null;
            readonly position: number;
            /** Which constraints put it where it is (or that none did and name order decided). */
            readonly placed_by: readonly string[];
        }[];
    }[];
}

/**
 * The registered extensions, ordered per phase at registration. Recording walks them in that order, each
 * inside a graph scope named after it.
 */
export class RenderExtensionRegistry {
    /**
     * Fault isolation. When set, an extension whose `record` throws (or leaves scopes unbalanced) has what it
     * recorded rolled back, is reported here once and is suspended; the rest of the frame records as if it
     * were not registered. Suspended extensions are retried after any registration change or `retry_suspended()`.
     * When null, the failure is thrown (wrapped) and the caller drops the frame.
     */
    on_failure: ((error: RenderExtensionError) => void) | null = null;

    readonly #phases: RenderExtension[][] = FRAME_PHASES.map(() => []);
    readonly #suspended = new Set<RenderExtension>();
    readonly #mark = new FrameGraphMark();
    // which extension recorded into each scope of the current frame (by scope index), and at which phase
    readonly #scope_owner: (RenderExtension | null)[] = [];
    readonly #scope_phase: FramePhase[] = [];
    #scope_frame = -1;
    #placed_by = new Map<RenderExtension, string[]>();
    #recording: RenderExtension | null = null;
    #recording_phase: FramePhase = FramePhase.FrameStart;
    // the `requires` array each extension was last checked with
    readonly #checked_requires = new WeakMap<RenderExtension, readonly unknown[]>();

    /** Registers `extension` and resolves its phase's order; returns it. A cycle throws and changes nothing. */
    add<E extends RenderExtension>(extension: E): E {
        this.#expect_not_recording("add_extension", extension);
        validate_extension(extension);
        this.#checked_requires.set(extension, extension.requires);
        if (this.has(extension)) {
            throw new Error(`add_extension: render extension ${extension_label(extension)} is already registered`);
        }
        const list = this.#phases[extension.phase];
        const namesake = list.find((e) => e.name === extension.name);
        if (namesake !== undefined) {
            // ties are broken by name: two of one name would be ordered by registration, which names exist to prevent
            throw new Error(
                `add_extension: ${frame_phase_name(extension.phase)} already has a render extension named '${extension.name}' ` +
                    `(${namesake.constructor.name}${namesake.owner !== null ? ` of ${namesake.owner.name}` : ""}); names order the extensions of a phase and must be unique there - rename one`,
            );
        }
        let resolved;
        try {
            resolved = resolve_extension_order([...list, extension]);
        } catch (error) {
            throw new Error(
                `add_extension(${extension_label(extension)}) at ${frame_phase_name(extension.phase)} closes an ${(error as Error).message}; ` +
                    `the registry is unchanged`,
            );
        }
        this.#commit(extension.phase, resolved.order, resolved.placed_by);
        this.#suspended.clear(); // a registration change is a chance for suspended extensions to work again
        return extension;
    }

    /** Unregisters `extension`; returns whether it was registered. Does not destroy it. */
    remove(extension: RenderExtension): boolean {
        this.#expect_not_recording("remove_extension", extension);
        for (let p = 0; p < this.#phases.length; p++) {
            const list = this.#phases[p];
            const index = list.indexOf(extension);
            if (index === -1) continue;
            const rest = list.filter((e) => e !== extension);
            const resolved = resolve_extension_order(rest);
            this.#placed_by.delete(extension);
            this.#commit(p, resolved.order, resolved.placed_by);
            this.#suspended.clear();
            return true;
        }
        return false;
    }

    /** Whether `extension` is suspended after a failure (skipped until retried). */
    is_suspended(extension: RenderExtension): boolean {
        return this.#suspended.has(extension);
    }

    /** How many extensions are suspended after failures. */
    get suspended_count(): number {
        return this.#suspended.size;
    }

    /** Suspends `extension` (its work is skipped) until the next registration change or `retry_suspended()`. */
    suspend(extension: RenderExtension): void {
        this.#suspended.add(extension);
    }

    /** Lets every suspended extension record again from the next frame. */
    retry_suspended(): void {
        this.#suspended.clear();
    }

    /**
     * The extension that recorded into scope `scope` of frame `frame_index` (a root scope index, as a
     * FramePassError gives it), with its phase; null for a built-in step's scope.
     */
    scope_owner(frame_index: number, scope: number): { extension: RenderExtension; phase: FramePhase } | null {
        if (frame_index !== this.#scope_frame || scope < 0 || scope >= this.#scope_owner.length) return null;
        const extension = this.#scope_owner[scope];
        return extension === null ? null : { extension, phase: this.#scope_phase[scope] };
    }

    /** The extension whose `record` is running now, or null between records. */
    get recording(): RenderExtension | null {
        return this.#recording;
    }

    /**
     * Throws what `add`/`remove` would throw while an extension records (no registering or removing inside
     * `record`); for owners that keep registries of their own in step with this one.
     */
    expect_not_recording(verb: "add_extension" | "remove_extension", extension: RenderExtension): void {
        this.#expect_not_recording(verb, extension);
    }

    has(extension: RenderExtension): boolean {
        for (const list of this.#phases) if (list.includes(extension)) return true;
        return false;
    }

    /** How many extensions are registered against `phase`. */
    extension_count(phase: FramePhase): number {
        const list = this.#phases[phase];
        if (list === undefined) throw new RangeError(`extension_count: ${String(phase)} is not a FramePhase`);
        return list.length;
    }

    /** Every registered extension, phase by phase in recording order. */
    all(): RenderExtension[] {
        return this.#phases.flat();
    }

    /** The extensions of one phase in recording order (the registry's own array: do not modify). */
    ordered(phase: FramePhase): readonly RenderExtension[] {
        return this.#phases[phase];
    }

    /**
     * Records every extension of `phase` in order, each in a graph scope named after it. A throwing `record`
     * is rethrown as `Render extension '<name>' failed to record at <Phase>` with the original on `cause`,
     * after the scope is closed.
     */
    record_phase(phase: FramePhase, frame: FrameContext): void {
        const list = this.#phases[phase];
        const graph = frame.graph;
        const isolate = this.on_failure !== null;
        if (this.#scope_frame !== graph.frame_index) {
            this.#scope_frame = graph.frame_index;
            this.#scope_owner.fill(null);
        }
        for (let i = 0; i < list.length; i++) {
            const extension = list[i];
            if (this.#suspended.size > 0 && this.#suspended.has(extension)) continue;
            const depth = graph.scope_depth;
            if (isolate) {
                graph.mark(this.#mark);
                frame.mark_records();
            }
            graph.push_scope(extension.name);
            const scope = graph.current_scope;
            while (this.#scope_owner.length <= scope) {
                this.#scope_owner.push(null);
                this.#scope_phase.push(FramePhase.FrameStart);
            }
            this.#scope_owner[scope] = extension;
            this.#scope_phase[scope] = phase;
            this.#recording = extension;
            this.#recording_phase = phase;
            let failure: RenderExtensionError | null = null;
            try {
                if (extension.requires !== this.#checked_requires.get(extension)) {
                    validate_requires(extension, "render extension");
                    this.#checked_requires.set(extension, extension.requires);
                }
                extension.record(frame);
            } catch (error) {
                failure = new RenderExtensionError(extension, phase, "record", null, error);
            } finally {
                this.#recording = null;
            }
            if (failure === null && graph.scope_depth !== depth + 1) {
                const open = graph.scope_depth - depth - 1;
                failure = new RenderExtensionError(
                    extension,
                    phase,
                    "record",
                    null,
                    null,
                    `: ${open > 0 ? `it left ${open} graph scope(s) open` : "it popped a scope it did not push"}`,
                );
            }
            if (failure === null) {
                graph.pop_scope();
                continue;
            }
            if (!isolate) {
                graph.pop_scopes_to(depth);
                throw failure;
            }
            this.#scope_owner[scope] = null;
            graph.rollback(this.#mark);
            frame.rollback_records();
            this.#suspended.add(extension);
            this.on_failure!(failure);
        }
    }

    /** The resolved pipeline as data: phases, their extensions in order, and what placed each. */
    describe(): RenderPipelineDescription {
        return {
            phases: FRAME_PHASES.map((phase) => ({
                phase,
                name: frame_phase_name(phase),
                extensions: this.#phases[phase].map((e, position) => ({
                    name: e.name,
                    class: e.constructor.name,
                    owner: e.owner?.name ?? null,
                    position,
                    placed_by: [...(this.#placed_by.get(e) ?? [])],
                })),
            })),
        };
    }

    #commit(phase: FramePhase, order: RenderExtension[], placed_by: Map<RenderExtension, string[]>): void {
        const list = this.#phases[phase];
        list.length = 0;
        list.push(...order);
        for (const [e, reasons] of placed_by) this.#placed_by.set(e, reasons);
    }

    #expect_not_recording(verb: string, extension: RenderExtension): void {
        if (this.#recording !== null) {
            throw new Error(
                `${verb}(${extension_label(extension)}) called while render extension ${extension_label(this.#recording)} records at ` +
                    `${frame_phase_name(this.#recording_phase)}; extensions cannot be registered or removed from inside record - ` +
                    `do it in a system's startup/shutdown`,
            );
        }
    }
}

function validate_extension(extension: RenderExtension): void {
    if (!(extension instanceof RenderExtension)) {
        throw new TypeError(`add_extension: ${String(extension)} is not a RenderExtension (extend RenderExtension)`);
    }
    const label = extension.constructor.name;
    if (typeof extension.name !== "string" || extension.name.length === 0) {
        throw new TypeError(`add_extension: ${label} has no name; give it a non-empty name field`);
    }
    const owner: unknown = extension.owner;
    if (owner !== null && !(typeof owner === "object" && typeof (owner as { name?: unknown }).name === "string")) {
        throw new TypeError(`add_extension: render extension '${extension.name}' has owner ${String(owner)}; an owner is null or an object with a string name (a system)`);
    }
    if (!(Number.isInteger(extension.phase) && extension.phase >= FramePhase.FrameStart && extension.phase <= FramePhase.Overlay)) {
        throw new TypeError(`add_extension: render extension ${extension_label(extension)} has phase ${String(extension.phase)}, which is not a FramePhase`);
    }
    for (const field of ["after", "before"] as const) {
        const list = extension[field];
        if (!Array.isArray(list)) {
            throw new TypeError(`add_extension: render extension '${extension.name}'.${field} must be an array of classes (not instances or names)`);
        }
        for (let i = 0; i < list.length; i++) {
            const c: unknown = list[i];
            const is_class = typeof c === "function" && (c === RenderExtension || c.prototype instanceof RenderExtension);
            if (!is_class) {
                const what = typeof c === "function" ? `${c.name || "an anonymous function"}, which is not a RenderExtension class` : `${typeof c} ${String(c)}`;
                throw new TypeError(
                    `add_extension: render extension '${extension.name}'.${field} must be an array of classes (not instances, names or functions): ` +
                        `${field}[${i}] is ${what}`,
                );
            }
        }
    }
    validate_requires(extension, "add_extension: render extension");
    if (typeof extension.record !== "function" || extension.record === RenderExtension.prototype.record) {
        throw new TypeError(`add_extension: render extension ${extension_label(extension)} has no record(frame) method`);
    }
}

// `requires` is checked at registration and again whenever the extension assigns a new array (PlayCanvas's
// `requires` getter that depends on a parameter): a product the phase cannot carry is named at once, not at the
// `frame.get` that would fail later.
function validate_requires(extension: RenderExtension, prefix: string): void {
    const requires: unknown = extension.requires ?? [];
    if (!Array.isArray(requires)) {
        throw new TypeError(`${prefix} '${extension.name}'.requires must be an array of FrameProduct classes`);
    }
    for (let i = 0; i < requires.length; i++) {
        const product: unknown = requires[i];
        if (!is_frame_product_class(product)) {
            const what = typeof product === "function" ? `${product.name || "an anonymous function"}, which is not a FrameProduct class` : `${typeof product} ${String(product)}`;
            throw new TypeError(`${prefix} '${extension.name}'.requires must be an array of FrameProduct classes: requires[${i}] is ${what}`);
        }
        if (!product.is_present_at(extension.phase)) {
            throw new TypeError(
                `${prefix} ${extension_label(extension)} requires ${product.name} at ${frame_phase_name(extension.phase)}, ` +
                    `but ${product.name} is made only at ${phases_carrying(product)}`,
            );
        }
    }
}
