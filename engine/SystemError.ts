import type { System } from "./System.js";

/**
 * A system's `update` threw. The engine reports it once through `Engine.on_error`, suspends the system (it is
 * skipped by every tick from then on) and runs the rest; `engine.retry_systems()` lets it run again. The
 * original error is on `cause`.
 */
export class SystemError extends Error {
    readonly system: System;

    /** Where it failed: "update" or "before_render". */
    readonly stage: "update" | "before_render";

    constructor(system: System, cause: unknown, stage: "update" | "before_render" = "update") {
        const why = cause instanceof Error ? cause.message : String(cause);
        super(`System '${system.name}' failed in ${stage}: ${why}; it is suspended until engine.retry_systems()`, { cause });
        this.stage = stage;
        this.name = "SystemError";
        this.system = system;
    }
}
