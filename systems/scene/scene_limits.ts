import type { ComponentRegistry } from "../../engine/level/ComponentRegistry.js";
import { MAX_POINT_LIGHTS, type Scene } from "../../shade/renderer/scene/Scene.js";
import { MeshRendererDescriptor } from "./MeshRendererDescriptor.js";
import { PointLightDescriptor } from "./PointLightDescriptor.js";
import type { SceneAssets } from "./SceneAssets.js";

/**
 * @internal SceneSystem's limits on level values, checked by `load_level` before it creates anything: a
 * `MeshRenderer` names a registered geometry and material, and the point lights fit in `scene`. Returns the
 * functions that remove them (for `shutdown`).
 */
export function add_scene_limits(components: ComponentRegistry, owner: string, assets: SceneAssets, scene: Scene): (() => void)[] {
    return [
        components.add_limit(MeshRendererDescriptor, {
            owner,
            check: (value) => {
                if (assets.geometry(value.geometry) === undefined) return { path: "geometry", expected: `a registered geometry: ${assets.geometry_names().join(", ")}` };
                if (assets.material(value.material) === undefined) return { path: "material", expected: `a registered material: ${assets.material_names().join(", ")}` };
                return null;
            },
        }),
        components.add_limit(PointLightDescriptor, {
            owner,
            check: (_value, ordinal) => {
                const room = MAX_POINT_LIGHTS - scene.point_light_count;
                return ordinal >= room ? { path: "", expected: `at most ${MAX_POINT_LIGHTS} point lights in the scene (${scene.point_light_count} there already)`, found: `point light ${ordinal + 1}` } : null;
            },
        }),
    ];
}
