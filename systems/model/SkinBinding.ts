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

// out[o..] = a[ao..] * b[bo..], column-major 4x4, for an affine a (a world matrix: its last row is 0, 0, 0, 1, so
// each column's last entry is b's): gl-matrix's mat4.multiply on offsets, no views to make, half the arithmetic
function multiply(out: Float32Array, o: number, a: Float32Array, ao: number, b: Float32Array, bo: number): void {
    const a0 = a[ao];
    const a1 = a[ao + 1];
    const a2 = a[ao + 2];
    const a4 = a[ao + 4];
    const a5 = a[ao + 5];
    const a6 = a[ao + 6];
    const a8 = a[ao + 8];
    const a9 = a[ao + 9];
    const a10 = a[ao + 10];
    const a12 = a[ao + 12];
    const a13 = a[ao + 13];
    const a14 = a[ao + 14];
    for (let c = 0; c < 4; c++) {
        const k = bo + c * 4;
        const b0 = b[k];
        const b1 = b[k + 1];
        const b2 = b[k + 2];
        const b3 = b[k + 3];
        const q = o + c * 4;
        out[q] = a0 * b0 + a4 * b1 + a8 * b2 + a12 * b3;
        out[q + 1] = a1 * b0 + a5 * b1 + a9 * b2 + a13 * b3;
        out[q + 2] = a2 * b0 + a6 * b1 + a10 * b2 + a14 * b3;
        out[q + 3] = b3;
    }
}
