// Transform hierarchy: world matrices of 100,000 entities, 1% of them moving each frame, in two shapes:
//   wide: 1,000 roots with 99 children each;  deep: 1,000 chains of 100 (each entity the child of the one before).
// Figures: CPU ms per frame of the propagation (`EntityManager.update_world_transforms`, median over frames), the
// marking of the moved entities (`set_position`, user code, timed apart), and the young-generation bytes per
// frame of a whole frame (move + mark + propagate; goal 0, beyond what an idle loop shows). Against three.js
// (`Object3D.updateMatrixWorld` on the same tree, same moves, in the same run): as taught (matrixAutoUpdate on:
// every local and world matrix recomputed each frame) and at its best (matrixAutoUpdate off, `updateMatrix()` on
// the moved objects only: the traversal still visits every object, recomputing the changed subtrees).
//
//   npm run bench -- hierarchy
//
// No GPU. Moves are the same random 1% per frame for every arm (a fixed sequence). Timing: performance.now()
// around the propagation only, per frame; TIMED_FRAMES frames after WARMUP_FRAMES, the arms interleaved in
// blocks of BLOCK frames. Garbage: young-generation used bytes over GC_FRAMES frames with no timer in the loop,
// right after a full GC (a scavenge inside the window discards it).
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { Object3D } from "three";
import { Transform } from "../engine/components/Transform.js";
import { WorldTransform } from "../engine/components/WorldTransform.js";
import { EntityManager } from "../engine/EntityManager.js";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const ENTITIES = 100_000;
const GROUPS = 1000;
const MOVING = ENTITIES / 100;
const WARMUP_FRAMES = Number(process.env.BENCH_WARMUP ?? 200);
const TIMED_FRAMES = Number(process.env.BENCH_FRAMES ?? 300);
const BLOCK = 20;
const GC_FRAMES = 200;
const SEQUENCE = 64; // frames of distinct random moves, cycled

type Shape = "wide" | "deep";

/** parent[i]: the index of entity i's parent, -1 for a root. */
function shape_parents(shape: Shape): Int32Array {
    const per_group = ENTITIES / GROUPS;
    const parents = new Int32Array(ENTITIES);
    for (let g = 0; g < GROUPS; g++) {
        const root = g * per_group;
        parents[root] = -1;
        for (let k = 1; k < per_group; k++) parents[root + k] = shape === "wide" ? root : root + k - 1;
    }
    return parents;
}

/** SEQUENCE frames x MOVING entity indices, drawn from a fixed LCG. */
function move_sequence(): Int32Array {
    const out = new Int32Array(SEQUENCE * MOVING);
    let state = 0x2545f491;
    for (let i = 0; i < out.length; i++) {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        out[i] = state % ENTITIES;
    }
    return out;
}

interface Arm {
    readonly label: string;
    /** Moves this frame's entities (untimed user code for three; the marking for ours, timed apart). */
    move(frame: number): void;
    /** The propagation (timed). */
    propagate(): void;
    /** World position of entity `i`, for the cross-check. */
    position(i: number): [number, number, number];
}

function offset(frame: number, i: number): number {
    return Math.sin(frame * 0.1 + i) * 0.5;
}

function ours(shape: Shape, parents: Int32Array, moves: Int32Array): Arm & { mark_ms: number[] } {
    const em = new EntityManager({ max_entities: ENTITIES });
    const eids = new Int32Array(ENTITIES);
    for (let i = 0; i < ENTITIES; i++) {
        const eid = em.create_entity();
        em.add_component(eid, Transform, (id) => {
            Transform.position.set([1, 0.5, 0], id * 3);
            Transform.rotation.set([0, Math.sin(0.05), 0, Math.cos(0.05)], id * 4);
            Transform.scale.set([1, 1, 1], id * 3);
        });
        eids[i] = eid;
    }
    for (let i = 0; i < ENTITIES; i++) if (parents[i] >= 0) em.set_parent(eids[i], eids[parents[i]]);
    em.update_world_transforms();
    const mark_ms: number[] = [];
    return {
        label: `ours, ${shape}`,
        mark_ms,
        move(frame) {
            const base = (frame % SEQUENCE) * MOVING;
            for (let k = 0; k < MOVING; k++) {
                const i = moves[base + k];
                em.set_position(eids[i], 1 + offset(frame, i), 0.5, 0);
            }
        },
        propagate() {
            em.update_world_transforms();
        },
        position(i) {
            const m = eids[i] * 16;
            return [WorldTransform.matrix[m + 12], WorldTransform.matrix[m + 13], WorldTransform.matrix[m + 14]];
        },
    };
}

