import type { Geometry } from "../../shade/renderer/geometry/Geometry.js";
import { make_box_geometry } from "../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { make_cylinder_geometry } from "../../shade/renderer/geometry/primitives/make_cylinder_geometry.js";
import { make_plane_geometry } from "../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { make_sphere_geometry } from "../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";

/**
 * The geometries and materials `MeshRenderer` names. Built in: geometries `box` (1 x 1 x 1), `sphere`
 * (radius 0.5), `cylinder` (radius 0.5, height 1) and `plane` (1 x 1, facing +y), material `default` (white,
 * roughness 0.5). Register more before a level names them (a name in use is refused: names mean one thing).
 */
export class SceneAssets {
    readonly #geometries = new Map<string, Geometry>();
    readonly #materials = new Map<string, StandardMaterial>();

    constructor() {
        this.#geometries.set("box", make_box_geometry(1, 1, 1));
        this.#geometries.set("sphere", make_sphere_geometry(0.5));
        this.#geometries.set("cylinder", make_cylinder_geometry(0.5, 1));
        this.#geometries.set("plane", make_plane_geometry(1, 1));
        this.#materials.set("default", new StandardMaterial({ label: "default" }));
    }

    register_geometry(name: string, geometry: Geometry): void {
        check_name("register_geometry", name, this.#geometries);
        this.#geometries.set(name, geometry);
    }

    register_material(name: string, material: StandardMaterial): void {
        check_name("register_material", name, this.#materials);
        this.#materials.set(name, material);
    }

    /** Forgets geometry `name` (a model's, when the model is released); returns whether it was there. Built-ins stay. */
    unregister_geometry(name: string): boolean {
        if (BUILT_IN_GEOMETRIES.has(name)) throw new Error(`SceneAssets.unregister_geometry: '${name}' is built in and stays`);
        return this.#geometries.delete(name);
    }

    /** Forgets material `name`; returns whether it was there. The built-in `default` stays. */
    unregister_material(name: string): boolean {
        if (name === "default") throw new Error(`SceneAssets.unregister_material: 'default' is built in and stays`);
        return this.#materials.delete(name);
    }

    /** The geometry registered as `name`, or undefined. */
    geometry(name: string): Geometry | undefined {
        return this.#geometries.get(name);
    }

    /** The material registered as `name`, or undefined. */
    material(name: string): StandardMaterial | undefined {
        return this.#materials.get(name);
    }

    /** The registered geometry names, sorted (for error messages and editors). */
    geometry_names(): string[] {
        return [...this.#geometries.keys()].sort();
    }

    /** The registered material names, sorted. */
    material_names(): string[] {
        return [...this.#materials.keys()].sort();
    }
}

const BUILT_IN_GEOMETRIES = new Set(["box", "sphere", "cylinder", "plane"]);

function check_name(method: string, name: string, map: Map<string, unknown>): void {
    if (typeof name !== "string" || name.length === 0) throw new TypeError(`SceneAssets.${method}: the name must be a non-empty string, got ${JSON.stringify(name)}`);
    if (map.has(name)) throw new Error(`SceneAssets.${method}: '${name}' is already registered (a name means one thing; choose another)`);
}
