import type { PooledTexture } from "./TransientTexturePool.js";
import type { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

/** A graph texture across all its versions. Pooled by the graph: fields are reset, never reallocated. */
export class ResourceNode<T, V> {
    name = "";
    descriptor!: TextureResourceDescriptor;
    /** Set for imported textures, which the graph never owns. */
    imported: T | null = null;
    imported_view: V | null = null;
    /** Latest version and the handle-node index that carries it. */
    version = 0;
    latest = -1;
    /** First and last surviving pass (indices into the graph's pass list) that use it; -1 when none. */
    first_pass = -1;
    last_pass = -1;
    pooled: PooledTexture<T, V> | null = null;

    reset(name: string, descriptor: TextureResourceDescriptor, imported: T | null, imported_view: V | null): void {
        this.name = name;
        this.descriptor = descriptor;
        this.imported = imported;
        this.imported_view = imported_view;
        this.version = 0;
        this.latest = -1;
        this.first_pass = -1;
        this.last_pass = -1;
        this.pooled = null;
    }
}
