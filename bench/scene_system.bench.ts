// The scene system's per-frame CPU: 10,000 MeshRenderer entities (four geometries, eight materials), 1% of them
// moving each frame (set_position). Figures: CPU ms per frame of SceneSystem.before_render (membership is by
// observers, so a steady frame is the copy of moved matrices plus each mesh's colour and flags), the world-matrix
// propagation before it (update_world_transforms), and young-generation bytes per frame of the whole step
// (move + propagate + before_render; goal 0).
//
//   npm run bench -- scene_system
//
// No GPU: the system keeps the renderer's Scene on the CPU; what the renderer then does with the scene per frame
// is measured by bench/scene_scale (GPU). Median over TIMED_FRAMES frames after WARMUP_FRAMES.
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { Transform } from "../engine/components/Transform.js";
import { Engine } from "../engine/Engine.js";
import { StandardMaterial } from "../shade/renderer/scene/StandardMaterial.js";
import { MeshRenderer, write_mesh_renderer } from "../systems/scene/MeshRenderer.js";
import { SceneSystem } from "../systems/scene/SceneSystem.js";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const ENTITIES = Number(process.env.BENCH_ENTITIES ?? 10_000);
const MOVING = Math.max(1, ENTITIES / 100);
const WARMUP_FRAMES = Number(process.env.BENCH_WARMUP ?? 2000);
const TIMED_FRAMES = Number(process.env.BENCH_FRAMES ?? 300);
const GC_FRAMES = 200;
const GEOMETRIES = ["box", "sphere", "cylinder", "plane"];

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
}

function young_bytes(): number {
    let bytes = 0;
    for (const space of v8.getHeapSpaceStatistics()) if (space.space_name === "new_space" || space.space_name === "new_large_object_space") bytes += space.space_used_size;
    return bytes;
}

async function main(): Promise<void> {
    const engine = new Engine();
    const scene = await engine.add_system(new SceneSystem(engine.graphics));
    for (let m = 0; m < 8; m++) scene.assets.register_material(`m${m}`, new StandardMaterial({ base_color: [m / 8, 0.5, 1 - m / 8, 1], label: `m${m}` }));
    const em = engine.entityManager;
    const eids: number[] = [];
    for (let i = 0; i < ENTITIES; i++) {
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        Transform.position.set([(i % 100) * 2, 0, Math.floor(i / 100) * 2], eid * 3);
        em.add_component(eid, MeshRenderer, (e) => write_mesh_renderer(e, { geometry: GEOMETRIES[i % 4], material: `m${i % 8}` }));
        eids.push(eid);
    }
    em.update_world_transforms();
    scene.before_render();
    let frame = 0;
    // the generator's state in a typed array: a captured `let` above 2^30 would be a boxed number per step
    const rng = new Uint32Array([0x2545f491]);
    const move = (): void => {
        for (let k = 0; k < MOVING; k++) {
            rng[0] = Math.imul(rng[0], 1664525) + 1013904223;
            const eid = eids[rng[0] % ENTITIES];
            // written in place and marked (set_position would box its double arguments in this loop)
            Transform.position[eid * 3 + 1] = Math.sin(frame * 0.1 + k);
            em.mark_transform_changed(eid);
        }
        frame++;
    };
    const propagate: number[] = [];
    const sync: number[] = [];
    for (let f = 0; f < WARMUP_FRAMES + TIMED_FRAMES; f++) {
        move();
        const t0 = performance.now();
        em.update_world_transforms();
        const t1 = performance.now();
        scene.before_render();
        const t2 = performance.now();
        if (f >= WARMUP_FRAMES) {
            propagate.push(t1 - t0);
            sync.push(t2 - t1);
        }
    }
    gc();
    const b0 = young_bytes();
    for (let f = 0; f < GC_FRAMES; f++) {
        move();
        em.update_world_transforms();
        scene.before_render();
    }
    const b1 = young_bytes();
    const garbage = b1 < b0 ? "n/a (a scavenge ran)" : ((b1 - b0) / GC_FRAMES).toFixed(1);
    console.log(`scene_system: ${ENTITIES} MeshRenderer entities, ${MOVING} moving per frame; ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`);
    console.log(`  SceneSystem.before_render   median ${median(sync).toFixed(3)} ms/frame`);
    console.log(`  update_world_transforms     median ${median(propagate).toFixed(3)} ms/frame`);
    console.log(`  young-generation bytes per frame (move + propagate + before_render): ${garbage}`);
    await engine.shutdown();
}

await main();
