import { Parent } from "./components/Parent.js";
import { Transform } from "./components/Transform.js";
import { WorldTransform } from "./components/WorldTransform.js";
import { compose_world_matrix } from "./compose_world_matrix.js";

/** Entities checked per `verify`: a few each time, round the world, so the check costs the same at any size. */
const PER_VERIFY = 8;
/** A world matrix element may differ from the recomposed one by this much, relative to the larger of the two. */
const TOLERANCE = 1e-5;

// one entity's Transform at index 0 and its parent's world matrix at index 1
const T = new Float32Array(3);
const R = new Float32Array(4);
const S = new Float32Array(3);
const W = new Float32Array(32);

/**
 * @internal
 * Development builds only: world matrices are recomputed only for marked entities, so a `Transform` written in
 * place without `mark_transform_changed` (or `set_position` and its kin) leaves the entity drawn where it was.
 * After each propagation this recomposes a few entities' world matrices from their Transform and their parent's
 * world matrix and throws, naming the entity, when one differs: the silent stale position becomes an error at
 * the frame it happens (within a few frames for worlds of a few hundred entities). Production builds leave it out.
 */
export class StaleTransformCheck {
    readonly #describe: (eid: number) => string;
    #placed = new Int32Array(64);
    #count = 0;
    /** Where each entity sits in `#placed` (-1: not there), indexed by id. */
    #slot = new Int32Array(64).fill(-1);
    #cursor = 0;

    constructor(describe: (eid: number) => string) {
        this.#describe = describe;
    }

    add(eid: number): void {
        if (eid >= this.#slot.length) {
            const grown = new Int32Array(Math.max(eid + 1, this.#slot.length * 2)).fill(-1);
            grown.set(this.#slot);
            this.#slot = grown;
        }
        if (this.#slot[eid] !== -1) return;
        if (this.#count === this.#placed.length) {
            const grown = new Int32Array(this.#placed.length * 2);
            grown.set(this.#placed);
            this.#placed = grown;
        }
        this.#slot[eid] = this.#count;
        this.#placed[this.#count++] = eid;
    }

    remove(eid: number): void {
        if (eid >= this.#slot.length) return;
        const slot = this.#slot[eid];
        if (slot === -1) return;
        const last = this.#placed[--this.#count];
        this.#placed[slot] = last;
        this.#slot[last] = slot;
        this.#slot[eid] = -1;
    }

    /** Recomposes the next few entities' world matrices; throws when one no longer matches its Transform. */
    verify(): void {
        const n = Math.min(PER_VERIFY, this.#count);
        for (let k = 0; k < n; k++) {
            if (this.#cursor >= this.#count) this.#cursor = 0;
            const eid = this.#placed[this.#cursor++];
            if (this.#stale(eid)) {
                throw new Error(
                    `${this.#describe(eid)}: its Transform was written in place without entityManager.mark_transform_changed(eid), ` +
                        `so its world matrix (and its children's) still says where it was; call mark_transform_changed after ` +
                        `writing Transform, or write through set_position / set_rotation / set_scale`,
                );
            }
        }
    }

    #stale(eid: number): boolean {
        const p = eid * 3;
        const r = eid * 4;
        for (let i = 0; i < 3; i++) {
            T[i] = Transform.position[p + i];
            S[i] = Transform.scale[p + i];
        }
        for (let i = 0; i < 4; i++) R[i] = Transform.rotation[r + i];
        const parent = Parent.eid[eid];
        const world = WorldTransform.matrix;
        if (parent >= 0) for (let i = 0; i < 16; i++) W[16 + i] = world[parent * 16 + i];
        compose_world_matrix(T, R, S, W, 0, parent >= 0 ? 1 : -1);
        for (let i = 0; i < 16; i++) {
            const expected = W[i];
            const actual = world[eid * 16 + i];
            if (Math.abs(expected - actual) > TOLERANCE * Math.max(1, Math.abs(expected), Math.abs(actual))) return true;
        }
        return false;
    }
}
