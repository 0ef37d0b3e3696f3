import type { MeshSkin } from "../../shade/renderer/scene/MeshSkin.js";

/**
 * A skinned primitive's skin and the entities of its joints: `update` writes each joint's world matrix times its
 * inverse bind matrix into the skin, and marks it changed, only when a joint's `WorldTransform.version` moved since
 * the last update. Allocates nothing.
 */
export class SkinBinding {
    readonly skin: MeshSkin;
    /** The entity of joint `j` (-1: a joint outside the instantiated scene; it keeps its rest matrix). */
    readonly joints: Int32Array;
    /** 16 floats per joint, column-major. */
    readonly inverse_bind: Float32Array;
    readonly #seen: Uint32Array;
    #fresh = true;

    constructor(skin: MeshSkin, joints: Int32Array, inverse_bind: Float32Array) {
        if (inverse_bind.length !== joints.length * 16) {
            throw new RangeError(`SkinBinding '${skin.label}': ${joints.length} joints need ${joints.length * 16} inverse bind floats, got ${inverse_bind.length}`);
        }
        this.skin = skin;
        this.joints = joints;
        this.inverse_bind = inverse_bind;
        this.#seen = new Uint32Array(joints.length);
    }

    update(world: Float32Array, version: Uint32Array): void {
        const joints = this.joints;
        const seen = this.#seen;
        let moved = this.#fresh;
        for (let j = 0; j < joints.length; j++) {
            const e = joints[j];
            if (e >= 0 && seen[j] !== version[e]) {
                seen[j] = version[e];
                moved = true;
            }
        }
        if (!moved) return;
        this.#fresh = false;
        const out = this.skin.matrices;
        const ibm = this.inverse_bind;
        for (let j = 0; j < joints.length; j++) {
            const e = joints[j];
            if (e < 0) continue;
            multiply(out, j * 16, world, e * 16, ibm, j * 16);
        }
        this.skin.mark_changed();
    }
}

// out[o..] = a[ao..] * b[bo..], column-major 4x4 (gl-matrix's mat4.multiply, on offsets: no views to make)
function multiply(out: Float32Array, o: number, a: Float32Array, ao: number, b: Float32Array, bo: number): void {
    for (let c = 0; c < 4; c++) {
        const b0 = b[bo + c * 4];
        const b1 = b[bo + c * 4 + 1];
        const b2 = b[bo + c * 4 + 2];
        const b3 = b[bo + c * 4 + 3];
        for (let r = 0; r < 4; r++) {
            out[o + c * 4 + r] = a[ao + r] * b0 + a[ao + 4 + r] * b1 + a[ao + 8 + r] * b2 + a[ao + 12 + r] * b3;
        }
    }
}
