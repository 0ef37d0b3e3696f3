import type { FrameContext } from "../extension/FrameContext.js";

/**
 * A replacement for the built-in TAA at the upscale boundary (PlayCanvas `resolveScene`): at BeforePresent,
 * before that phase's extensions, `record` reads `frame.get(SceneColor).color` at the internal resolution
 * and publishes a scene colour at the output resolution (`frame.output_resolution`) - writing it is what sets
 * the size every later pass works at; the renderer checks it and names the upscaler when it is wrong. Its
 * passes are scoped under `name` (graph dump, debug groups, timings).
 */
export interface Upscaler {
    readonly name: string;
    /** Internal resolution = output x this, in (0, 4]; when absent, the renderer's `resolution_scale`. */
    readonly resolution_scale?: number;
    /** When true the camera is jittered (sub-pixel, 16 phases) as for TAA. Default false. */
    readonly jitter?: boolean;
    record(frame: FrameContext): void;
}

/**
 * What the upscale slot holds: the built-in temporal upscale (`"taa"`), nothing (`"none"`: one resolution on
 * both sides of the boundary), or a user upscaler.
 */
export type UpscaleSlot = "taa" | "none" | Upscaler;

/** Checks `slot` (a string or an object with `name` and `record`); throws naming `where` when it is not one. */
export function check_upscale_slot(slot: unknown, where: string): UpscaleSlot {
    if (slot === "taa" || slot === "none") return slot;
    const candidate = slot as { name?: unknown; record?: unknown; resolution_scale?: unknown } | null;
    if (typeof candidate !== "object" || candidate === null || typeof candidate.record !== "function" || typeof candidate.name !== "string") {
        throw new TypeError(`${where}: the upscale slot takes "taa", "none" or an upscaler ({ name, record(frame) }), got ${describe(slot)}`);
    }
    const scale = candidate.resolution_scale;
    if (scale !== undefined && !(typeof scale === "number" && scale > 0 && scale <= 4)) {
        throw new RangeError(`${where}: upscaler '${candidate.name}' has resolution_scale ${String(scale)}; it must be a number in (0, 4]`);
    }
    return slot as Upscaler;
}

function describe(value: unknown): string {
    if (typeof value === "string") return JSON.stringify(value);
    if (value === null || typeof value !== "object") return String(value);
    return `an object without ${typeof (value as { record?: unknown }).record !== "function" ? "record(frame)" : "a name"}`;
}
