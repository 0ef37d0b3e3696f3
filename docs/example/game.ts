// The guide's game: an Engine drawing into an offscreen texture, the game's own MarkerSystem and the
// package's Trail3DSystem. `start_game` needs only a WebGPU `GPU` (navigator.gpu in a browser, Dawn in Node).
import { Engine } from "shade-ts/engine/Engine.js";
import { Transform } from "shade-ts/engine/components/Transform.js";
import { TextureRenderTarget } from "shade-ts/shade/renderer/target/TextureRenderTarget.js";
import { FramePhase } from "shade-ts/shade/renderer/extension/FramePhase.js";
import { Trail3D } from "shade-ts/systems/trails/Trail3D.js";
import { Trail3DSystem } from "shade-ts/systems/trails/Trail3DSystem.js";
import { Marker, MarkerSystem } from "./MarkerSystem.js";

export interface Game {
    readonly engine: Engine;
    readonly target: TextureRenderTarget;
    readonly errors: Error[];
    /** The marked entity, moving left to right with a trail behind it. */
    readonly runner: number;
    readonly trails: Trail3DSystem;
}

export async function start_game(gpu: GPU, size = 64): Promise<Game> {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(size, size);
    const engine = new Engine({ graphics: { gpu, target, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false; // one frame is the whole picture
    engine.graphics.view.camera.position.set([0, 0, 5]);
    engine.graphics.view.camera.target.set([0, 0, 0]);
    await engine.graphics.start();

    await engine.add_system(new MarkerSystem(engine.graphics));
    const trails = await engine.add_system(new Trail3DSystem(engine.graphics, { segments: 32 }));

    const entities = engine.entityManager;
    const runner = entities.create_entity();
    entities.add_component(runner, Transform);
    entities.add_component(runner, Marker);
    entities.add_component(runner, Trail3D);
    Transform.position.set([-1.5, 0, 0], runner * 3);
    Marker.size[runner] = 0.6;
    Marker.color.set([1, 0.2, 0, 1], runner * 4);
    Trail3D.write(runner, { max_age: 1, width: 0.3, color: [0.2, 0.6, 1, 1], head: [1, 1, 1, 1], tail: [1, 1, 1, 0] });
    return { engine, target, errors, runner, trails };
}

/** Moves the runner 3 units a second to the right for `frames` ticks of 1/30 s. */
export function play(game: Game, frames: number): void {
    const x = game.runner * 3;
    for (let f = 0; f < frames; f++) {
        Transform.position[x] += 3 / 30;
        game.engine.tick(1 / 30);
    }
}

/** Extensions registered at AfterTransparency: the markers and the trails while both systems run. */
export function overlay_count(game: Game): number {
    return game.engine.graphics.extension_count(FramePhase.AfterTransparency);
}
