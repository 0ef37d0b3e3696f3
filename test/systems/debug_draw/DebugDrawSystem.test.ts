// DebugDrawSystem on the real engine (Dawn): immediate-mode lines and shapes, read back as pixels.
import { describe, expect, it } from "vitest";
import { Transform } from "../../../engine/components/Transform.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { DebugBounds } from "../../../systems/debug_draw/DebugBounds.js";
import { DebugDrawSystem } from "../../../systems/debug_draw/DebugDrawSystem.js";
import { PathDisplaySystem } from "../../../systems/path_display/PathDisplaySystem.js";
import { Trail3DSystem } from "../../../systems/trails/Trail3DSystem.js";
import { pixel_at, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { SKY_8BIT, project, start_engine } from "../trails/engine_fixture.js";

const RED = [1, 0, 0, 1];
const GREEN = [0, 1, 0, 1];
const px = (x: number, y: number): [number, number] => [Math.round(project(x, "x")), Math.round(project(y, "y"))];

function is_sky(image: TextureReadback, x: number, y: number): boolean {
    const p = pixel_at(image, x, y);
    return Math.abs(p[0] - SKY_8BIT[0]) <= 3 && Math.abs(p[1] - SKY_8BIT[1]) <= 3 && Math.abs(p[2] - SKY_8BIT[2]) <= 3;
}

/** The pixel within one pixel of (x, y) with the most of channel `c`: a 2 px line falls between pixel centres. */
function strongest(image: TextureReadback, x: number, y: number, c: number): number {
    let best = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) best = Math.max(best, pixel_at(image, x + dx, y + dy)[c]);
    return best;
}

