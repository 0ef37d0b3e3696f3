import type { SkinPaletteTable } from "./SkinPaletteTable.js";

/**
 * What a skin's matrices are relative to. "world": each is the joint's world matrix times its inverse bind matrix,
 * so a vertex skinned by them is in world space and the mesh's own world matrix is not applied (glTF ignores the
 * skinned mesh node's transform). "mesh": each is the joint's matrix in the mesh's own space times its inverse
 * bind matrix (a baked clip's palette), and the mesh's world matrix places the result as for a rigid mesh: moving
 * the mesh neither rewrites the matrices nor skins it again.
 */
export type SkinSpace = "world" | "mesh";

/**
 * The joint matrices of a skinned mesh (glTF skinning), in `space` ("world" unless told). The mesh's geometry needs
 * `joints` and `weights`.
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
    readonly space: SkinSpace;
    /**
     * Palettes to pick from (space "mesh" only), or null: with a table the renderer blends the palette on the GPU
     * from the frames and weights in `blend`, and `matrices` is not read.
     */
    readonly table: SkinPaletteTable | null;
    /**
     * With a table: four frames of it (floats holding whole numbers) then their four weights, summing to 1. Write
     * in place and call `mark_changed()`. Starts at frame 0, weight 1.
     */
    readonly blend = new Float32Array([0, 0, 0, 0, 1, 0, 0, 0]);
    /** Bumped by `mark_changed()`; starts at 1 so a new skin is skinned on its first frame. */
    version = 1;
    /**
     * @internal The skinning record of the last renderer state (one per device) that skinned this skin, and that
     * state: what the state's map holds for it, kept here too so a frame of 2,000 skinned meshes makes no map lookup
     * per mesh. The state clears it when it lets the record go.
     */
    skinning_owner: object | null = null;
    /** @internal See `skinning_owner`. */
    skinning_record: object | null = null;
    /**
     * @internal The skinned buffers (`GPUGeometryCache.set_skinned`) of the last geometry cache (one per device) they
     * were set in, and that cache: what its map holds for this skin, kept here too (no map lookup per mesh and pass).
     */
    skinned_owner: object | null = null;
    /** @internal See `skinned_owner`. */
    skinned_entry: object | null = null;

    constructor(joint_count: number, label = "skin", space: SkinSpace = "world", table: SkinPaletteTable | null = null) {
        if (!Number.isInteger(joint_count) || joint_count < 1 || joint_count > 65536) {
            throw new RangeError(`MeshSkin '${label}': joint_count is an integer in 1..65536, got ${joint_count}`);
        }
        if (space !== "world" && space !== "mesh") throw new RangeError(`MeshSkin '${label}': space is "world" or "mesh", got ${String(space)}`);
        this.space = space;
        if (table !== null && (space !== "mesh" || table.joint_count !== joint_count)) {
            throw new RangeError(`MeshSkin '${label}': a palette table needs space "mesh" and ${joint_count} joints, got space "${space}" and table '${table.label}' of ${table.joint_count}`);
        }
        this.table = table;
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
