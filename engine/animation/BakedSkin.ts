import { mat4 } from "gl-matrix";
import type { AnimationClip } from "./AnimationClip.js";
import type { AnimationPlayer } from "./AnimationPlayer.js";
import { AnimationPose } from "./AnimationPose.js";
import { sample_clip } from "./sample_clip.js";
import type { ModelParts } from "../assets/Model.js";
import { SkinPaletteTable } from "../../shade/renderer/scene/SkinPaletteTable.js";

/** What baking reads of a model: its node tree, its skins and its clips (a loaded `Model` is one). */
export type BakeSource = Pick<ModelParts, "url" | "nodes" | "skins" | "animations">;

/** Frames a second clips are baked at unless told otherwise. */
export const DEFAULT_BAKE_RATE = 30;

/** Throws unless `rate` is a bake rate (frames a second in (0, 1000]); `what` names the caller in the message. */
export function check_bake_rate(rate: number, what: string): void {
    if (!(rate > 0 && rate <= 1000)) throw new RangeError(`${what}: the bake rate is frames a second in (0, 1000], got ${rate}`);
}

/** One clip's frames: a palette at each of `times` (rising, from 0 to the clip's end), from frame `first` of the table. */
interface BakedClip {
    readonly frames: number;
    readonly first: number;
    readonly times: Float64Array;
    readonly data: Float32Array;
}

/**
 * A skin's palettes baked from its model's clips, for crowds: sampling a clip is a blend of two baked frames (and
 * of two clips during a fade), not sampling channels and composing a skeleton. Each palette holds, per joint, the
 * joint's matrix in the skinned mesh node's space times its inverse bind matrix (16 floats, column-major: what a
 * `MeshSkin` of space "mesh" holds). Frames lie at the clip's keyframe times, and `rate` a second at least where
 * keys are further apart; between frames the matrices blend linearly. A cross-fade blends the two clips' matrices
 * too, not their joints' local rotations as `AnimationPlayer` does: mid-fade a limb may sit a little off where the
 * joint path puts it (the Fox's walk-to-run fade: a fifth of the pixels the fade moves), never after. Nodes that are not joints are baked
 * where the clip puts them too, the mesh node included. Made once per model, skin and mesh node with `BakedSkin.of`.
 */
export class BakedSkin {
    readonly joint_count: number;
    readonly rate: number;
    /** The rest pose's palette (what plays with no clip). */
    readonly rest: Float32Array;
    /**
     * Every palette baked, for the GPU to pick from (`MeshSkin` with a table, blended by `pick`): the rest pose
     * (frame 0), then each clip's frames in the model's order.
     */
    readonly table: SkinPaletteTable;
    readonly #clips = new Map<AnimationClip, BakedClip>();
    // [time, previous time, fade] read from the player (see AnimationPlayer.timing), a blend's weight, then where
    // `locate` found a time: [4] the frame at or before it, [5] the weight of the frame after
    readonly #timing = new Float64Array(6);

    private constructor(source: BakeSource, skin: number, mesh_node: number, rate: number) {
        const model_skin = source.skins[skin];
        if (model_skin === undefined) throw new RangeError(`BakedSkin: '${source.url}' has no skin ${skin} (it has ${source.skins.length})`);
        if (source.nodes[mesh_node] === undefined) throw new RangeError(`BakedSkin: '${source.url}' has no node ${mesh_node}`);
        check_bake_rate(rate, "BakedSkin");
        this.joint_count = model_skin.joints.length;
        this.rate = rate;
        const palette = new Palette(source, skin, mesh_node);
        const pose = new AnimationPose(source.nodes);
        const floats = this.joint_count * 16;
        const all_times = source.animations.map((clip) => frame_times(clip, rate));
        const data = new Float32Array((1 + all_times.reduce((n, times) => n + times.length, 0)) * floats);
        this.rest = data.subarray(0, floats);
        palette.write(pose, data, 0);
        let first = 1;
        source.animations.forEach((clip, c) => {
            const times = all_times[c];
            const frames = times.length;
            for (let f = 0; f < frames; f++) {
                pose.reset();
                sample_clip(clip, times[f], pose);
                palette.write(pose, data, (first + f) * floats);
            }
            this.#clips.set(clip, { frames, first, times, data: data.subarray(first * floats, (first + frames) * floats) });
            first += frames;
        });
        this.table = new SkinPaletteTable(this.joint_count, data, `${source.url} skin ${skin} baked`);
    }

