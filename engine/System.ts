import type { EntityManager } from "./EntityManager.js";

/**
 * A unit of game logic run by the `Engine` in its system order. A rendering system registers the extension it
 * owns in `startup` and removes it in `shutdown`, through the `GraphicsEngine` it was constructed with:
 *
 * ```ts
 * async startup(entityManager) { this.#extension = this.#graphics.add_extension(new MarkerExtension(this)); }
 * async shutdown(entityManager) {
 *     if (this.#extension !== null) { this.#graphics.remove_extension(this.#extension); this.#extension = null; }
 * }
 * ```
 *
 * Passing itself to the extension (`new MarkerExtension(this)`) makes the system its owner, named beside it in
 * `describe()` and its errors. A second `shutdown` is harmless; `startup` after `shutdown` registers again, and
 * picks up the entities already in the world (a system never relies on `on_add` alone). In `startup` a system also
 * registers its level component descriptors (`entityManager.components.register(Trail3DDescriptor)`), keeps its
 * queries (`entityManager.register_query(TERMS)`, read through `.entities` in `update`) and frees per-entity GPU
 * slots in `entityManager.on_remove(Component, ...)` observers.
 */
export abstract class System {
    /** Names the system in errors and the engine's system list. */
    abstract readonly name: string;

    /**
     * Whether `update` reads world matrices (`WorldTransform`, or anything computed from them). The `Engine`
     * brings world matrices up to date before each system that does; a system that only writes transforms (an
     * animator, a mover) says false, so that its changes and those of the systems before it are composed in one
     * walk of the hierarchy, before the next system that reads them. A system without an `update` of its own
     * reads nothing either way. Default true.
     */
    readonly reads_world_transforms: boolean = true;

    /** Called when the system joins an engine, before its first `update`. Needs no GPU device. */
    async startup(entityManager: EntityManager): Promise<void> {
        void entityManager;
    }

    /** Called when the system leaves the engine (or the engine shuts down). */
    async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
    }

    /**
     * Once per engine tick, in system order, before the frame renders. `dt` in seconds. Allocates nothing. A throw
     * is reported through `Engine.on_error` (a `SystemError` naming the system) and suspends the system until
     * `engine.retry_systems()`; the other systems run on.
     */
    update(dt: number): void {
        void dt;
    }

    /**
     * Once per rendered frame, after every system's `update` and the last world-matrix update, just before the
     * frame renders: where a rendering system copies the world into the renderer's scene, so that a move made
     * by a system after it still shows this frame. Not called by `Engine.update` alone. Allocates nothing; a
     * throw is reported and suspends the system, as for `update`.
     */
    before_render(): void {}
}