describe("DebugDrawSystem (Dawn)", () => {
    it("a line drawn for one frame is drawn by the next frame and gone from the one after", async () => {
        const { engine, errors, read } = await start_engine();
        const before = engine.graphics.extension_count(FramePhase.AfterTransparency);
        const debug = await engine.add_system(new DebugDrawSystem(engine.graphics));
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 1);
        debug.line([-1.5, 0.5, 0], [1.5, 0.5, 0], RED);
        engine.tick(1 / 30);
        let image = await read();
        write_readback_png(image, "debug_line_frame");
        for (const x of [-1.2, -0.5, 0, 0.7, 1.2]) expect(strongest(image, ...px(x, 0.5), 0), `line at x=${x}`).toBeGreaterThan(200);
        expect(is_sky(image, ...px(0, 0))).toBe(true);
        expect(is_sky(image, ...px(1.9, 0.5))).toBe(true);

        engine.tick(1 / 30);
        image = await read();
        write_readback_png(image, "debug_line_gone");
        for (const x of [-1.2, 0, 1.2]) expect(is_sky(image, ...px(x, 0.5)), `gone at x=${x}`).toBe(true);

        await engine.remove_system(debug);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("a shape with a duration lives that long on the system's clock, then goes", async () => {
        const { engine, errors, read } = await start_engine();
        const debug = await engine.add_system(new DebugDrawSystem(engine.graphics));
        debug.line([-1.5, -0.5, 0], [1.5, -0.5, 0], GREEN, 0.5);
        const visible: boolean[] = [];
        for (let f = 0; f < 6; f++) {
            engine.tick(0.125); // exact in binary: 0.5 s is 4 ticks
            const image = await read();
            visible.push(strongest(image, ...px(0, -0.5), 1) > 200);
        }
        // drawn at 0.125, 0.25, 0.375; expired at the update that reaches 0.5
        expect(visible).toEqual([true, true, true, false, false, false]);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("box, sphere and arrow draw where they are; a bounds component boxes its entity each frame", async () => {
        const { engine, errors, read } = await start_engine(96);
        const debug = await engine.add_system(new DebugDrawSystem(engine.graphics));
        const p = (x: number, y: number): [number, number] => [Math.round(project(x, "x", 96)), Math.round(project(y, "y", 96))];
        debug.box([-1.2, 1, 0], [0.4, 0.4, 0], RED);
        debug.sphere([1.2, 1, 0], 0.5, GREEN);
        debug.arrow([-1.5, -1, 0], [1.5, -1, 0], [0, 0, 1, 1]);
        const eid = engine.entityManager.create_entity();
        engine.entityManager.add_component(eid, Transform);
        engine.entityManager.add_component(eid, DebugBounds);
        Transform.position.set([0, 0.2, 0], eid * 3);
        DebugBounds.half_extents.set([0.3, 0.3, 0], eid * 3);
        DebugBounds.color.set([1, 1, 0, 1], eid * 4);
        engine.tick(1 / 30);
        const image = await read();
        write_readback_png(image, "debug_shapes");
        // box: its edges, not its middle
        expect(strongest(image, ...p(-1.2, 1.4), 0)).toBeGreaterThan(200);
        expect(strongest(image, ...p(-1.6, 1), 0)).toBeGreaterThan(200);
        expect(is_sky(image, ...p(-1.2, 1))).toBe(true);
        // sphere: its xy great circle, not its centre
        expect(strongest(image, ...p(1.7, 1), 1)).toBeGreaterThan(200);
        expect(strongest(image, ...p(1.2, 1.5), 1)).toBeGreaterThan(200);
        expect(is_sky(image, ...p(1.45, 1.25))).toBe(true);
        // arrow: the shaft, and a head at the tip end only
        expect(strongest(image, ...p(0, -1), 2)).toBeGreaterThan(200);
        expect(strongest(image, ...p(1.35, -1.05), 2)).toBeGreaterThan(200);
        expect(is_sky(image, ...p(-1.35, -1.15))).toBe(true);
        // bounds: a yellow box around the entity
        const yellow = (x: number, y: number) => Math.min(strongest(image, ...p(x, y), 0), strongest(image, ...p(x, y), 1));
        expect(yellow(0, 0.5)).toBeGreaterThan(200);
        expect(yellow(-0.3, 0.2)).toBeGreaterThan(200);
        expect(is_sky(image, ...p(0, 0.2))).toBe(true);

        // the component's box follows the entity and goes with the component
        engine.entityManager.set_position(eid, 0, -0.4, 0);
        engine.tick(1 / 30);
        let moved = await read();
        expect(is_sky(moved, ...p(0, 0.5))).toBe(true);
        expect(Math.min(strongest(moved, ...p(0, -0.1), 0), strongest(moved, ...p(0, -0.1), 1))).toBeGreaterThan(200);
        engine.entityManager.remove_component(eid, DebugBounds);
        engine.tick(1 / 30);
        moved = await read();
        expect(is_sky(moved, ...p(0, -0.1))).toBe(true);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("lines are hidden behind scene geometry (depth-tested read-only); depth_test false draws them over it", async () => {
        for (const depth_test of [true, false]) {
            const { engine, errors, read } = await start_engine();
            const box = new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial({ base_color: [0.9, 0.9, 0.9] }));
            box.position.set([0, 0, 1]);
            engine.graphics.scene.add(box);
            const debug = await engine.add_system(new DebugDrawSystem(engine.graphics, { depth_test }));
            debug.line([-1.5, 0, 0], [1.5, 0, 0], RED);
            engine.tick(1 / 30);
            const image = await read();
            write_readback_png(image, `debug_depth_${depth_test}`);
            // beside the box: the line
            expect(strongest(image, ...px(-1.2, 0), 0)).toBeGreaterThan(200);
            const centre = pixel_at(image, ...px(0, 0));
            if (depth_test) {
                // behind the box: the box's grey, not red
                expect(Math.abs(centre[0] - centre[1]), `centre ${centre.join(",")}`).toBeLessThan(20);
            } else {
                expect(centre[0] - centre[1], `centre ${centre.join(",")}`).toBeGreaterThan(150);
            }
            await engine.graphics.stop();
            expect(errors).toEqual([]);
        }
    });

    it("orders after path display and trails at AfterTransparency; start/shutdown leaves extension_count where it was", async () => {
        const { engine, errors } = await start_engine();
        const before = engine.graphics.extension_count(FramePhase.AfterTransparency);
        const debug = new DebugDrawSystem(engine.graphics);
        // registered first: the declared order, not registration (nor name) order, puts it last
        await engine.add_system(debug);
        await engine.add_system(new PathDisplaySystem(engine.graphics));
        await engine.add_system(new Trail3DSystem(engine.graphics));
        const phase = engine.graphics.describe().phases.find((p) => p.phase === FramePhase.AfterTransparency)!;
        expect(phase.extensions.map((e) => e.name)).toEqual(["path display", "trails", "debug draw"]);
        await debug.shutdown(engine.entityManager);
        await debug.shutdown(engine.entityManager);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 2);
        await debug.startup(engine.entityManager);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 3);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });
});
