// SceneSystem's components in level files (GPU-free: the system and its descriptors need no device): each value
// the schema allows but the system cannot serve is a LevelError naming the path and the limit; code that adds a
// MeshRenderer naming an unknown geometry gets a clear error and the entity is left without it.
import { describe, expect, it } from "vitest";
import { level_error } from "../../engine/level/level_error.js";
import { Engine } from "../../../engine/Engine.js";
import { Transform } from "../../../engine/components/Transform.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";
import { MeshRenderer, write_mesh_renderer } from "../../../systems/scene/MeshRenderer.js";
import { SceneSystem } from "../../../systems/scene/SceneSystem.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";


describe("SceneSystem level components", () => {
    it("refuses unknown geometry and material names, a far plane before the near one, a zero sun direction, and point lights past the limit", async () => {
        const engine = new Engine();
        const scene = await engine.add_system(new SceneSystem(engine.graphics));
        let e = level_error(engine, { entities: [{ Transform: {} }, { Transform: {}, MeshRenderer: { geometry: "house" } }] });
        expect(e.path).toBe("entities[1].MeshRenderer.geometry");
        expect(e.message).toContain("box, cylinder, plane, sphere");
        e = level_error(engine, { entities: [{ Transform: {}, MeshRenderer: { material: "gold" } }] });
        expect(e.path).toBe("entities[0].MeshRenderer.material");
        expect(e.message).toContain("default");
        e = level_error(engine, { entities: [{ Transform: {}, Camera: { near: 5, far: 2 } }] });
        expect(e.path).toBe("entities[0].Camera.far");
        e = level_error(engine, { entities: [{ Transform: {}, DirectionalLight: { direction: [0, 0, 0] } }] });
        expect(e.path).toBe("entities[0].DirectionalLight.direction");
        e = level_error(engine, { entities: [{ MeshRenderer: {} }] });
        expect(e.path).toContain("entities[0]");
        expect(e.message).toContain("Transform");
        const lights = Array.from({ length: 257 }, () => ({ Transform: {}, PointLight: {} }));
        e = level_error(engine, { entities: lights });
        expect(e.path).toBe("entities[256].PointLight");
        expect(e.message).toContain("256");
        expect(engine.entityManager.entity_count, "nothing half-created").toBe(0);
        // a registered name is served
        scene.assets.register_geometry("house", make_box_geometry(3, 2, 3));
        const [house] = load_level(engine, { entities: [{ Transform: {}, MeshRenderer: { geometry: "house" } }] });
        expect(scene.mesh_of(house)!.geometry).toBe(scene.assets.geometry("house"));
        expect(() => scene.assets.register_geometry("house", make_box_geometry())).toThrow(/'house' is already registered/);
        await engine.shutdown();
    });

    it("code adding a MeshRenderer with an unknown geometry gets an error naming it, and the entity is left without the component", async () => {
        const engine = new Engine();
        await engine.add_system(new SceneSystem(engine.graphics));
        const em = engine.entityManager;
        const eid = em.create_entity();
        em.add_component(eid, Transform);
        expect(() => em.add_component(eid, MeshRenderer, (e) => write_mesh_renderer(e, { geometry: "tower" }))).toThrow(/geometry 'tower', which is not registered \(known: box, cylinder, plane, sphere\)/);
        expect(em.has_component(eid, MeshRenderer)).toBe(false);
        expect(engine.graphics.scene.meshes.length).toBe(0);
        // renamed in place to an unknown one: reported by the frame naming the system, which is suspended
        em.add_component(eid, MeshRenderer);
        MeshRenderer.geometry[eid] = "tower";
        const errors: Error[] = [];
        engine.graphics.on_error = (error) => errors.push(error);
        engine.tick(0);
        expect(errors.map((x) => x.message).join("\n")).toMatch(/System 'SceneSystem' failed in before_render: .*geometry 'tower'/);
        await engine.shutdown();
    });
});