function three(shape: Shape, parents: Int32Array, moves: Int32Array, best: boolean): Arm {
    const scene = new Object3D();
    const objects: Object3D[] = [];
    for (let i = 0; i < ENTITIES; i++) {
        const object = new Object3D();
        object.position.set(1, 0.5, 0);
        object.quaternion.set(0, Math.sin(0.05), 0, Math.cos(0.05));
        object.matrixAutoUpdate = !best;
        if (best) object.updateMatrix();
        objects.push(object);
    }
    for (let i = 0; i < ENTITIES; i++) (parents[i] >= 0 ? objects[parents[i]] : scene).add(objects[i]);
    scene.updateMatrixWorld(true);
    return {
        label: `three.js ${best ? "at its best" : "as taught"}, ${shape}`,
        move(frame) {
            const base = (frame % SEQUENCE) * MOVING;
            for (let k = 0; k < MOVING; k++) {
                const i = moves[base + k];
                const object = objects[i];
                object.position.x = 1 + offset(frame, i);
                if (best) object.updateMatrix();
            }
        },
        propagate() {
            scene.updateMatrixWorld();
        },
        position(i) {
            const e = objects[i].matrixWorld.elements;
            return [e[12], e[13], e[14]];
        },
    };
}

function young_bytes(): number {
    let bytes = 0;
    for (const space of v8.getHeapSpaceStatistics()) if (space.space_name === "new_space" || space.space_name === "new_large_object_space") bytes += space.space_used_size;
    return bytes;
}

/** Young-generation bytes per frame of move + propagate, median of 5 windows (null windows skipped). */
function garbage(arm: Arm, start: number): number {
    const readings: number[] = [];
    for (let attempt = 0; attempt < 15 && readings.length < 5; attempt++) {
        gc();
        const b0 = young_bytes();
        for (let f = 0; f < GC_FRAMES; f++) {
            arm.move(start + f);
            arm.propagate();
        }
        const b1 = young_bytes();
        if (b1 >= b0) readings.push((b1 - b0) / GC_FRAMES);
    }
    readings.sort((a, b) => a - b);
    return readings[readings.length >> 1] ?? Number.NaN;
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
}

const moves = move_sequence();
console.log(`machine: ${cpus()[0]?.model ?? "unknown"} x ${cpus().length}, node ${process.version}`);
console.log(`${ENTITIES} entities, ${MOVING} moved per frame; ${TIMED_FRAMES} timed frames after ${WARMUP_FRAMES}; medians`);
for (const shape of ["wide", "deep"] as const) {
    const parents = shape_parents(shape);
    const arms: Arm[] = [ours(shape, parents, moves), three(shape, parents, moves, false), three(shape, parents, moves, true)];
    const ours_arm = arms[0] as ReturnType<typeof ours>;
    const times = arms.map((): number[] => []);
    let frame = 0;
    for (let done = 0; done < WARMUP_FRAMES + TIMED_FRAMES; done += BLOCK) {
        for (let a = 0; a < arms.length; a++) {
            for (let f = 0; f < BLOCK; f++) {
                const t0 = performance.now();
                arms[a].move(frame + f);
                const t1 = performance.now();
                arms[a].propagate();
                const t2 = performance.now();
                if (done >= WARMUP_FRAMES) {
                    times[a].push(t2 - t1);
                    if (a === 0) ours_arm.mark_ms.push(t1 - t0);
                }
            }
        }
        frame += BLOCK;
    }
    // every arm applied the same moves: the world positions agree
    let error = 0;
    for (let i = 0; i < ENTITIES; i += 97) {
        const a = arms[0].position(i);
        for (let k = 1; k < arms.length; k++) {
            const b = arms[k].position(i);
            for (let c = 0; c < 3; c++) error = Math.max(error, Math.abs(a[c] - b[c]));
        }
    }
    const ours_ms = median(times[0]);
    for (let a = 0; a < arms.length; a++) {
        const ms = median(times[a]);
        const ratio = a === 0 ? "" : `, ours / this = ${(ours_ms / ms).toFixed(3)}`;
        console.log(`${arms[a].label}: propagation ${ms.toFixed(3)} ms/frame${ratio}`);
    }
    console.log(`ours, ${shape}: marking ${MOVING} moves (set_position) ${median(ours_arm.mark_ms).toFixed(3)} ms/frame`);
    // the loop's own bytes (the same for an arm that does nothing) are taken off
    const idle: Arm = { label: "idle", move() {}, propagate() {}, position: () => [0, 0, 0] };
    const base = garbage(idle, frame);
    for (const arm of arms) console.log(`${arm.label}: ${(garbage(arm, frame) - base).toFixed(1)} young-generation bytes per frame (move + propagate, beyond ${base.toFixed(1)} of an idle loop)`);
    console.log(`${shape}: largest difference of world positions, ours vs three.js: ${error.toExponential(2)}`);
}
