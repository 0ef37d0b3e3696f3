/** A node's rest transform, what a pose starts from (a loaded `ModelNode` is one). */
export interface PoseNode {
    readonly translation: ArrayLike<number>;
    readonly rotation: ArrayLike<number>;
    readonly scale: ArrayLike<number>;
    /** Morph target weights at rest; absent or empty without targets. */
    readonly weights?: ArrayLike<number>;
}
