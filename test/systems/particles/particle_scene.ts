// A 64x64 engine on Dawn with a GPUParticleEmitterSystem, for the particle tests.
import { addComponent } from "bitecs";
import { vec4 } from "gl-matrix";
import { Transform } from "../../../engine/components/Transform.js";
import { Engine } from "../../../engine/Engine.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { GPUParticleEmitterSystem, type GPUParticleEmitterSystemOptions } from "../../../systems/particles/index.js";
import { get_gpu, read_texture, type TextureReadback } from "../../harness/index.js";

export const SIZE = 64;
export const DT = 1 / 60;

export interface ParticleScene {
    readonly engine: Engine;
    readonly system: GPUParticleEmitterSystem;
    readonly target: TextureRenderTarget;
    readonly errors: Error[];
    /** An entity with a Transform at `position` (identity rotation). */
    entity(position?: readonly [number, number, number]): number;
    ticks(n: number, dt?: number): void;
    image(): Promise<TextureReadback>;
    /** Pixel of a world point on the 64x64 target (the camera as last rendered, no jitter). */
    project(point: readonly [number, number, number]): [number, number];
    close(): Promise<void>;
}

export async function particle_scene(options: GPUParticleEmitterSystemOptions = { capacity: 4096 }, add_system = true): Promise<ParticleScene> {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(SIZE, SIZE);
    const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e) => errors.push(e) } });
    engine.graphics.feature_taa_enabled = false;
    await engine.graphics.start();
    const system = new GPUParticleEmitterSystem(engine.graphics, options);
    if (add_system) await engine.add_system(system);
    const em = engine.entityManager;
    return {
        engine,
        system,
        target,
        errors,
        entity(position = [0, 0, 0]) {
            const eid = em.create_entity();
            addComponent(em.world, eid, Transform);
            Transform.position.set(position, eid * 3);
            Transform.rotation.set([0, 0, 0, 1], eid * 4);
            Transform.scale.set([1, 1, 1], eid * 3);
            return eid;
        },
        ticks(n, dt = DT) {
            for (let i = 0; i < n; i++) engine.tick(dt);
        },
        async image() {
            return read_texture(engine.graphics.device!, target.acquire());
        },
        project(point) {
            const clip = vec4.transformMat4(vec4.create(), [point[0], point[1], point[2], 1], engine.graphics.view.camera.view_projection);
            const x = clip[0] / clip[3];
            const y = clip[1] / clip[3];
            return [Math.floor((x * 0.5 + 0.5) * SIZE), Math.floor((0.5 - y * 0.5) * SIZE)];
        },
        async close() {
            if (engine.systems.includes(system)) await engine.remove_system(system);
            await engine.graphics.device?.queue.onSubmittedWorkDone();
            await engine.graphics.stop();
        },
    };
}

/** Sum of one channel over a square of `radius` around (x, y). */
export function channel_sum(image: TextureReadback, x: number, y: number, radius: number, channel: number): number {
    let sum = 0;
    const data = image.data;
    for (let py = Math.max(0, y - radius); py <= Math.min(image.height - 1, y + radius); py++) {
        for (let px = Math.max(0, x - radius); px <= Math.min(image.width - 1, x + radius); px++) {
            sum += data[(py * image.width + px) * image.channels + channel];
        }
    }
    return sum;
}
