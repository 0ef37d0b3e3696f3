/** A glTF skin: the joints (node indices) and one inverse bind matrix (16 floats, column-major) per joint. */
export interface ModelSkin {
    readonly name: string;
    readonly joints: readonly number[];
    /** 16 floats per joint, in `joints` order; identities when the file gives none. */
    readonly inverse_bind_matrices: Float32Array;
    /** The skeleton's root node, -1 when the file names none. */
    readonly skeleton: number;
}
