// The guide's game: an Engine, the game's own MarkerSystem and the package's Trail3DSystem, one marked entity
// running left to right with a trail behind it. `start_game` takes a WebGPU `GPU` (navigator.gpu in a browser,
// Dawn in Node) and where to draw (a canvas in main.ts, an offscreen texture in run_node.mjs).
import { Engine } from "shade-ts/engine/Engine.js";
import type { EntityManager } from "shade-ts/engine/EntityManager.js";
import { System } from "shade-ts/engine/System.js";
import { Transform } from "shade-ts/engine/components/Transform.js";
import type { RenderTarget } from "shade-ts/shade/renderer/target/RenderTarget.js";
import { FramePhase } from "shade-ts/shade/renderer/extension/FramePhase.js";
import { Trail3D } from "shade-ts/systems/trails/Trail3D.js";
import { Trail3DSystem } from "shade-ts/systems/trails/Trail3DSystem.js";
import { Marker, MarkerSystem } from "./MarkerSystem.js";

export interface Game {
    readonly engine: Engine;
    readonly target: RenderTarget;
    readonly errors: Error[];
    /** The marked entity, moving left to right with a trail behind it. */
    readonly runner: number;
    readonly trails: Trail3DSystem;
}

/** Game logic with no rendering: moves one entity 3 units a second to the right, wrapping round from x = 2 to x = -2. */
class RunnerSystem extends System {
    readonly name = "RunnerSystem";
    runner = -1;
    #entities: EntityManager | null = null;

    override async startup(entityManager: EntityManager): Promise<void> {
        this.#entities = entityManager;
    }

    override update(dt: number): void {
        if (this.runner < 0 || this.#entities === null) return;
        const x = this.runner * 3;
        Transform.position[x] += 3 * dt;
        if (Transform.position[x] > 2) Transform.position[x] -= 4;
        // written in place: say so, and its world matrix (which the marker and the trail read) follows
        this.#entities.mark_transform_changed(this.runner);
    }
}

export async function start_game(gpu: GPU, target: RenderTarget): Promise<Game> {
    const errors: Error[] = [];
    const engine = new Engine({ graphics: { gpu, target, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false; // one frame is the whole picture
    engine.graphics.view.camera.position.set([0, 0, 5]);
    engine.graphics.view.camera.target.set([0, 0, 0]);
    await engine.graphics.start();

    // update order is the order added: move first, then the marker and the trail follow the new position
    const runner_system = await engine.add_system(new RunnerSystem());
    await engine.add_system(new MarkerSystem(engine.graphics));
    const trails = await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 32 }));

    const entities = engine.entityManager;
    const runner = entities.create_entity();
    entities.add_component(runner, Transform);
    entities.add_component(runner, Marker);
    entities.add_component(runner, Trail3D);
    Transform.position.set([-1.5, 0, 0], runner * 3);
    runner_system.runner = runner;
    Marker.size[runner] = 0.6;
    Marker.color.set([1, 0.2, 0, 1], runner * 4);
    Trail3D.write(runner, { max_age: 1, width: 0.3, color: [0.2, 0.6, 1, 1], head: [1, 1, 1, 1], tail: [1, 1, 1, 0] });
    return { engine, target, errors, runner, trails };
}

/** `frames` ticks of 1/30 s (the browser's main.ts lets Engine.run drive them instead). */
export function play(game: Game, frames: number): void {
    for (let f = 0; f < frames; f++) game.engine.tick(1 / 30);
}

/** Extensions registered at AfterTransparency: the markers and the trails while both systems run. */
export function overlay_count(game: Game): number {
    return game.engine.graphics.extension_count(FramePhase.AfterTransparency);
}
