import { Transform } from "../../engine/components/Transform.js";
import { WorldTransform } from "../../engine/components/WorldTransform.js";
import type { EntityManager } from "../../engine/EntityManager.js";
import { PerEntity } from "../../engine/PerEntity.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { System } from "../../engine/System.js";
import { FogCellState } from "./FogCellState.js";
import { FogGrid } from "./FogGrid.js";
import { FogOfWarExtension } from "./FogOfWarExtension.js";
import { FogOfWarGridExtension } from "./FogOfWarGridExtension.js";
import { FogRevealer } from "./FogRevealer.js";
import { FogRevealerDescriptor } from "./FogRevealerDescriptor.js";

export interface FogOfWarSystemOptions {
    /** `[width, height]` cells of the grid (x along world x, rows along world z). Default [128, 128]. */
    readonly grid?: readonly [number, number];
    /** `[min_x, min_z, max_x, max_z]` world units the grid covers. Default [-64, -64, 64, 64]. */
    readonly bounds?: readonly [number, number, number, number];
    /** Teams tracked (FogRevealer.team in 0 .. teams - 1). Default 4. */
    readonly teams?: number;
    /** The team whose view is shown. Default 0. */
    readonly view_team?: number;
    /** Seconds a cell fades from hidden to visible. Default 0.25. */
    readonly fade_time?: number;
    /** Scene brightness kept on explored cells. Default 0.45. */
    readonly explored_brightness?: number;
    /** Scene brightness kept on hidden cells. Default 0.06. */
    readonly hidden_brightness?: number;
    /** Width of the blur of the fog's edge, in cells. Default 1. */
    readonly blur?: number;
}

const TERMS = [Transform, FogRevealer];

/**
 * Fog of war: every entity with `Transform` and `FogRevealer` reveals the grid cells within its radius (on
 * the x-z plane) to its team. A revealer's team must be below the system's `teams` and its radius at most
 * `max_radius` (the diagonal of the bounds): a level beyond either is refused with a `LevelError`, a value
 * written by code beyond either stops the system's update (reported, the system suspended). Cells are reference-counted per team (team vision is shared) and touched only
 * when a revealer crosses into another cell or changes radius or team. Cells are hidden, explored (seen
 * before) or visible; the shown team's view fades between them over `fade_time`.
 *
 * Owns two extensions: `FogOfWarGridExtension` ("fog of war grid", FrameStart) uploads the changed rows of
 * the grid into a texture the system owns and publishes it as the frame's `VisibilityGrid`;
 * `FogOfWarExtension` ("fog of war", AfterTransparency) darkens the scene by it. Allocates nothing per
 * update once warm.
 */
export class FogOfWarSystem extends System {
    readonly name = "FogOfWarSystem";
    readonly grid: FogGrid;
    readonly explored_brightness: number;
    readonly hidden_brightness: number;
    readonly blur: number;

