import type { Engine } from "../../engine/Engine.js";
import { load_level } from "../../engine/level/load_level.js";
import type { System } from "../../engine/System.js";
import { FRAME_PHASES } from "../../shade/renderer/extension/FramePhase.js";
import type { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { make_plane_geometry } from "../../shade/renderer/geometry/primitives/make_plane_geometry.js";
import { Mesh } from "../../shade/renderer/scene/Mesh.js";
import { PointLight } from "../../shade/renderer/scene/PointLight.js";
import { StandardMaterial } from "../../shade/renderer/scene/StandardMaterial.js";
import { DebugDrawSystem } from "../../systems/debug_draw/DebugDrawSystem.js";
import { GPUParticleEmitterSystem } from "../../systems/particles/GPUParticleEmitterSystem.js";
import { PathDisplaySystem } from "../../systems/path_display/PathDisplaySystem.js";
import { Trail3DSystem } from "../../systems/trails/Trail3DSystem.js";
import { ColorGradeExtension } from "./ColorGradeExtension.js";
import { MinimapExtension, type MinimapSource } from "./MinimapExtension.js";
import { UnitViewSystem } from "./UnitViewSystem.js";
import { Walker } from "./Walker.js";
import { WalkerSystem } from "./WalkerSystem.js";
import { Transform } from "../../engine/components/Transform.js";

/**
 * The skirmish level: its systems, its extensions and its entities, loaded from a level file and unloaded again.
 * Unloading removes every entity it made, shuts its systems down in reverse order and removes its extensions,
 * so every phase's `extension_count` is back where it was before `load`.
 */
export class SkirmishLevel {
    readonly engine: Engine;
    readonly walkers = new WalkerSystem();
    readonly units: UnitViewSystem;
    readonly trails: Trail3DSystem;
    readonly paths: PathDisplaySystem;
    readonly particles: GPUParticleEmitterSystem;
    /** Toggled by `toggle_debug_draw`: a system added and removed at run time. */
    readonly debug: DebugDrawSystem;
    readonly grade = new ColorGradeExtension();
    readonly minimap: MinimapExtension;
    readonly #minimap_source = { count: 0, xzt: new Float32Array(3 * 1024) };
    #entities: number[] = [];
    #systems: System[] = [];
    #extensions: RenderExtension[] = [];
    #meshes: Mesh[] = [];
    #lights: PointLight[] = [];
    #debug_on = false;

    constructor(engine: Engine) {
        this.engine = engine;
        const graphics = engine.graphics;
        this.units = new UnitViewSystem(graphics);
        this.trails = new Trail3DSystem(graphics, { segments: 32, initial_capacity: 512 });
        this.paths = new PathDisplaySystem(graphics);
        this.particles = new GPUParticleEmitterSystem(graphics, { capacity: 16384 });
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
        for (const system of [this.walkers, this.units, this.trails, this.paths, this.particles]) {
            await engine.add_system(system);
            this.#systems.push(system);
        }
        this.#extensions.push(engine.graphics.add_extension(this.grade), engine.graphics.add_extension(this.minimap));
        this.#build_ground();
        this.#entities = load_level(engine, source);
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
        for (const mesh of this.#meshes) scene.remove(mesh);
        for (const light of this.#lights) scene.remove_point_light(light);
        this.#meshes = [];
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
        const entities = this.units.entities;
        const source = this.#minimap_source;
        let n = 0;
        for (let k = 0; k < entities.length; k++) {
            const eid = entities[k];
            if (n * 3 + 3 > source.xzt.length) break;
            source.xzt[n * 3] = Transform.position[eid * 3];
            source.xzt[n * 3 + 1] = Transform.position[eid * 3 + 2];
            source.xzt[n * 3 + 2] = Walker.team[eid];
            n++;
            if (this.#debug_on) {
                const x = Transform.position[eid * 3];
                const y = Transform.position[eid * 3 + 1];
                const z = Transform.position[eid * 3 + 2];
                const colour = Walker.team[eid] === 0 ? BLUE : RED;
                const c = CENTRE;
                c[0] = x;
                c[1] = y;
                c[2] = z;
                for (let i = 0; i < 4; i++) ROTATION[i] = Transform.rotation[eid * 4 + i];
                this.debug.box(c, HALF_UNIT, colour, 0, ROTATION);
            }
        }
        source.count = n;
    }

    /** `extension_count` of every phase, in phase order. */
    extension_counts(): number[] {
        return FRAME_PHASES.map((phase) => this.engine.graphics.extension_count(phase));
    }

    #build_ground(): void {
        const scene = this.engine.graphics.scene;
        const ground = new Mesh(make_plane_geometry(44, 44, 8), new StandardMaterial({ base_color: [0.32, 0.36, 0.26, 1], roughness: 0.95, label: "ground" }));
        scene.add(ground);
        this.#meshes.push(ground);
        const CAMPS = [[-16, 14], [16, 13], [-15, -14], [15, -13], [0, 0]];
        for (const [x, z] of CAMPS) {
            const light = scene.add_point_light(new PointLight());
            light.position.set([x, 1.2, z]);
            light.color.set([1, 0.55, 0.25]);
            light.intensity = 5;
            light.range = 7;
            this.#lights.push(light);
        }
    }
}

const BLUE: [number, number, number, number] = [0.4, 0.75, 1, 1];
const RED: [number, number, number, number] = [1, 0.5, 0.35, 1];
const HALF_UNIT: [number, number, number] = [0.3, 0.4, 0.3];
const CENTRE: [number, number, number] = [0, 0, 0];
const ROTATION = new Float32Array(4);
