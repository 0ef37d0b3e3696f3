/**
 * The joint matrices of a skinned mesh (glTF skinning). Each matrix is the joint's world matrix times its
 * inverse bind matrix, so a vertex skinned by them is in world space: the mesh's own world matrix is not applied
 * (glTF ignores the skinned mesh node's transform). The mesh's geometry needs `joints` and `weights`.
 *
 * Write `matrices` in place and call `mark_changed()`: the renderer re-skins only when the version changed.
 *
 * Culling (the G-buffer's frustum culling, the shadow cascades' caster culling) bounds a skinned mesh by its
 * geometry's bind-pose sphere, placed by the mesh's own world matrix and grown by `SKINNED_BOUNDS_SCALE`: keep the
 * skeleton near the mesh's transform (as glTF scenes do), or turn culling off.
 */
export class MeshSkin {
    readonly joint_count: number;
    /** `joint_count` column-major 4x4 matrices, joint `j` at `j * 16`. Identity until written. */
    readonly matrices: Float32Array;
    readonly label: string;
    /** Bumped by `mark_changed()`; starts at 1 so a new skin is skinned on its first frame. */
    version = 1;

    constructor(joint_count: number, label = "skin") {
        if (!Number.isInteger(joint_count) || joint_count < 1 || joint_count > 65536) {
            throw new RangeError(`MeshSkin '${label}': joint_count is an integer in 1..65536, got ${joint_count}`);
        }
        this.joint_count = joint_count;
        this.label = label;
        this.matrices = new Float32Array(joint_count * 16);
        for (let j = 0; j < joint_count; j++) {
            const o = j * 16;
            this.matrices[o] = 1;
            this.matrices[o + 5] = 1;
            this.matrices[o + 10] = 1;
            this.matrices[o + 15] = 1;
        }
    }

    /** Tells the renderer the matrices changed since the last frame it drew. */
    mark_changed(): void {
        this.version++;
    }
}

/**
 * How far a skinned mesh's vertices may reach past its bind pose's bounding sphere, as a factor of the radius:
 * the culling of skinned meshes tests the sphere grown by it (limbs swing out, a crouch or a stretch moves them).
 */
export const SKINNED_BOUNDS_SCALE = 1.5;
