/** One glTF node: its place in the tree, its rest transform (local TRS) and what it carries. Indices are the file's. */
export interface ModelNode {
    readonly index: number;
    readonly name: string;
    /** xyz, relative to the parent. */
    readonly translation: Float32Array;
    /** Unit quaternion xyzw. */
    readonly rotation: Float32Array;
    readonly scale: Float32Array;
    /** -1 for a root. */
    readonly parent: number;
    readonly children: readonly number[];
    /** Index into `Model.meshes`, -1 for none. */
    readonly mesh: number;
    /** Index into `Model.skins`, -1 for none. */
    readonly skin: number;
    /** The node's morph target weights (its own, else its mesh's defaults); empty without morph targets. */
    readonly weights: Float32Array;
}
