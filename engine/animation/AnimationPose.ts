import type { PoseNode } from "./PoseNode.js";

/**
 * Local transforms of every node of a model, packed: translation (3 floats a node), rotation (xyzw, 4), scale (3)
 * and morph weights (`weight_count[n]` floats from `weight_offset[n]`). Made once from the rest pose; sampling and
 * blending write it in place.
 */
export class AnimationPose {
    readonly node_count: number;
    readonly translation: Float32Array;
    readonly rotation: Float32Array;
    readonly scale: Float32Array;
    readonly weights: Float32Array;
    readonly weight_offset: Int32Array;
    readonly weight_count: Int32Array;
    // translation, rotation, scale and weights are views of one array, and the rest pose is a copy of it: a reset
    // is one copy (a pose is reset for every player every frame)
    readonly #all: Float32Array;
    readonly #rest: Float32Array;

    constructor(rest: readonly PoseNode[]) {
        const n = rest.length;
        this.node_count = n;
        this.weight_offset = new Int32Array(n);
        this.weight_count = new Int32Array(n);
        let weights = 0;
        for (let i = 0; i < n; i++) {
            this.weight_offset[i] = weights;
            this.weight_count[i] = rest[i].weights?.length ?? 0;
            weights += this.weight_count[i];
        }
        this.#all = new Float32Array(n * 10 + weights);
        this.translation = this.#all.subarray(0, n * 3);
        this.rotation = this.#all.subarray(n * 3, n * 7);
        this.scale = this.#all.subarray(n * 7, n * 10);
        this.weights = this.#all.subarray(n * 10);
        for (let i = 0; i < n; i++) {
            const node = rest[i];
            if (node.translation.length !== 3 || node.rotation.length !== 4 || node.scale.length !== 3) {
                throw new RangeError(`AnimationPose: node ${i}'s rest transform must be translation 3, rotation 4, scale 3 floats`);
            }
            this.translation.set(node.translation, i * 3);
            this.rotation.set(node.rotation, i * 4);
            this.scale.set(node.scale, i * 3);
            if (node.weights !== undefined) this.weights.set(node.weights, this.weight_offset[i]);
        }
        this.#rest = this.#all.slice();
    }

    /** Back to the rest pose. */
    reset(): void {
        this.#all.set(this.#rest);
    }

    /** A pose of the same nodes with its own arrays, at the same rest pose. */
    clone_rest(): AnimationPose {
        const rest = this.#rest;
        const n = this.node_count;
        const nodes: PoseNode[] = [];
        for (let i = 0; i < n; i++) {
            const o = n * 10 + this.weight_offset[i];
            nodes.push({
                translation: rest.subarray(i * 3, i * 3 + 3),
                rotation: rest.subarray(n * 3 + i * 4, n * 3 + i * 4 + 4),
                scale: rest.subarray(n * 7 + i * 3, n * 7 + i * 3 + 3),
                weights: rest.subarray(o, o + this.weight_count[i]),
            });
        }
        return new AnimationPose(nodes);
    }
}
