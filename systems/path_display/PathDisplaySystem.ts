import type { EntityManager } from "../../engine/EntityManager.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { PerEntity } from "../../engine/PerEntity.js";
import { System } from "../../engine/System.js";
import { DynamicMesh } from "../../shade/renderer/scene/DynamicMesh.js";
import { DynamicMeshBatch } from "../../shade/renderer/scene/DynamicMeshBatch.js";
import { make_path_geometry, MAX_PATH_MARKERS } from "./make_path_geometry.js";
import { Path } from "./Path.js";
import { PathDescriptor } from "./PathDescriptor.js";
import { PathDisplayExtension } from "./PathDisplayExtension.js";

const TERMS = [Path];
/** Cached per built path: width, marker spacing, colour, marker colour. */
const BUILT_WORDS = 10;

/**
 * Shows every entity with a `Path` as a tube through its waypoints with arrowhead markers pointing the way
 * (`make_path_geometry`), drawn by the `PathDisplayExtension` it owns. A path's mesh is rebuilt only when its
 * waypoints (`Path.version`), width, marker spacing or colours change; the update compares and allocates
 * nothing otherwise. A removed entity's mesh leaves the batch at once (an observer), so a recycled id never
 * shows the old path. A level path whose marker spacing would give more than `MAX_PATH_MARKERS` markers is
 * refused with a `LevelError`; one written by code stops the update (reported, the system suspended).
 */
export class PathDisplaySystem extends System {
    readonly name = "PathDisplaySystem";
    /** The meshes drawn, one per path. */
    readonly batch = new DynamicMeshBatch();

    readonly #graphics: GraphicsEngine;
    #extension: PathDisplayExtension | null = null;
    #query: EntityQuery | null = null;
    #unobserve: (() => void) | null = null;
    #unlimit: (() => void) | null = null;
    /** Per-entity state, grown with the entity ids (`PerEntity`). */
    readonly #per_entity = PerEntity.define({
        meshes: PerEntity.value<DynamicMesh | undefined>(undefined),
        built_version: PerEntity.u32(),
        built: PerEntity.f32(BUILT_WORDS),
    });
    get #meshes(): (DynamicMesh | undefined)[] {
        return this.#per_entity.meshes;
    }
    get #built_version(): Uint32Array {
        return this.#per_entity.built_version;
    }
    get #built(): Float32Array {
        return this.#per_entity.built;
    }
    #rebuilds = 0;

    constructor(graphics: GraphicsEngine) {
        super();
        this.#graphics = graphics;
    }

    /** The extension while started up, else null. */
    get extension(): PathDisplayExtension | null {
        return this.#extension;
    }

    /** Path geometries built so far. For tests and diagnostics. */
    get rebuild_count(): number {
        return this.#rebuilds;
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#extension !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(PathDescriptor);
        this.#query = entityManager.register_query(TERMS);
        this.#unobserve = entityManager.on_remove(Path, (eid) => this.#release(eid));
        this.#unlimit = entityManager.components.add_limit(PathDescriptor, {
            owner: this.name,
            check: (value) => {
                const markers = path_length(value.waypoints) / value.marker_spacing;
                if (markers <= MAX_PATH_MARKERS) return null;
                return { path: "marker_spacing", expected: `a spacing giving at most ${MAX_PATH_MARKERS} markers along the path (this one would have ${Math.ceil(markers)})` };
            },
        });
        this.#extension = this.#graphics.add_extension(new PathDisplayExtension(this));
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
        this.#unlimit?.();
        this.#unlimit = null;
        this.#query = null;
        this.#meshes.fill(undefined);
        this.batch.clear();
    }

    override update(dt: number): void {
        void dt;
        const query = this.#query;
        if (query === null) return;
        const entities = query.entities;
        for (let i = 0; i < entities.length; i++) {
            const eid = entities[i];
            const waypoints = Path.waypoints[eid];
            let mesh = this.#meshes[eid];
            if (waypoints === undefined) {
                if (mesh !== undefined) this.#release(eid);
                continue;
            }
            if (mesh === undefined || this.#stale(eid)) this.#build(eid, waypoints, mesh);
        }
    }

    #stale(eid: number): boolean {
        if (this.#built_version[eid] !== Path.version[eid]) return true;
        const b = this.#built;
        const at = eid * BUILT_WORDS;
        if (b[at] !== Path.width[eid] || b[at + 1] !== Path.marker_spacing[eid]) return true;
        const c = eid * 4;
        for (let k = 0; k < 4; k++) {
            if (b[at + 2 + k] !== Path.color[c + k] || b[at + 6 + k] !== Path.marker_color[c + k]) return true;
        }
        return false;
    }

    #build(eid: number, waypoints: Float32Array, mesh: DynamicMesh | undefined): DynamicMesh {
        const c = eid * 4;
        const geometry = make_path_geometry({
            waypoints,
            width: Path.width[eid],
            marker_spacing: Path.marker_spacing[eid],
            color: Path.color.subarray(c, c + 4),
            marker_color: Path.marker_color.subarray(c, c + 4),
        });
        if (mesh === undefined) {
            mesh = new DynamicMesh(geometry);
            mesh.updateMatrices(); // waypoints are world space: identity
            this.#meshes[eid] = mesh;
            this.batch.add(mesh);
        } else {
            mesh.geometry = geometry;
        }
        this.#rebuilds++;
        this.#built_version[eid] = Path.version[eid];
        const b = this.#built;
        const at = eid * BUILT_WORDS;
        b[at] = Path.width[eid];
        b[at + 1] = Path.marker_spacing[eid];
        for (let k = 0; k < 4; k++) {
            b[at + 2 + k] = Path.color[c + k];
            b[at + 6 + k] = Path.marker_color[c + k];
        }
        return mesh;
    }

    #release(eid: number): void {
        const mesh = this.#meshes[eid];
        if (mesh === undefined) return;
        this.#meshes[eid] = undefined;
        this.batch.remove(mesh);
    }
}

/** The arc length of `[x, y, z]` waypoints. */
function path_length(waypoints: readonly (readonly number[])[]): number {
    let total = 0;
    for (let i = 1; i < waypoints.length; i++) {
        const a = waypoints[i - 1];
        const b = waypoints[i];
        total += Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
    }
    return total;
}
