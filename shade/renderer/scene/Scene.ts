import { vec3 } from "gl-matrix";
import type { Environment } from "../environment/Environment.js";
import { DirectionalLight } from "./DirectionalLight.js";
import type { Mesh, MeshOwner } from "./Mesh.js";
import type { PointLight } from "./PointLight.js";

/** Most point lights the lighting step shades per frame. */
export const MAX_POINT_LIGHTS = 256;

/**
 * What the renderer draws: meshes, one directional light, up to `MAX_POINT_LIGHTS` point lights and an
 * ambient term. `version` changes whenever membership changes, so draw lists are re-sorted only then.
 */
export class Scene implements MeshOwner {
    readonly meshes: Mesh[] = [];
    readonly sun = new DirectionalLight();
    readonly #point_lights: PointLight[] = [];
    // a proxy that refuses writes, so `scene.point_lights.push(light)` fails loudly instead of being ignored
    readonly #point_lights_view: readonly PointLight[] = __SHADE_DEBUG__ ? read_only_view(this.#point_lights) : this.#point_lights;
    /** Linear RGB ambient radiance. */
    readonly ambient: Float32Array = vec3.fromValues(0.03, 0.035, 0.045) as Float32Array;
    /** Linear RGB radiance of pixels no opaque mesh covers (the sky behind the scene), read every frame. */
    readonly sky: Float32Array = vec3.fromValues(0.05, 0.07, 0.1) as Float32Array;
    /**
     * Image-based light from all around: when set, the lighting shades ambient light from it in place of
     * `ambient`, and pixels no opaque mesh covers show it in place of `sky`. The sun and point lights stay.
     */
    environment: Environment | null = null;
    #version = 0;
    #frozen_version = 0;
    #next_id = 1;

    /**
     * The point lights, in the order added. Read-only, and frozen against writes from plain JavaScript in
     * development builds: add and remove them with `add_point_light`/`remove_point_light`, which refuse more
     * than `MAX_POINT_LIGHTS` rather than let extra lights go silently unshaded.
     */
    get point_lights(): readonly PointLight[] {
        return this.#point_lights_view;
    }

    /** How many point lights there are (a hot-path read that bypasses the guarded view). */
    get point_light_count(): number {
        return this.#point_lights.length;
    }

    /** The `index`th point light. */
    point_light(index: number): PointLight {
        return this.#point_lights[index];
    }

    get version(): number {
        return this.#version;
    }

    /** Changes whenever a frozen mesh reports a change (`Mesh.changed`), so draw lists read frozen meshes again only then. */
    get frozen_version(): number {
        return this.#frozen_version;
    }

    /** @internal `Mesh.changed` of a frozen mesh in this scene. */
    frozen_mesh_changed(): void {
        this.#frozen_version++;
    }

    add(mesh: Mesh): Mesh {
        if (mesh.object_id !== 0) throw new Error(`Scene.add: mesh ${mesh.object_id} is already in a scene`);
        mesh.object_id = this.#next_id++;
        mesh.owner = this;
        this.meshes.push(mesh);
        this.#version++;
        return mesh;
    }

    remove(mesh: Mesh): boolean {
        const i = this.meshes.indexOf(mesh);
        if (i === -1) return false;
        this.meshes[i] = this.meshes[this.meshes.length - 1];
        this.meshes.pop();
        mesh.object_id = 0;
        mesh.owner = null;
        this.#version++;
        return true;
    }

    add_point_light(light: PointLight): PointLight {
        if (this.#point_lights.length >= MAX_POINT_LIGHTS) {
            throw new RangeError(`Scene.add_point_light: at most ${MAX_POINT_LIGHTS} point lights are shaded per frame`);
        }
        this.#point_lights.push(light);
        return light;
    }

    remove_point_light(light: PointLight): boolean {
        const i = this.#point_lights.indexOf(light);
        if (i === -1) return false;
        this.#point_lights.splice(i, 1);
        return true;
    }

    /** Call after changing a mesh's geometry or material (or a material's texture slots or variant) so draw lists are re-sorted. */
    mark_changed(): void {
        this.#version++;
    }
}

function read_only_view(list: PointLight[]): readonly PointLight[] {
    const refuse = (): never => {
        throw new TypeError(
            `Scene.point_lights is read-only: add lights with scene.add_point_light(light) (at most ${MAX_POINT_LIGHTS}) and remove them with remove_point_light`,
        );
    };
    return new Proxy(list, {
        get(target, key, receiver) {
            if (key === "push" || key === "pop" || key === "splice" || key === "shift" || key === "unshift" || key === "fill" || key === "sort" || key === "reverse" || key === "copyWithin") {
                return refuse;
            }
            return Reflect.get(target, key, receiver);
        },
        set: refuse,
        deleteProperty: refuse,
        defineProperty: refuse,
    });
}
