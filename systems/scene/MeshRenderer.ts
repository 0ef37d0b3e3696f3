import { PerEntity } from "../../engine/PerEntity.js";
import type { MeshSkin } from "../../shade/renderer/scene/MeshSkin.js";

/**
 * Draws a mesh at the entity's world transform: a geometry and a material by name from the `SceneSystem`'s
 * `SceneAssets` (built in: geometries `box`, `sphere`, `plane`, material `default`; register more, or a loaded
 * model's), times a per-entity colour. Kept in the renderer's scene by `SceneSystem`: adding or removing the
 * component (or the entity) adds or removes the mesh the same frame.
 *
 * Fields are read every frame (write them in place); `geometry` and `material` are side data: change them with
 * `MeshRenderer.write` or through the level file, and `SceneSystem` picks the change up the same frame.
 */
export const MeshRenderer = PerEntity.define({
    geometry: PerEntity.value<string>("box"),
    material: PerEntity.value<string>("default"),
    /** RGBA at `eid * 4`, multiplied with the material's base colour. */
    color: PerEntity.f32(4, 1),
    /** 1: drawn; 0: hidden (still in the scene, still pickable by nothing). */
    visible: PerEntity.u8(1, 1),
    /** 1: drawn into the sun's shadow map. */
    cast_shadows: PerEntity.u8(1, 1),
    /** 1: decals project onto it (the ground, walls); 0 (the default): they do not (units, props). */
    receive_decals: PerEntity.u8(),
    /**
     * Skinned on the GPU with this skin's joint matrices (side data; null: rigid). Its geometry needs joints and
     * weights, and each entity a skin of its own. `ModelSystem` sets it on a skinned glTF primitive's entity and
     * fills it from the joint entities every frame.
     */
    skin: PerEntity.value<MeshSkin | null>(null),
});

/** What `MeshRenderer.write` takes; a field left out keeps its default. */
export interface MeshRendererSpec {
    readonly geometry?: string;
    readonly material?: string;
    readonly color?: ArrayLike<number>;
    readonly visible?: boolean;
    readonly cast_shadows?: boolean;
    readonly receive_decals?: boolean;
}

/** Fills `eid`'s `MeshRenderer` from `spec` and the defaults (the entity must have the component). */
export function write_mesh_renderer(eid: number, spec: MeshRendererSpec): void {
    const color = spec.color ?? [1, 1, 1, 1];
    if (color.length !== 4) throw new RangeError(`MeshRenderer.color is RGBA (4 numbers), got ${color.length}`);
    for (let i = 0; i < 4; i++) {
        if (!Number.isFinite(color[i])) throw new RangeError(`MeshRenderer.color[${i}] must be a finite number, got ${String(color[i])}`);
        MeshRenderer.color[eid * 4 + i] = color[i];
    }
    MeshRenderer.geometry[eid] = spec.geometry ?? "box";
    MeshRenderer.material[eid] = spec.material ?? "default";
    MeshRenderer.visible[eid] = spec.visible === false ? 0 : 1;
    MeshRenderer.cast_shadows[eid] = spec.cast_shadows === false ? 0 : 1;
    MeshRenderer.receive_decals[eid] = spec.receive_decals === true ? 1 : 0;
    MeshRenderer.skin[eid] = null;
}
