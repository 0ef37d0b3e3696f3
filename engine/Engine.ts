import { EntityManager } from "./EntityManager.js";
import { GraphicsEngine, type GraphicsEngineOptions } from "./GraphicsEngine.js";
import type { System } from "./System.js";

export interface EngineOptions {
    readonly graphics?: GraphicsEngineOptions;
}

/**
 * The game engine: an entity world, an ordered list of systems and the graphics engine. `new Engine()` needs no
 * GPU and no canvas; `await engine.graphics.start()` brings the GPU. `tick(dt)` runs one frame (tests);
 * `run()` drives frames from `requestAnimationFrame` (browser).
 */
export class Engine {
    readonly graphics: GraphicsEngine;
    readonly entityManager = new EntityManager();
    readonly #systems: System[] = [];

    constructor(options: EngineOptions = {}) {
        this.graphics = new GraphicsEngine(options.graphics);
    }

    /** The systems in update order. */
    get systems(): readonly System[] {
        return this.#systems;
    }

    /** Starts `system` up and appends it to the update order. */
    async add_system<S extends System>(system: S): Promise<S> {
        if (this.#systems.includes(system)) throw new Error(`Engine.add_system: system '${system.name}' is already added`);
        await system.startup(this.entityManager);
        this.#systems.push(system);
        return system;
    }

    /** Shuts `system` down and removes it; returns whether it was there. */
    async remove_system(system: System): Promise<boolean> {
        const index = this.#systems.indexOf(system);
        if (index === -1) return false;
        this.#systems.splice(index, 1);
        await system.shutdown(this.entityManager);
        return true;
    }

    /** One frame: every system's `update(dt)` in order, then the graphics engine renders. */
    tick(dt: number): void {
        const systems = this.#systems;
        for (let i = 0; i < systems.length; i++) systems[i].update(dt);
        this.graphics.render();
    }
}
