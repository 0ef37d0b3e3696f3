import { Transform } from "../../engine/components/Transform.js";
import { WorldTransform } from "../../engine/components/WorldTransform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { PerEntity } from "../../engine/PerEntity.js";
import { System } from "../../engine/System.js";
import { generate_heightmap } from "./generate_heightmap.js";
import { Terrain } from "./Terrain.js";
import { TerrainDescriptor } from "./TerrainDescriptor.js";
import { TerrainDraw } from "./TerrainDraw.js";
import { TerrainExtension } from "./TerrainExtension.js";
import { TerrainGrid } from "./TerrainGrid.js";
import { GBufferFlags } from "../../shade/renderer/extension/GBufferFlags.js";
import { GBUFFER_FLAG_LIT } from "./terrain.wgsl.js";

export interface TerrainSystemOptions {
    /** Written to the G-buffer's object-id target where the ground is (0, the default: no object, as the sky). */
    readonly object_id?: number;
    /** Written to the material target's material index (0..255). Default 0. */
    readonly material_id?: number;
    /** Decals project onto the terrain (the ground is a decal receiver by default). Default true. */
    readonly receive_decals?: boolean;
}

const TERMS = [Terrain];
/** Cached per built terrain: the fields, the heights version and the origin. */
const BUILT_WORDS = 13;

/**
 * Draws every entity with a `Terrain` into the G-buffer (through the `TerrainExtension` it owns, at
 * AfterGBuffer) and answers `height_at(x, z)` for game code. A terrain is built (heights generated or taken
 * from the component, grid and normals computed) when it appears and whenever one of its fields, its given
 * heights or its `Transform.position` change; otherwise the update compares and allocates nothing.
 */
export class TerrainSystem extends System {
    readonly name = "TerrainSystem";

