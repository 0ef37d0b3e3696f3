import { GTAOExtension } from "../../shade/renderer/ao/GTAOExtension.js";
import { BloomExtension } from "../../shade/renderer/bloom/BloomExtension.js";
import type { Engine } from "../../engine/Engine.js";
import { AnimatorSystem } from "../../systems/model/AnimatorSystem.js";
import { load_level_with_models } from "../../systems/model/load_level_with_models.js";
import { ModelSystem } from "../../systems/model/ModelSystem.js";
import { GaitSystem } from "./GaitSystem.js";
import type { System } from "../../engine/System.js";
import { FRAME_PHASES } from "../../shade/renderer/extension/FramePhase.js";
import type { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { PointLight } from "../../shade/renderer/scene/PointLight.js";
import { DebugDrawSystem } from "../../systems/debug_draw/DebugDrawSystem.js";
import { DecalSystem } from "../../systems/decals/DecalSystem.js";
import { FogOfWarSystem } from "../../systems/fog_of_war/FogOfWarSystem.js";
import { Highlight } from "../../systems/highlight/Highlight.js";
import { HighlightSystem } from "../../systems/highlight/HighlightSystem.js";
import { ParticleEmitter } from "../../systems/particles/ParticleEmitter.js";
import { Path } from "../../systems/path_display/Path.js";
import { TerrainSystem } from "../../systems/terrain/TerrainSystem.js";
import { GPUParticleEmitterSystem } from "../../systems/particles/GPUParticleEmitterSystem.js";
import { PathDisplaySystem } from "../../systems/path_display/PathDisplaySystem.js";
import { Trail3DSystem } from "../../systems/trails/Trail3DSystem.js";
import { ShadowExtension } from "../../shade/renderer/shadows/ShadowExtension.js";
import { ColorGradeExtension } from "./ColorGradeExtension.js";
import { MinimapExtension, type MinimapSource } from "./MinimapExtension.js";
import type { EntityQuery } from "../../engine/EntityQuery.js";
import { SceneAssets } from "../../systems/scene/SceneAssets.js";
import { SceneSystem } from "../../systems/scene/SceneSystem.js";
import { MeshRenderer } from "../../systems/scene/MeshRenderer.js";
import { ImpactGrid } from "./ImpactGrid.js";
import { Walker } from "./Walker.js";
import { WalkerSystem } from "./WalkerSystem.js";
import { Name } from "../../engine/components/Name.js";
import { Transform } from "../../engine/components/Transform.js";
import type { DetailLevelTarget } from "../../shade/renderer/geometry/simplify_detail_levels.js";

export interface SkirmishLevelOptions {
    /** Where the level's model files are (its `Model.src`s are relative to it); default "../assets/" (the samples' build). */
    readonly assets_url?: string;
    /**
     * Coarser levels of detail made for the models (`ModelSystemOptions.detail_levels`): a unit far off draws a
     * simplified Fox. Default `SKIRMISH_DETAIL_LEVELS`; `[]` for none.
     */
    readonly detail_levels?: readonly DetailLevelTarget[];
}

/**
 * The units' Fox (576 triangles) at 172 triangles below 0.2 of the view's height and at 68 below 0.08: from the
 * level's camera every unit is under 0.2 (its bounding sphere, grown for the skinned limbs, is about a tenth of
 * the view's height at the centre of the field), and the pictures do not tell the levels from the full Fox there.
 * On the H100 at 1080p they take the 2,000-unit frame's GPU time from 6.44 to 4.24 ms (BENCHMARKS.md).
 */
export const SKIRMISH_DETAIL_LEVELS: readonly DetailLevelTarget[] = [
    { ratio: 0.3, screen_size: 0.2 },
    { ratio: 0.12, screen_size: 0.08 },
];

/** The team tints of the units' foxes (times the fox's own texture). */
const TEAM_TINT: readonly (readonly number[])[] = [
    [0.62, 0.8, 1.15, 1],
    [1.15, 0.72, 0.6, 1],
];

/**
 * The skirmish level: its systems, its extensions and its entities, loaded from a level file and unloaded again.
 * Unloading removes every entity it made, shuts its systems down in reverse order and removes its extensions,
 * so every phase's `extension_count` is back where it was before `load`.
 */
export class SkirmishLevel {
    readonly engine: Engine;
    readonly walkers = new WalkerSystem();
    /** Meshes, cameras and lights of the level's entities, and picking. */
    readonly scene: SceneSystem;
    /** The units' bodies: a Fox model under each unit, walking as fast as the unit goes (GaitSystem). */
    readonly models: ModelSystem;
    readonly gait = new GaitSystem();
    readonly animators: AnimatorSystem;
    readonly #walkers_query: EntityQuery;
    readonly trails: Trail3DSystem;
    readonly paths: PathDisplaySystem;
    readonly particles: GPUParticleEmitterSystem;
    readonly terrain: TerrainSystem;
    readonly decals: DecalSystem;
    readonly fog: FogOfWarSystem;
    readonly highlight: HighlightSystem;
    /** The unit under the pointer, outlined; null when none. */
    hovered: number | null = null;
    /** Toggled by `toggle_debug_draw`: a system added and removed at run time. */
    readonly debug: DebugDrawSystem;
    readonly grade = new ColorGradeExtension();
    /** Contact shadows: horizon-based ambient occlusion the lighting multiplies into the ambient light. */
    readonly ao = new GTAOExtension({ radius: 0.8, power: 1.5 });
    /** Physically based bloom on the HDR colour, before the grade: the camp fires and sparks glow. */
    readonly bloom = new BloomExtension({ intensity: 0.05 });
    /** The sun's cascaded shadow map, filled at FrameStart into a texture the extension owns. */
    readonly shadows = new ShadowExtension({ cascades: 3, distance: 60 });
    readonly minimap: MinimapExtension;
    readonly #minimap_source = { count: 0, xzt: new Float32Array(3 * 1024) };
    #entities: number[] = [];
    #systems: System[] = [];
    #extensions: RenderExtension[] = [];
    #lights: PointLight[] = [];
    #debug_on = false;
    #impact_emitter = -1;
    #updates = 0;
    #impact_cooldown = 0;
    readonly #impact_grid = new ImpactGrid();

    constructor(engine: Engine, options: SkirmishLevelOptions = {}) {
        this.engine = engine;
        const graphics = engine.graphics;
        this.scene = new SceneSystem(graphics, { assets: new SceneAssets() });
        this.models = new ModelSystem(graphics, this.scene, { base_url: options.assets_url ?? "../assets/", detail_levels: options.detail_levels ?? SKIRMISH_DETAIL_LEVELS });
        this.animators = new AnimatorSystem(this.models);
        this.#walkers_query = engine.entityManager.register_query([Walker]);
        this.trails = new Trail3DSystem(graphics, { segments: 32, initial_capacity: 512 });
        this.paths = new PathDisplaySystem(graphics);
        this.particles = new GPUParticleEmitterSystem(graphics, { capacity: 16384 });
        this.terrain = new TerrainSystem(graphics);
        this.decals = new DecalSystem(graphics);
        this.fog = new FogOfWarSystem(graphics, { grid: [96, 96], bounds: [-24, -24, 48, 48], view_team: 0 });
        this.highlight = new HighlightSystem(graphics);
        this.walkers.ground = (x, z) => this.terrain.height_at(x, z);
        this.debug = new DebugDrawSystem(graphics, { line_width: 1.5 });
        this.minimap = new MinimapExtension(this.#minimap_source as MinimapSource);
    }

    get loaded(): boolean {
        return this.#systems.length > 0;
    }

    get debug_draw_on(): boolean {
        return this.#debug_on;
    }

    /** Starts the level's systems, registers its extensions, builds the ground and loads `source` (level JSON). */
    async load(source: string | object): Promise<void> {
        const engine = this.engine;
        for (const system of [this.terrain, this.walkers, this.scene, this.models, this.gait, this.animators, this.decals, this.trails, this.paths, this.particles, this.fog, this.highlight]) {
            await engine.add_system(system);
            this.#systems.push(system);
        }
        this.#extensions.push(
            engine.graphics.add_extension(this.shadows),
            engine.graphics.add_extension(this.ao),
            engine.graphics.add_extension(this.bloom),
            engine.graphics.add_extension(this.grade),
            engine.graphics.add_extension(this.minimap),
        );
        this.#build_lights();
        this.#entities = await load_level_with_models(engine, this.models, source);
        // the terrain exists from its system's first update: build it, then put what the level placed on it
        engine.update(0);
        this.#drape_on_ground();
        // a unit stands for its fox's mesh: tinted by team, outlined when hovered
        for (const eid of this.#entities) {
            const instance = this.models.instance_of(eid);
            const unit = entities_parent(engine, eid);
            if (instance === null || unit === null || Walker.loop[unit] === undefined) continue;
            const body = instance.entities.primitives[0].entity;
            MeshRenderer.color.set(TEAM_TINT[Walker.team[unit]], body * 4);
            this.highlight.set_mesh(unit, this.scene.mesh_of(body));
        }
        this.#impact_emitter = this.#entities.find((eid) => Name.value[eid] === "impact sparks") ?? -1;
    }

    /** Outlines the unit under canvas point (x, y) (CSS pixels), if any; resolves to it. */
    async hover(x: number, y: number): Promise<number | null> {
        // the fox's mesh, two levels under its unit
        let unit = (await this.scene.pick(x, y)).entity;
        while (unit !== null && this.engine.entityManager.has_entity(unit) && !this.engine.entityManager.has_component(unit, Walker)) unit = entities_parent(this.engine, unit);
        if (unit !== null && !this.engine.entityManager.has_entity(unit)) unit = null;
        if (unit === this.hovered) return unit;
        const entities = this.engine.entityManager;
        if (this.hovered !== null && entities.has_entity(this.hovered)) entities.remove_component(this.hovered, Highlight);
        if (unit !== null) {
            entities.add_component(unit, Highlight, (eid) => {
                Highlight.color.set([1, 0.85, 0.25, 1], eid * 4);
                Highlight.width[eid] = 2;
            });
        }
        this.hovered = unit;
        return unit;
    }

    /** Removes the level's entities, systems and extensions (reverse order); leaves the engine as before `load`. */
    async unload(): Promise<void> {
        const engine = this.engine;
        if (this.#debug_on) await this.toggle_debug_draw();
        for (const eid of this.#entities) if (engine.entityManager.has_entity(eid)) engine.entityManager.remove_entity(eid);
        this.#entities = [];
        for (const system of this.#systems.reverse()) await engine.remove_system(system);
        this.#systems = [];
        for (const extension of this.#extensions) engine.graphics.remove_extension(extension);
        this.#extensions = [];
        const scene = engine.graphics.scene;
        for (const light of this.#lights) scene.remove_point_light(light);
        this.#lights = [];
    }

    /** Debug draw on or off: the DebugDrawSystem joins or leaves the engine (its extension with it). */
    async toggle_debug_draw(): Promise<void> {
        if (this.#debug_on) await this.engine.remove_system(this.debug);
        else await this.engine.add_system(this.debug);
        this.#debug_on = !this.#debug_on;
    }

    /** Per frame, after the systems updated: debug shapes and the minimap's dots. */
    after_update(): void {
        const entities = this.#walkers_query.entities;
        const source = this.#minimap_source;
        let n = 0;
        for (let k = 0; k < entities.length; k++) {
            const eid = entities[k];
            const x = Transform.position[eid * 3];
            const y = Transform.position[eid * 3 + 1];
            const z = Transform.position[eid * 3 + 2];
            if (this.#debug_on) {
                const c = CENTRE;
                c[0] = x;
                c[1] = y;
                c[2] = z;
                for (let i = 0; i < 4; i++) ROTATION[i] = Transform.rotation[eid * 4 + i];
                this.debug.box(c, HALF_UNIT, Walker.team[eid] === 0 ? BLUE : RED, 0, ROTATION);
            }
            // the minimap shows what the blue team sees: enemies only where the fog is lifted
            if (n * 3 + 3 > source.xzt.length) continue;
            if (Walker.team[eid] !== 0 && !this.fog.is_visible(0, x, z)) continue;
            source.xzt[n * 3] = x;
            source.xzt[n * 3 + 1] = z;
            source.xzt[n * 3 + 2] = Walker.team[eid];
            n++;
        }
        source.count = n;
        if (++this.#updates % 6 === 0) this.#impacts();
    }

    // Where a blue and a red unit meet, sparks fly: the silent "impact sparks" emitter is moved there and burst.
    #impacts(): void {
        if (this.#impact_emitter === -1 || this.#updates < this.#impact_cooldown) return;
        const p = Transform.position;
        const grid = this.#impact_grid;
        if (!grid.find(this.#walkers_query.entities, Walker.team, p, 0.8)) return;
        const ea = grid.blue;
        const eb = grid.red;
        const e = this.#impact_emitter;
        p[e * 3] = (p[ea * 3] + p[eb * 3]) * 0.5;
        p[e * 3 + 1] = (p[ea * 3 + 1] + p[eb * 3 + 1]) * 0.5 + 0.2;
        p[e * 3 + 2] = (p[ea * 3 + 2] + p[eb * 3 + 2]) * 0.5;
        this.engine.entityManager.mark_transform_changed(e);
        this.particles.burst(e, 48);
        this.#impact_cooldown = this.#updates + 12;
    }

    /** `extension_count` of every phase, in phase order. */
    extension_counts(): number[] {
        return FRAME_PHASES.map((phase) => this.engine.graphics.extension_count(phase));
    }

    #build_lights(): void {
        const scene = this.engine.graphics.scene;
        for (const [x, z] of CAMPS) {
            const light = scene.add_point_light(new PointLight());
            light.position.set([x, 1.2, z]);
            light.color.set([1, 0.55, 0.25]);
            light.intensity = 5;
            light.range = 7;
            this.#lights.push(light);
        }
    }

    // Routes, camps and their lights follow the terrain: the level gives ground positions, the terrain the heights.
    #drape_on_ground(): void {
        const entities = this.engine.entityManager;
        const ground = (x: number, z: number) => this.terrain.height_at(x, z);
        for (const eid of this.#entities) {
            const flat = Path.waypoints[eid];
            if (entities.has_component(eid, Path) && flat !== undefined) {
                // subdivided so that the tube hugs the ground between waypoints
                const draped: number[] = [];
                for (let i = 0; i + 3 < flat.length; i += 3) {
                    for (let k = 0; k < 8; k++) {
                        const t = k / 8;
                        const x = flat[i] + (flat[i + 3] - flat[i]) * t;
                        const z = flat[i + 2] + (flat[i + 5] - flat[i + 2]) * t;
                        draped.push(x, ground(x, z) + 0.09, z);
                    }
                }
                const last = flat.length - 3;
                draped.push(flat[last], ground(flat[last], flat[last + 2]) + 0.09, flat[last + 2]);
                Path.set_waypoints(eid, draped);
            }
            if (entities.has_component(eid, ParticleEmitter)) {
                Transform.position[eid * 3 + 1] += ground(Transform.position[eid * 3], Transform.position[eid * 3 + 2]);
                entities.mark_transform_changed(eid);
            }
        }
        for (const light of this.#lights) light.position[1] = ground(light.position[0], light.position[2]) + 1.2;
    }
}

function entities_parent(engine: Engine, eid: number): number | null {
    return engine.entityManager.parent_of(eid);
}

const CAMPS = [[-16, 14], [16, 13], [-15, -14], [15, -13], [0, 0]];
const BLUE: [number, number, number, number] = [0.4, 0.75, 1, 1];
const RED: [number, number, number, number] = [1, 0.5, 0.35, 1];
const HALF_UNIT: [number, number, number] = [0.3, 0.4, 0.3];
const CENTRE: [number, number, number] = [0, 0, 0];
const ROTATION = new Float32Array(4);
