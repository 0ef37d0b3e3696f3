import type { AnimationClip } from "../animation/AnimationClip.js";
import type { MaterialDescription } from "./MaterialDescription.js";
import type { ModelMesh } from "./ModelMesh.js";
import type { ModelNode } from "./ModelNode.js";
import type { ModelSkin } from "./ModelSkin.js";
import type { ModelTexture } from "./ModelTexture.js";

/** What a loaded model is made of; indices between the lists are the file's own. */
export interface ModelParts {
    readonly url: string;
    readonly nodes: readonly ModelNode[];
    /** The default scene's root nodes (every root when the file has no scene). */
    readonly scene_roots: readonly number[];
    readonly meshes: readonly ModelMesh[];
    readonly materials: readonly MaterialDescription[];
    readonly textures: readonly ModelTexture[];
    readonly skins: readonly ModelSkin[];
    readonly animations: readonly AnimationClip[];
    /** What was read but left out (a lines primitive, an unused extension), one sentence each. */
    readonly warnings: readonly string[];
}

/**
 * A loaded glTF model: the node tree, meshes of `Geometry` primitives with their GPU buffers, material
 * descriptions, GPU textures, skins and animation clips. It owns its GPU objects: `destroy` frees every buffer and
 * texture (an `AssetCache` calls it at the last release; do not call it on a cached model yourself).
 */
export class Model implements ModelParts {
    readonly url: string;
    readonly nodes: readonly ModelNode[];
    readonly scene_roots: readonly number[];
    readonly meshes: readonly ModelMesh[];
    readonly materials: readonly MaterialDescription[];
    readonly textures: readonly ModelTexture[];
    readonly skins: readonly ModelSkin[];
    readonly animations: readonly AnimationClip[];
    readonly warnings: readonly string[];
    #destroyed = false;

    constructor(parts: ModelParts) {
        this.url = parts.url;
        this.nodes = parts.nodes;
        this.scene_roots = parts.scene_roots;
        this.meshes = parts.meshes;
        this.materials = parts.materials;
        this.textures = parts.textures;
        this.skins = parts.skins;
        this.animations = parts.animations;
        this.warnings = parts.warnings;
    }

    /** The clip called `name`, or null. */
    clip(name: string): AnimationClip | null {
        return this.animations.find((clip) => clip.name === name) ?? null;
    }

    get destroyed(): boolean {
        return this.#destroyed;
    }

    /** Frees the model's GPU buffers and textures; the CPU data stays readable. A second call does nothing. */
    destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        for (const texture of this.textures) texture.texture.destroy();
        for (const mesh of this.meshes) {
            for (const primitive of mesh.primitives) {
                primitive.buffers.vertex.destroy();
                primitive.buffers.index.destroy();
            }
        }
    }
}