    /** The bake of `source`'s skin `skin` for the mesh on node `mesh_node`, made at the first ask and kept with the model. */
    static of(source: BakeSource, skin: number, mesh_node: number, rate = DEFAULT_BAKE_RATE): BakedSkin {
        let bakes = BAKES.get(source);
        if (bakes === undefined) {
            bakes = new Map();
            BAKES.set(source, bakes);
        }
        const key = `${skin}/${mesh_node}/${rate}`;
        let bake = bakes.get(key);
        if (bake === undefined) {
            bake = new BakedSkin(source, skin, mesh_node, rate);
            bakes.set(key, bake);
        }
        return bake;
    }

    /** Frames baked of `clip` (0: not one of the model's clips). */
    frames_of(clip: AnimationClip): number {
        return this.#clips.get(clip)?.frames ?? 0;
    }

    /**
     * Writes the palette where `player`'s clips are (its clock: `AnimationPlayer.advance` moves it without
     * sampling) into `out` (`joint_count` matrices): its current clip, blended with the clip a fade comes from;
     * the rest pose when nothing plays. Only the matrices' first three rows are written (keep the last 0, 0, 0, 1).
     * Allocates nothing.
     */
    sample(out: Float32Array, player: AnimationPlayer): void {
        const current = player.current;
        if (current === null) {
            out.set(this.rest);
            return;
        }
        const timing = this.#timing;
        player.timing(timing);
        const to = this.#clip(current);
        const previous = player.previous;
        // times and weights go through the array: a double passed to a call not inlined is boxed (a heap number)
        if (previous === null || timing[2] >= 1) {
            timing[3] = 1;
            blend_frames(out, to, timing, 0, this.joint_count, false);
            return;
        }
        timing[3] = 1 - timing[2];
        blend_frames(out, this.#clip(previous), timing, 1, this.joint_count, false);
        timing[3] = timing[2];
        blend_frames(out, to, timing, 0, this.joint_count, true);
    }

    /**
     * Writes into `blend` (a `MeshSkin.blend`: four frames of `table`, then their weights) the frames and weights
     * `sample` would blend where `player`'s clips are; the GPU blends them. Allocates nothing.
     */
    pick(blend: Float32Array, player: AnimationPlayer): void {
        const current = player.current;
        blend.fill(0);
        if (current === null) {
            blend[4] = 1;
            return;
        }
        const timing = this.#timing;
        player.timing(timing);
        const to = this.#clip(current);
        const previous = player.previous;
        const fade = previous === null ? 1 : Math.min(1, timing[2]);
        locate(to, timing, 0);
        blend[0] = to.first + timing[4];
        blend[1] = to.first + Math.min(timing[4] + 1, to.frames - 1);
        blend[4] = fade * (1 - timing[5]);
        blend[5] = fade * timing[5];
        if (fade >= 1) return;
        const from = this.#clip(previous!);
        locate(from, timing, 1);
        blend[2] = from.first + timing[4];
        blend[3] = from.first + Math.min(timing[4] + 1, from.frames - 1);
        blend[6] = (1 - fade) * (1 - timing[5]);
        blend[7] = (1 - fade) * timing[5];
    }

    #clip(clip: AnimationClip): BakedClip {
        const baked = this.#clips.get(clip);
        if (baked === undefined) throw new Error(`BakedSkin: clip '${clip.name}' is not one of the clips baked (a player of another model?)`);
        return baked;
    }
}

const BAKES = new WeakMap<BakeSource, Map<string, BakedSkin>>();

// The clip's keyframe times (every channel's, where the clip is exact), with gaps longer than 1 / rate split
// evenly: between two frames the matrices blend linearly, so frames at the keys keep the authored extremes that
// frames at a fixed rate would cut across (the Fox's 24-a-second keys sampled at 30 a second were 7 degrees off).
function frame_times(clip: AnimationClip, rate: number): Float64Array {
    const keys = new Set<number>([0, clip.duration]);
    for (const channel of clip.channels) for (const t of channel.times) if (t >= 0 && t <= clip.duration) keys.add(t);
    const sorted = [...keys].sort((a, b) => a - b);
    const times: number[] = [];
    for (let i = 0; i < sorted.length; i++) {
        if (i > 0) {
            const gap = sorted[i] - sorted[i - 1];
            const pieces = Math.ceil(gap * rate - 1e-6);
            for (let p = 1; p < pieces; p++) times.push(sorted[i - 1] + (gap * p) / pieces);
        }
        times.push(sorted[i]);
    }
    return Float64Array.from(times);
}