    readonly #graphics: GraphicsEngine;
    #extension: FogOfWarExtension | null = null;
    #grid_extension: FogOfWarGridExtension | null = null;
    #query: EntityQuery | null = null;
    #unobserve: (() => void)[] = [];
    /** Most world units a revealer sees: the diagonal of the bounds (a float32, as the radius is stored). */
    readonly max_radius: number;
    /** What each entity's revealer added to the grid: applied 1/0, the cell, team and radius it was applied at. */
    readonly #per_entity = PerEntity.define({
        applied: PerEntity.u8(),
        cell_i: PerEntity.i32(),
        cell_j: PerEntity.i32(),
        team: PerEntity.u8(),
        radius: PerEntity.f32(),
    });
    get #applied(): Uint8Array {
        return this.#per_entity.applied;
    }
    get #cell_i(): Int32Array {
        return this.#per_entity.cell_i;
    }
    get #cell_j(): Int32Array {
        return this.#per_entity.cell_j;
    }
    get #team(): Uint8Array {
        return this.#per_entity.team;
    }
    get #radius(): Float32Array {
        return this.#per_entity.radius;
    }
    #texture: GPUTexture | null = null;
    #texture_device: GPUDevice | null = null;
    /** Revealer applications (reveal + conceal) in the last update, for benches and tests. */
    moves = 0;
    // reused by upload(): a writeTexture call builds no objects
    readonly #destination: GPUTexelCopyTextureInfo = { texture: null as unknown as GPUTexture, origin: { x: 0, y: 0, z: 0 } };
    readonly #origin = this.#destination.origin as GPUOrigin3DDict;
    readonly #layout: GPUTexelCopyBufferLayout = { offset: 0, bytesPerRow: 0 };
    readonly #size: GPUExtent3DDict = { width: 0, height: 0, depthOrArrayLayers: 1 };

    constructor(graphics: GraphicsEngine, options: FogOfWarSystemOptions = {}) {
        super();
        this.#graphics = graphics;
        const [width, height] = options.grid ?? [128, 128];
        this.explored_brightness = options.explored_brightness ?? 0.45;
        this.hidden_brightness = options.hidden_brightness ?? 0.06;
        this.blur = options.blur ?? 1;
        if (!(this.hidden_brightness >= 0 && this.hidden_brightness < this.explored_brightness && this.explored_brightness < 1)) {
            throw new RangeError(
                `FogOfWarSystem: need 0 <= hidden_brightness < explored_brightness < 1, got ${this.hidden_brightness} and ${this.explored_brightness}`,
            );
        }
        if (!(this.blur >= 0 && this.blur <= 8)) throw new RangeError(`FogOfWarSystem: blur must be 0..8 cells, got ${this.blur}`);
        this.grid = new FogGrid({
            width,
            height,
            bounds: options.bounds ?? [-64, -64, 64, 64],
            teams: options.teams ?? 4,
            view_team: options.view_team ?? 0,
            fade_time: options.fade_time ?? 0.25,
            explored_level: 0.5,
        });
        const g = this.grid;
        // from anywhere in the bounds this reaches every cell: a larger disc reveals nothing more and only costs
        // memory (a radius of 2^32 world units would need a disc of 2^33 rows)
        this.max_radius = Math.fround(Math.hypot(g.max_x - g.min_x, g.max_z - g.min_z));
    }

    /** The fog extension while started up, else null. */
    get extension(): FogOfWarExtension | null {
        return this.#extension;
    }

    /** The FrameStart extension publishing the grid while started up, else null. */
    get grid_extension(): FogOfWarGridExtension | null {
        return this.#grid_extension;
    }

    /** The team whose view is shown; changing it fades to that team's view. */
    get view_team(): number {
        return this.grid.view_team;
    }

    set view_team(team: number) {
        this.grid.view_team = team;
    }

    /** Whether a revealer of `team` sees world (x, z) now (as of the last update). */
    is_visible(team: number, x: number, z: number): boolean {
        return this.grid.state_at(team, x, z) === FogCellState.Visible;
    }

    /** Whether `team` has ever seen world (x, z) (visible cells are explored too). */
    is_explored(team: number, x: number, z: number): boolean {
        return this.grid.state_at(team, x, z) !== FogCellState.Hidden;
    }

    /** What `team` knows of the cell at world (x, z); outside the grid is hidden. */
    cell_state(team: number, x: number, z: number): FogCellState {
        return this.grid.state_at(team, x, z);
    }

    override async startup(entityManager: EntityManager): Promise<void> {
        if (this.#extension !== null) throw new Error(`${this.name}.startup: already started; shut it down first`);
        entityManager.components.register(FogRevealerDescriptor);
        this.#query = entityManager.register_query(TERMS);
        const release = (eid: number): void => this.#release(eid);
        const teams = this.grid.teams;
        const max_radius = this.max_radius;
        this.#unobserve.push(
            entityManager.on_remove(FogRevealer, release),
            entityManager.on_remove(Transform, release),
            entityManager.components.add_limit(FogRevealerDescriptor, {
                owner: this.name,
                check: (value) => {
                    if (value.team >= teams) return { path: "team", expected: `a team in 0..${teams - 1}: the fog tracks ${teams} teams (its teams option)` };
                    if (value.radius > max_radius) {
                        return { path: "radius", expected: `a radius of at most ${max_radius} world units: the diagonal of the fog's bounds, which it reaches from anywhere` };
                    }
                    return null;
                },
            }),
        );
        this.#grid_extension = this.#graphics.add_extension(new FogOfWarGridExtension(this));
        this.#extension = this.#graphics.add_extension(new FogOfWarExtension(this));
    }

    override async shutdown(entityManager: EntityManager): Promise<void> {
        void entityManager;
        if (this.#extension !== null) {
            this.#graphics.remove_extension(this.#extension);
            this.#extension.destroy();
            this.#extension = null;
        }
        if (this.#grid_extension !== null) {
            this.#graphics.remove_extension(this.#grid_extension);
            this.#grid_extension = null;
        }
        for (const unobserve of this.#unobserve) unobserve();
        this.#unobserve.length = 0;
        this.#query = null;
        // a later startup reveals again from the world
        this.#applied.fill(0);
        this.grid.reset();
        this.#texture?.destroy();
        this.#texture = null;
        this.#texture_device = null;
    }

    override update(dt: number): void {
        const query = this.#query;
        if (query === null) return;
        const entities = query.entities;
        const grid = this.grid;
        // the world position: a revealer riding on a parent reveals where it is
        const world = WorldTransform.matrix;
        const radius_of = FogRevealer.radius;
        const team_of = FogRevealer.team;
        const applied = this.#applied;
        const cell_i = this.#cell_i;
        const cell_j = this.#cell_j;
        const teams = grid.teams;
        const max_radius = this.max_radius;
        let moves = 0;
        for (let k = 0; k < entities.length; k++) {
            const eid = entities[k];
            const x = world[eid * 16 + 12];
            const z = world[eid * 16 + 14];
            const radius = radius_of[eid];
            const team = team_of[eid];
            if (team >= teams) {
                throw new RangeError(`${this.name}: entity ${eid} has FogRevealer.team ${team}, but the system tracks teams 0..${teams - 1} (options.teams)`);
            }
            if (radius > max_radius) {
                throw new RangeError(`${this.name}: entity ${eid} has FogRevealer.radius ${radius}, beyond the diagonal of the fog's bounds (${max_radius} world units)`);
            }
            const i = grid.column(x);
            const j = grid.row(z);
            // NaN positions or radii reveal nothing (NaN compares unequal, so they never match below)
            const valid = i === i && j === j && radius >= 0;
            if (applied[eid] !== 0) {
                const same = team === this.#team[eid] && radius === this.#radius[eid];
                if (valid && same && i === cell_i[eid] && j === cell_j[eid]) continue;
                if (valid && same) {
                    // a step into another cell: only the cells the two discs do not share change
                    grid.move(team, cell_i[eid], cell_j[eid], i, j, radius);
                    cell_i[eid] = i;
                    cell_j[eid] = j;
                    moves++;
                    continue;
                }
                grid.conceal(this.#team[eid], cell_i[eid], cell_j[eid], this.#radius[eid]);
                applied[eid] = 0;
            }
            if (!valid) continue;
            grid.reveal(team, i, j, radius);
            applied[eid] = 1;
            cell_i[eid] = i;
            cell_j[eid] = j;
            this.#team[eid] = team;
            this.#radius[eid] = radius;
            moves++;
        }
        this.moves = moves;
        grid.step(dt);
    }

    /** The grid texture on `device` (r8unorm, one texel per cell), made on first use and again on a new device. */
    texture(device: GPUDevice): GPUTexture {
        if (this.#texture !== null && this.#texture_device === device) return this.#texture;
        this.#texture?.destroy();
        this.#texture = device.createTexture({
            label: "fog of war grid",
            size: { width: this.grid.width, height: this.grid.height },
            format: "r8unorm",
            usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
        });
        this.#texture_device = device;
        this.grid.dirty_all();
        return this.#texture;
    }

    /** Writes the grid's changed rows into the texture on `device` (what the FrameStart pass runs). */
    upload(device: GPUDevice): void {
        const texture = this.texture(device);
        const grid = this.grid;
        const first = grid.dirty_min_row;
        const last = grid.dirty_max_row;
        if (first > last) return;
        const width = grid.width;
        this.#destination.texture = texture;
        this.#origin.y = first;
        this.#layout.offset = first * width;
        this.#layout.bytesPerRow = width;
        this.#size.width = width;
        this.#size.height = last - first + 1;
        device.queue.writeTexture(this.#destination, grid.pixels, this.#layout, this.#size);
        grid.clean();
    }

    #release(eid: number): void {
        if (this.#applied[eid] === 0) return;
        this.grid.conceal(this.#team[eid], this.#cell_i[eid], this.#cell_j[eid], this.#radius[eid]);
        this.#applied[eid] = 0;
    }
}
