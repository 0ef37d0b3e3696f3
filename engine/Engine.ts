import { report_error } from "./report_error.js";
import { EntityManager } from "./EntityManager.js";
import { GraphicsEngine, type GraphicsEngineOptions } from "./GraphicsEngine.js";
import { System } from "./System.js";
import { SystemError } from "./SystemError.js";

// the update of a system that has none of its own: reads nothing
const NO_UPDATE = System.prototype.update;

export interface EngineOptions {
    readonly graphics?: GraphicsEngineOptions;
    /**
     * Told about each system whose `update` threw (a `SystemError`, once, as the system is suspended and the rest
     * run). Without it, the graphics engine's `on_error` is told, so that one callback hears every failure;
     * without either, errors are logged with console.error.
     */
    readonly on_error?: (error: Error) => void;
    /**
     * Most entities alive at once in this engine's world (default `DEFAULT_MAX_ENTITIES`, a million); one more is
     * refused with an error naming the capacity. Stores grow with the entities, so the capacity itself costs nothing.
     */
    readonly max_entities?: number;
    /**
     * For `run()`: update the systems in steps of exactly this many seconds (as many as the elapsed time holds,
     * the remainder carried to the next frame) and render once per frame, so that a simulation is deterministic.
     * Without it each frame updates once with the measured frame time.
     */
    readonly fixed_step?: number;
    /** For `run()`: most seconds one frame advances by (a tab coming back from the background), default 0.25. */
    readonly max_frame_time?: number;
    /** For `run()`: schedules the next frame; default `requestAnimationFrame`. */
    readonly request_frame?: (callback: (time_ms: number) => void) => number;
    /** For `run()`: cancels a scheduled frame; default `cancelAnimationFrame`. */
    readonly cancel_frame?: (handle: number) => void;
}

function message_of(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}

/**
 * The game engine: an entity world, an ordered list of systems and the graphics engine. `new Engine()` needs no
 * GPU and no canvas; `await engine.graphics.start()` brings the GPU. `tick(dt)` runs one frame (tests);
 * `run()` drives frames from `requestAnimationFrame` (browser) until `stop_running()`; `shutdown()` ends it all.
 *
 * One bad system never takes the frame down: a system whose `update` throws is reported once through `on_error`
 * (a `SystemError` naming it) and suspended, and the others keep running; it stays suspended until
 * `retry_systems()` or until it is removed (added again, it starts afresh).
 */
export class Engine {
    readonly graphics: GraphicsEngine;
    readonly entityManager: EntityManager;
    /** Told about systems whose update threw (see the option); null: the graphics engine's `on_error`. */
    on_error: ((error: Error) => void) | null;
    // copy-on-write: a tick walks the array it started with, so that a system added or removed during another
    // system's update shifts no index under it (the next system would skip the tick)
    #systems: readonly System[] = [];
    readonly #added = new Set<System>();
    readonly #suspended = new Set<System>();
    readonly #starting = new Set<System>();
    readonly #fixed_step: number | null;
    readonly #max_frame_time: number;
    readonly #request_frame: ((callback: (time_ms: number) => void) => number) | null;
    readonly #cancel_frame: ((handle: number) => void) | null;
    #frame_handle: number | null = null;
    /** NaN before the first frame. A number, never null: a field that held null boxes every double stored in it. */
    // [last frame's time in ms (NaN before the first), seconds not yet stepped]: doubles kept in a typed array,
    // since storing a double in an object field boxes it until the JIT has settled the field's representation
    readonly #clock = new Float64Array([Number.NaN, 0]);
    #ticking = false;
    /** Made once: scheduling a frame allocates no closure. */
    readonly #on_frame = (time_ms: number): void => this.#frame(time_ms);

    constructor(options: EngineOptions = {}) {
        this.entityManager = new EntityManager({ max_entities: options.max_entities });
        this.graphics = new GraphicsEngine(options.graphics);
        this.on_error = options.on_error ?? null;
        const step = options.fixed_step;
        if (step !== undefined && !(step > 0 && Number.isFinite(step))) throw new RangeError(`new Engine: fixed_step must be a positive number of seconds, got ${step}`);
        this.#fixed_step = step ?? null;
        this.#max_frame_time = options.max_frame_time ?? 0.25;
        // bound: called as a method of the engine, the window's own functions throw "Illegal invocation"
        const raf = typeof requestAnimationFrame === "function" ? requestAnimationFrame.bind(globalThis) : null;
        const caf = typeof cancelAnimationFrame === "function" ? cancelAnimationFrame.bind(globalThis) : null;
        this.#request_frame = options.request_frame ?? raf;
        this.#cancel_frame = options.cancel_frame ?? caf;
    }