// numbers[4] = the clip's frame at or before numbers[at] (seconds), numbers[5] = the weight of the frame after it
function locate(clip: BakedClip, numbers: Float64Array, at: number): void {
    numbers[4] = 0;
    numbers[5] = 0;
    if (clip.frames < 2) return;
    const time = numbers[at];
    // binary search: frames need not be evenly spaced
    const times = clip.times;
    let lo = 0;
    let hi = clip.frames - 2;
    while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (times[mid] <= time) lo = mid;
        else hi = mid - 1;
    }
    const span = times[lo + 1] - times[lo];
    numbers[4] = lo;
    numbers[5] = span > 0 ? Math.min(1, Math.max(0, (time - times[lo]) / span)) : 0;
}

// out (+)= numbers[3] (the weight) * the clip's palette at numbers[at] (seconds), the two frames around it blended
// linearly
function blend_frames(out: Float32Array, clip: BakedClip, numbers: Float64Array, at: number, joints: number, add: boolean): void {
    const weight = numbers[3];
    const data = clip.data;
    locate(clip, numbers, at);
    const a = numbers[4];
    const s = numbers[5];
    const floats = joints * 16;
    const base_a = a * floats;
    const base_b = clip.frames > 1 ? base_a + floats : base_a;
    const wa = weight * (1 - s);
    const wb = weight * s;
    // every entry but each column's last (the affine row 0, 0, 0, 1); one flat loop per case runs twice as fast as
    // a loop over the 12 entries' offsets (2,000 units: 0.7 against 1.4 ms in a micro-bench)
    if (add) {
        for (let i = 0; i < floats; i++) if ((i & 3) !== 3) out[i] += data[base_a + i] * wa + data[base_b + i] * wb;
    } else {
        for (let i = 0; i < floats; i++) if ((i & 3) !== 3) out[i] = data[base_a + i] * wa + data[base_b + i] * wb;
    }
}

/** Turns a pose into a skin's palette: node world matrices in model space, then each joint relative to the mesh node. */
class Palette {
    readonly #source: BakeSource;
    readonly #joints: readonly number[];
    readonly #inverse_bind: Float32Array;
    readonly #mesh_node: number;
    // every node's model-space matrix, and whether it is composed for the pose at hand
    readonly #world: Float32Array;
    readonly #done: Uint8Array;
    readonly #local = mat4.create();
    readonly #inverse_mesh = mat4.create();
    readonly #joint = mat4.create();

    constructor(source: BakeSource, skin: number, mesh_node: number) {
        this.#source = source;
        this.#joints = source.skins[skin].joints;
        this.#inverse_bind = source.skins[skin].inverse_bind_matrices;
        this.#mesh_node = mesh_node;
        this.#world = new Float32Array(source.nodes.length * 16);
        this.#done = new Uint8Array(source.nodes.length);
    }

    write(pose: AnimationPose, out: Float32Array, offset: number): void {
        this.#done.fill(0);
        if (mat4.invert(this.#inverse_mesh, this.#world_of(pose, this.#mesh_node)) === null) mat4.identity(this.#inverse_mesh);
        for (let j = 0; j < this.#joints.length; j++) {
            const joint = this.#joint;
            mat4.multiply(joint, this.#inverse_mesh, this.#world_of(pose, this.#joints[j]));
            mat4.multiply(joint, joint, this.#inverse_bind.subarray(j * 16, j * 16 + 16));
            out.set(joint, offset + j * 16);
        }
    }

    #world_of(pose: AnimationPose, node: number): Float32Array {
        const world = this.#world.subarray(node * 16, node * 16 + 16);
        if (this.#done[node] === 1) return world;
        // the parent first: the local matrix below goes through a scratch the parent's composition uses too
        const parent = this.#source.nodes[node].parent;
        const parent_world = parent < 0 ? null : this.#world_of(pose, parent);
        const local = this.#local;
        mat4.fromRotationTranslationScale(
            local,
            pose.rotation.subarray(node * 4, node * 4 + 4),
            pose.translation.subarray(node * 3, node * 3 + 3),
            pose.scale.subarray(node * 3, node * 3 + 3),
        );
        if (parent_world === null) world.set(local);
        else mat4.multiply(world, parent_world, local);
        this.#done[node] = 1;
        return world;
    }
}
