import { FRAME_PHASES, type FramePhase } from "./FramePhase.js";
import { frame_phase_name } from "./frame_phase_name.js";
import type { FrameGraph } from "../../device/graph/FrameGraph.js";

/** What a record needs to know about the frame that carries it. Implemented by FrameContext. */
export interface FrameRecordHost {
    readonly phase: FramePhase;
    readonly graph: FrameGraph;
    /** @internal increments when a frame closes; a record stamped with an older value belongs to a closed frame */
    readonly frame_serial: number;
    readonly closed: boolean;
}

/** A record class, the typed key of `frame.has/get/create`. */
export interface FrameRecordClass<R extends FrameRecord = FrameRecord> {
    new (): R;
    readonly name: string;
    is_present_at(phase: FramePhase): boolean;
    is_writable_at(phase: FramePhase): boolean;
}

/**
 * A typed channel between extensions and the frame. A subclass stores handles in its own fields and routes
 * every getter through `read` and every setter through `publish`; those guard the misuse cases (an unfilled
 * field, a frozen record, a superseded handle, a record touched after its frame closed) in development
 * builds and are stripped from production builds.
 */
export class FrameRecord {
    #host: FrameRecordHost | null = null;
    #serial = -1;
    #publications = 0;

    /** Whether frames carry this record at `phase`. Override in every record class. */
    static is_present_at(phase: FramePhase): boolean {
        void phase;
        return false;
    }

    /** Whether publishing into it is allowed at `phase`; a record read-only there is frozen. */
    static is_writable_at(phase: FramePhase): boolean {
        return this.is_present_at(phase);
    }

    /** @internal attaches the record to the frame that created it */
    attach(host: FrameRecordHost): void {
        this.#host = host;
        this.#serial = host.frame_serial;
    }

    /**
     * Clears every field so the frame can reuse this instance next frame rather than construct another
     * (no garbage per frame); return true when done. The default declines, and a new instance is made.
     */
    reset_for_reuse(): boolean {
        return false;
    }

    /** @internal how many times anything was published into this record (production builds count too) */
    get publications(): number {
        return this.#publications;
    }

    /**
     * Saves the record's fields so that `restore_state` can put them back: the frame does this before each
     * extension records, so that the publications of an extension that fails are undone while what the others
     * published stays. Return true when saved. The default declines, and a record an extension published into
     * before failing is withdrawn from the frame instead (`frame.has` is false for the rest of it).
     */
    save_state(): boolean {
        return false;
    }

    /** Puts back what `save_state` saved. */
    restore_state(): void {}

    /** Guards a field read; returns `value`. `field` names it in errors (found from the getter if omitted). */
    protected read<T>(value: T, field?: string): T {
        if (__SHADE_DEBUG__) guard_read(this, this.#host, this.#serial, value, field);
        return value;
    }

    /** Guards a publication; returns `value` for the field to store. */
    protected publish<T>(value: T, field?: string): T {
        if (__SHADE_DEBUG__) guard_publish(this, this.#host, this.#serial, value, field);
        this.#publications++;
        return value;
    }
}

function record_class(record: FrameRecord): FrameRecordClass {
    return record.constructor as FrameRecordClass;
}

/** The phases a record class is carried at, as a sentence fragment: "AfterLighting, AfterTransparency and BeforePresent". */
export function phases_carrying(type: FrameRecordClass, writable = false): string {
    const names = FRAME_PHASES.filter((p) => (writable ? type.is_writable_at(p) : type.is_present_at(p))).map(frame_phase_name);
    if (names.length === 0) return "no phase";
    return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// The getter or setter that called read/publish, from the stack; only computed when a guard fails.
function caller_field(kind: "get" | "set"): string | null {
    const stack = new Error().stack ?? "";
    const match = new RegExp(`\\b${kind} (\\w+)`).exec(stack);
    return match ? match[1] : null;
}

function describe_field(record: FrameRecord, field: string | undefined, kind: "get" | "set"): string {
    const name = field ?? caller_field(kind);
    return name === null ? `${record_class(record).name} (a field)` : `${record_class(record).name}.${name}`;
}

function guard_alive(record: FrameRecord, host: FrameRecordHost | null, serial: number, field: string | undefined, kind: "get" | "set"): host is FrameRecordHost {
    const verb = kind === "get" ? "read" : "published";
    if (host === null) {
        throw new Error(
            `${describe_field(record, field, kind)} ${verb} on a record no frame created; records come from frame.create(${record_class(record).name})`,
        );
    }
    if (host.closed || host.frame_serial !== serial) {
        throw new Error(
            `${describe_field(record, field, kind)} ${verb} after its frame closed; records and their handles live for one frame - get the record again from the current frame`,
        );
    }
    const type = record_class(record);
    if (!type.is_present_at(host.phase)) {
        throw new Error(
            `${describe_field(record, field, kind)} ${verb} at ${frame_phase_name(host.phase)}, which does not carry ${type.name}; it is carried at ${phases_carrying(type)}`,
        );
    }
    return true;
}

function guard_read(record: FrameRecord, host: FrameRecordHost | null, serial: number, value: unknown, field: string | undefined): void {
    if (!guard_alive(record, host, serial, field, "get")) return;
    if (value === -1 || value === undefined || value === null) {
        throw new Error(
            `${describe_field(record, field, "get")} read at ${frame_phase_name(host.phase)} before the frame filled it in (nothing has published it yet this frame)`,
        );
    }
}

function guard_publish(record: FrameRecord, host: FrameRecordHost | null, serial: number, value: unknown, field: string | undefined): void {
    if (!guard_alive(record, host, serial, field, "set")) return;
    const type = record_class(record);
    if (!type.is_writable_at(host.phase)) {
        throw new Error(
            `${describe_field(record, field, "set")} published at ${frame_phase_name(host.phase)}, where ${type.name} is frozen (read-only); it can be published at ${phases_carrying(type, true)}`,
        );
    }
    if (typeof value === "number") {
        let current: boolean;
        try {
            current = host.graph.is_current(value);
        } catch (error) {
            throw new Error(`${describe_field(record, field, "set")} published at ${frame_phase_name(host.phase)} with an invalid handle: ${(error as Error).message}`);
        }
        if (!current) {
            throw new Error(
                `${describe_field(record, field, "set")} published at ${frame_phase_name(host.phase)} with a superseded handle (${host.graph.handle_name(value)}); publish the handle the last write returned`,
            );
        }
    }
}