    /** The systems in update order. */
    get systems(): readonly System[] {
        return this.#systems;
    }

    /**
     * Starts `system` up and appends it to the update order. A startup that throws leaves the system out
     * (its `shutdown` runs to undo what it did) and rejects with an error naming it.
     */
    async add_system<S extends System>(system: S): Promise<S> {
        if (this.#added.has(system) || this.#starting.has(system)) {
            throw new Error(`Engine.add_system: system '${system.name}' is already added`);
        }
        this.#starting.add(system);
        try {
            await system.startup(this.entityManager);
        } catch (error) {
            this.#starting.delete(system);
            try {
                await system.shutdown(this.entityManager);
            } catch {
                // the startup error is the one to report; a half-started system may not shut down cleanly
            }
            throw new Error(`Engine.add_system: system '${system.name}' failed to start: ${message_of(error)}`, { cause: error });
        }
        this.#starting.delete(system);
        this.#systems = [...this.#systems, system];
        this.#added.add(system);
        return system;
    }

    /** Shuts `system` down and removes it; returns whether it was there. */
    async remove_system(system: System): Promise<boolean> {
        if (!this.#added.delete(system)) return false;
        this.#systems = this.#systems.filter((s) => s !== system);
        this.#suspended.delete(system);
        try {
            await system.shutdown(this.entityManager);
        } catch (error) {
            throw new Error(`Engine.remove_system: system '${system.name}' failed to shut down: ${message_of(error)}`, { cause: error });
        }
        return true;
    }

    /**
     * Stops `run()`, shuts every system down in reverse order (all of them, even when one throws: then the
     * errors are thrown together afterwards, each naming its system) and stops the graphics engine. A second
     * call is harmless; systems may be added again afterwards.
     */
    async shutdown(): Promise<void> {
        this.stop_running();
        const errors: Error[] = [];
        while (this.#systems.length > 0) {
            const system = this.#systems[this.#systems.length - 1];
            this.#systems = this.#systems.slice(0, -1);
            this.#added.delete(system);
            this.#suspended.delete(system);
            try {
                await system.shutdown(this.entityManager);
            } catch (error) {
                errors.push(new Error(`system '${system.name}' failed to shut down: ${message_of(error)}`, { cause: error }));
            }
        }
        await this.graphics.stop();
        if (errors.length === 1) throw new Error(`Engine.shutdown: ${errors[0].message}`, { cause: errors[0].cause });
        if (errors.length > 1) throw new AggregateError(errors, `Engine.shutdown: ${errors.map((e) => e.message).join("; ")}`);
    }

    /**
     * Every system's `update(dt)` in order, without rendering (what `run()` does per fixed step). Suspended
     * systems are skipped; one that throws is reported and suspended, and the rest still run. A system removed
     * during the tick is not updated after its removal; one added during it runs from the next tick. World
     * matrices are brought up to date (`entityManager.update_world_transforms`) before each system that reads
     * them (`System.reads_world_transforms`, and has an `update` of its own) and after the last, so that every
     * such system, and the frame, sees the transforms changed before it ran; with nothing changed that costs
     * nothing.
     */
    update(dt: number): void {
        if (!(dt >= 0 && dt < Infinity)) throw new RangeError(`Engine.update: dt must be a finite number of seconds >= 0, got ${dt}`);
        if (this.#ticking) throw new Error("Engine.update: called from inside a system's update (re-entrant tick)");
        this.#ticking = true;
        try {
            const systems = this.#systems;
            const added = this.#added;
            const suspended = this.#suspended;
            const entities = this.entityManager;
            for (let i = 0; i < systems.length; i++) {
                const system = systems[i];
                if (!added.has(system)) continue; // removed by an earlier system's update in this tick
                if (suspended.size > 0 && suspended.has(system)) continue;
                // (the changes of systems that do not read world matrices are composed together, in one walk)
                if (system.reads_world_transforms && system.update !== NO_UPDATE) entities.update_world_transforms();
                try {
                    system.update(dt);
                } catch (error) {
                    suspended.add(system);
                    this.#report(new SystemError(system, error));
                }
            }
            entities.update_world_transforms();
        } finally {
            this.#ticking = false;
        }
    }

    /** Whether `system` is suspended after its `update` threw (skipped until `retry_systems()`). */
    is_suspended(system: System): boolean {
        return this.#suspended.has(system);
    }

    /** How many systems are suspended after failures. */
    get suspended_count(): number {
        return this.#suspended.size;
    }

    /**
     * Lets every suspended system update again from the next tick; one that throws again is reported again,
     * once. (The systems' counterpart of `graphics.retry_extensions()`.)
     */
    retry_systems(): void {
        this.#suspended.clear();
    }

    /**
     * One frame: every system's `update(dt)` in order, every system's `before_render()`, then the graphics
     * engine renders (with the world matrices up to date). `dt` in seconds.
     */
    tick(dt: number): void {
        this.update(dt);
        this.render();
    }

    /**
     * Renders one frame without updating: every system's `before_render()` (with the world matrices up to date),
     * then `graphics.render()`, whose result it returns. For loops that step `update` themselves.
     */
    render(): boolean {
        this.#before_render();
        return this.graphics.render();
    }

    // every system's before_render, in order, with the world matrices up to date
    #before_render(): void {
        const systems = this.#systems;
        const added = this.#added;
        const suspended = this.#suspended;
        this.entityManager.update_world_transforms();
        for (let i = 0; i < systems.length; i++) {
            const system = systems[i];
            if (!added.has(system)) continue;
            if (suspended.size > 0 && suspended.has(system)) continue;
            try {
                system.before_render();
            } catch (error) {
                suspended.add(system);
                this.#report(new SystemError(system, error, "before_render"));
            }
        }
    }

    /** Whether `run()` is driving frames. */
    get running(): boolean {
        return this.#frame_handle !== null;
    }

    /**
     * Drives frames from `requestAnimationFrame` (or the `request_frame` option) until `stop_running()`. The
     * first frame updates with dt 0. A system that throws is suspended and the loop goes on (see `update`); a
     * frame that throws otherwise (a misuse the renderer refuses) stops the loop and the error propagates.
     */
    run(): void {
        if (this.#frame_handle !== null) return;
        if (this.#request_frame === null) {
            throw new Error("Engine.run: no requestAnimationFrame here; pass request_frame in the options or call tick(dt)");
        }
        this.#clock[0] = Number.NaN;
        this.#clock[1] = 0;
        this.#frame_handle = this.#request_frame(this.#on_frame);
    }

    /** Stops `run()` after the current frame (or before the next one); harmless when not running. */
    stop_running(): void {
        if (this.#frame_handle === null) return;
        this.#cancel_frame?.(this.#frame_handle);
        this.#frame_handle = null;
    }

    #report(error: Error): void {
        report_error(this.on_error ?? this.graphics.on_error, error, "Engine");
    }

    #frame(time_ms: number): void {
        if (this.#frame_handle === null) return;
        const clock = this.#clock;
        const last = clock[0];
        clock[0] = time_ms;
        const elapsed = Number.isNaN(last) ? 0 : Math.min(Math.max((time_ms - last) / 1000, 0), this.#max_frame_time);
        try {
            const step = this.#fixed_step;
            if (step === null) this.update(elapsed);
            else {
                clock[1] += elapsed;
                // the epsilon keeps 1/60 s frames from drifting to a skipped step by rounding
                while (clock[1] >= step - 1e-9) {
                    this.update(step);
                    clock[1] -= step;
                }
                if (clock[1] < 0) clock[1] = 0;
            }
            // a frame without a step still draws what changed between frames (input handlers, timers)
            this.render();
        } catch (error) {
            this.#frame_handle = null;
            throw error;
        }
        if (this.#frame_handle !== null) this.#frame_handle = this.#request_frame!(this.#on_frame);
    }
}