    readonly #graphics: GraphicsEngine;
    readonly #object_id: number;
    readonly #material_id: number;
    readonly #flags: number;
    #extension: TerrainExtension | null = null;
    #entityManager: EntityManager | null = null;
    #query: EntityQuery | null = null;
    #unobserve: (() => void) | null = null;
    /** Per-entity state, grown with the entity ids (`PerEntity`). */
    readonly #per_entity = PerEntity.define({
        by_eid: PerEntity.value<TerrainDraw | undefined>(undefined),
        built: PerEntity.f64(BUILT_WORDS),
    });
    get #by_eid(): (TerrainDraw | undefined)[] {
        return this.#per_entity.by_eid;
    }
    get #built(): Float64Array {
        return this.#per_entity.built;
    }
    /** The terrains drawn, in no particular order. */
    readonly draws: TerrainDraw[] = [];
    #builds = 0;

    constructor(graphics: GraphicsEngine, options: TerrainSystemOptions = {}) {
        super();
        this.#graphics = graphics;
        const object_id = options.object_id ?? 0;
        const material_id = options.material_id ?? 0;
        this.#flags = GBUFFER_FLAG_LIT | (options.receive_decals === false ? 0 : GBufferFlags.receives_decals);
        if (!(Number.isInteger(object_id) && object_id >= 0 && object_id <= 0xffffffff)) throw new RangeError(`TerrainSystem: object_id must be a 32-bit unsigned integer, got ${object_id}`);
        if (!(Number.isInteger(material_id) && material_id >= 0 && material_id <= 255)) throw new RangeError(`TerrainSystem: material_id must be an integer in 0..255, got ${material_id}`);
        this.#object_id = object_id;
        this.#material_id = material_id;
    }

    /** The extension while started up, else null. */
    get extension(): TerrainExtension | null {
        return this.#extension;
    }

    /** Terrains built so far (each appearance or change). For tests and diagnostics. */
    get build_count(): number {
        return this.#builds;
    }

    /** The built grid of entity `eid` (after an update), else null. */
    grid_of(eid: number): TerrainGrid | null {
        return this.#by_eid[eid]?.grid ?? null;
    }

    /**
     * World height of the ground at (x, z): the surface as drawn (the grid's triangles), of the first terrain
     * whose square holds the point; NaN where there is no terrain. Reflects the last update.
     */
    height_at(x: number, z: number): number {
        const draws = this.draws;
        for (let i = 0; i < draws.length; i++) {
            const grid = draws[i].grid;
            if (grid.contains(x, z)) return grid.height_at(x, z);
        }
        return Number.NaN;
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#extension !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(TerrainDescriptor);
        this.#entityManager = entityManager;
        this.#query = entityManager.register_query(TERMS);
        this.#unobserve = entityManager.on_remove(Terrain, (eid) => this.#release(eid));
        this.#extension = this.#graphics.add_extension(new TerrainExtension(this));
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        this.#unobserve?.();
        this.#unobserve = null;
        this.#query = null;
        this.#entityManager = null;
        for (const draw of this.draws) {
            draw.release();
            this.#by_eid[draw.eid] = undefined;
        }
        this.draws.length = 0;
    }

    override update(dt: number): void {
        void dt;
        const query = this.#query;
        if (query === null) return;
        const entities = query.entities;
        const entityManager = this.#entityManager!;
        const built = this.#built;
        // the world position, so that a terrain under a parent moves with it
        const world = WorldTransform.matrix;
        for (let k = 0; k < entities.length; k++) {
            const eid = entities[k];
            const placed = entityManager.has_component(eid, Transform);
            const ox = placed ? world[eid * 16 + 12] : 0;
            const oy = placed ? world[eid * 16 + 13] : 0;
            const oz = placed ? world[eid * 16 + 14] : 0;
            const b = eid * BUILT_WORDS;
            const draw = this.#by_eid[eid];
            if (
                draw !== undefined &&
                built[b] === Terrain.size[eid] &&
                built[b + 1] === Terrain.resolution[eid] &&
                built[b + 2] === Terrain.height_scale[eid] &&
                built[b + 3] === Terrain.seed[eid] &&
                built[b + 4] === Terrain.octaves[eid] &&
                built[b + 5] === Terrain.frequency[eid] &&
                built[b + 6] === Terrain.sand_level[eid] &&
                built[b + 7] === Terrain.snow_level[eid] &&
                built[b + 8] === Terrain.rock_slope[eid] &&
                built[b + 9] === Terrain.version[eid] &&
                built[b + 10] === ox &&
                built[b + 11] === oy &&
                built[b + 12] === oz
            ) {
                continue;
            }
            this.#build(eid, ox, oy, oz);
        }
    }

    #build(eid: number, ox: number, oy: number, oz: number): void {
        const b = eid * BUILT_WORDS;
        const built = this.#built;
        const resolution = Terrain.resolution[eid];
        if (!(resolution >= 2)) throw new Error(`TerrainSystem: entity ${eid}'s Terrain.resolution is ${resolution}; add the component through entityManager.add_component (defaults) or Terrain.write`);
        const size = Terrain.size[eid];
        const height_scale = Terrain.height_scale[eid];
        const given = Terrain.heights[eid];
        const previous = this.#by_eid[eid];
        // only the layers changed: the grid stands, the uniform block changes
        const same_grid =
            previous !== undefined &&
            built[b] === size &&
            built[b + 1] === resolution &&
            built[b + 2] === height_scale &&
            built[b + 3] === Terrain.seed[eid] &&
            built[b + 4] === Terrain.octaves[eid] &&
            built[b + 5] === Terrain.frequency[eid] &&
            built[b + 9] === Terrain.version[eid] &&
            built[b + 10] === ox &&
            built[b + 11] === oy &&
            built[b + 12] === oz;
        let grid: TerrainGrid;
        if (same_grid) grid = previous.grid;
        else {
            let heights: Float32Array;
            if (given !== undefined) {
                if (given.length !== resolution * resolution) {
                    throw new Error(`TerrainSystem: entity ${eid}'s Terrain.heights holds ${given.length} numbers; resolution ${resolution} needs ${resolution * resolution}`);
                }
                heights = given;
            } else {
                heights = generate_heightmap(resolution, Terrain.seed[eid], Terrain.octaves[eid], Terrain.frequency[eid]);
            }
            grid = new TerrainGrid(heights, resolution, size, height_scale, ox, oy, oz);
            this.#builds++;
        }
        let draw = previous;
        if (draw === undefined) {
            draw = new TerrainDraw(eid, grid);
            this.#by_eid[eid] = draw;
            this.draws.push(draw);
        }
        draw.grid = grid;
        draw.generation++;
        const f = draw.uniform_f32;
        const u = draw.uniform_u32;
        f[0] = ox;
        f[1] = oy;
        f[2] = oz;
        f[3] = size;
        f[4] = height_scale;
        f[5] = Terrain.sand_level[eid];
        f[6] = Terrain.snow_level[eid];
        f[7] = Terrain.rock_slope[eid];
        u[8] = this.#object_id;
        u[9] = this.#flags;
        u[10] = this.#material_id;
        u[11] = 0;
        built[b] = size;
        built[b + 1] = resolution;
        built[b + 2] = height_scale;
        built[b + 3] = Terrain.seed[eid];
        built[b + 4] = Terrain.octaves[eid];
        built[b + 5] = Terrain.frequency[eid];
        built[b + 6] = Terrain.sand_level[eid];
        built[b + 7] = Terrain.snow_level[eid];
        built[b + 8] = Terrain.rock_slope[eid];
        built[b + 9] = Terrain.version[eid];
        built[b + 10] = ox;
        built[b + 11] = oy;
        built[b + 12] = oz;
    }

    #release(eid: number): void {
        const draw = this.#by_eid[eid];
        if (draw === undefined) return;
        this.#by_eid[eid] = undefined;
        draw.release();
        const draws = this.draws;
        const index = draws.indexOf(draw);
        draws[index] = draws[draws.length - 1];
        draws.length--;
    }
}
