/**
 * Palettes computed ahead of time for skins that pick from them (a crowd's baked clips): `frames` palettes of
 * `joint_count` column-major 4x4 matrices, joint `j` of frame `f` at `(f * joint_count + j) * 16`, each a joint's
 * matrix in the mesh's space times its inverse bind matrix. A `MeshSkin` given a table (space "mesh") names up to
 * four frames and their weights in `MeshSkin.blend`, and the renderer blends them on the GPU: the CPU writes 8
 * numbers a mesh, not its matrices. Uploaded once per device: do not change `data` after the first frame draws it.
 */
export class SkinPaletteTable {
    readonly joint_count: number;
    readonly frames: number;
    readonly data: Float32Array;
    readonly label: string;

    constructor(joint_count: number, data: Float32Array, label = "skin palette table") {
        if (!Number.isInteger(joint_count) || joint_count < 1) throw new RangeError(`SkinPaletteTable '${label}': joint_count is a positive integer, got ${joint_count}`);
        if (data.length === 0 || data.length % (joint_count * 16) !== 0) {
            throw new RangeError(`SkinPaletteTable '${label}': data holds whole palettes of ${joint_count} matrices (${joint_count * 16} floats each), got ${data.length} floats`);
        }
        this.joint_count = joint_count;
        this.frames = data.length / (joint_count * 16);
        this.data = data;
        this.label = label;
    }
}
