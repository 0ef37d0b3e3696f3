// PathDisplaySystem on the real engine (Dawn): a tube along the waypoints with arrowheads, read back as pixels.
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { MARKER_LENGTH, MARKER_RADIUS } from "../../../systems/path_display/make_path_geometry.js";
import { Path } from "../../../systems/path_display/Path.js";
import { PathDisplaySystem } from "../../../systems/path_display/PathDisplaySystem.js";
import { expect_pixel, pixel_at, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { SKY_8BIT, project, start_engine } from "../trails/engine_fixture.js";

const DT = 1 / 30;
const WAYPOINTS: [number, number, number][] = [
    [-1.6, -1, 0],
    [0, 1, 0],
    [1.6, -1, 0],
];
const TUBE = [1, 0.1, 0.1, 1];
const MARKER = [0.1, 1, 0.1, 1];
const WIDTH = 0.2;

const px = (x: number, y: number): [number, number] => [Math.round(project(x, "x")), Math.round(project(y, "y"))];

function is_sky(image: TextureReadback, x: number, y: number): boolean {
    const p = pixel_at(image, x, y);
    return Math.abs(p[0] - SKY_8BIT[0]) <= 3 && Math.abs(p[1] - SKY_8BIT[1]) <= 3 && Math.abs(p[2] - SKY_8BIT[2]) <= 3;
}

/** The reddest pixel within one pixel of (x, y): a 2-3 px tube's centre line falls between pixel centres. */
function near_red(image: TextureReadback, x: number, y: number): number[] {
    let best = pixel_at(image, x, y);
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const p = pixel_at(image, x + dx, y + dy);
        if (p[0] > best[0]) best = p;
    }
    return best;
}

describe("PathDisplaySystem (Dawn)", () => {
    it("a path's tube lies along its waypoints; pixels away from it are the scene", async () => {
        const { engine, errors, read } = await start_engine();
        const before = engine.graphics.extension_count(FramePhase.AfterTransparency);
        const system = await engine.add_system(new PathDisplaySystem(engine.graphics));
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 1);
        const eid = engine.entityManager.create_entity();
        engine.entityManager.add_component(eid, Path);
        // markers far apart (the first half a spacing in: past the end), so that only the tube is drawn
        Path.write(eid, { waypoints: WAYPOINTS, width: WIDTH, color: TUBE, marker_color: MARKER, marker_spacing: 100 });
        engine.tick(DT);
        const image = await read();
        write_readback_png(image, "path_tube");
        for (let s = 0; s + 1 < WAYPOINTS.length; s++) {
            const [a, b] = [WAYPOINTS[s], WAYPOINTS[s + 1]];
            // the segment's unit normal in the view plane
            const dx = b[0] - a[0];
            const dy = b[1] - a[1];
            const l = Math.hypot(dx, dy);
            const [nx, ny] = [-dy / l, dx / l];
            for (const t of [0.15, 0.3, 0.5, 0.7, 0.85]) {
                const x = a[0] + dx * t;
                const y = a[1] + dy * t;
                const [ix, iy] = px(x, y);
                const on = near_red(image, ix, iy);
                expect(on[0], `tube at segment ${s} t=${t} (${ix}, ${iy}): ${on.join(",")}`).toBeGreaterThan(200);
                expect(on[1]).toBeLessThan(130);
                // 0.5 units to either side (about 5 px): nothing drawn
                for (const side of [-1, 1]) {
                    const [ox, oy] = px(x + nx * 0.5 * side, y + ny * 0.5 * side);
                    expect(is_sky(image, ox, oy), `off the tube at (${ox}, ${oy}): ${pixel_at(image, ox, oy).join(",")}`).toBe(true);
                }
            }
        }
        // below the apex and beyond the ends: the scene
        expect_pixel(image, ...px(0, 0), SKY_8BIT, 3, "path_tube");
        expect_pixel(image, ...px(2.2, -1), SKY_8BIT, 3, "path_tube");
        expect(system.rebuild_count).toBe(1);

        await engine.remove_system(system);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("arrowhead markers sit along the path and point the way it runs", async () => {
        const { engine, errors, read } = await start_engine();
        const system = await engine.add_system(new PathDisplaySystem(engine.graphics));
        const width = 0.4;
        const eid = engine.entityManager.create_entity();
        engine.entityManager.add_component(eid, Path);
        // one straight run along +x, 4 units: markers at x = -1, 1 (spacing 2, the first at 1)
        Path.write(eid, { waypoints: [[-2, 0, 0], [2, 0, 0]], width, color: TUBE, marker_color: MARKER, marker_spacing: 2 });
        engine.tick(DT);
        const image = await read();
        write_readback_png(image, "path_markers");
        const radius = width * MARKER_RADIUS;
        const length = width * MARKER_LENGTH;
        for (const base of [-1, 1]) {
            // ahead of the base, above the tube but inside the cone (radius 0.7 R there): marker colour
            const ahead = pixel_at(image, ...px(base + 0.3 * length, 0.5 * radius));
            expect(ahead[1], `marker ahead of its base at x=${base}: ${ahead.join(",")}`).toBeGreaterThan(150);
            expect(ahead[0]).toBeLessThan(120);
            // the same height behind the base: the scene (the cone points along +x, not back)
            expect(is_sky(image, ...px(base - 0.5 * length, 0.5 * radius)), `behind the marker at x=${base}`).toBe(true);
        }
        // between markers, at that height: the scene
        expect(is_sky(image, ...px(0.5, 0.5 * radius))).toBe(true);

        // unchanged paths are not rebuilt; a changed colour or new waypoints are
        engine.tick(DT);
        expect(system.rebuild_count).toBe(1);
        Path.color[eid * 4 + 2] = 0.5;
        engine.tick(DT);
        expect(system.rebuild_count).toBe(2);
        Path.set_waypoints(eid, [[-2, 1, 0], [2, 1, 0]]);
        engine.tick(DT);
        expect(system.rebuild_count).toBe(3);
        const moved = await read();
        write_readback_png(moved, "path_moved");
        expect(is_sky(moved, ...px(0, 0))).toBe(true);
        expect(pixel_at(moved, ...px(0.5, 1))[0]).toBeGreaterThan(200);

        // a removed entity's path is gone the next frame
        engine.entityManager.remove_entity(eid);
        engine.tick(DT);
        const removed = await read();
        expect(is_sky(removed, ...px(0.5, 1))).toBe(true);
        expect(system.batch.count).toBe(0);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("width, marker spacing, marker colour and colour, each changed after the first build, rebuild that path and change its pixels", async () => {
        const { engine, errors, read } = await start_engine();
        const system = await engine.add_system(new PathDisplaySystem(engine.graphics));
        const em = engine.entityManager;
        const make = (y: number): number => {
            const eid = em.create_entity();
            em.add_component(eid, Path, (e) => Path.write(e, { waypoints: [[-2, y, 0], [2, y, 0]], width: 0.2, color: TUBE, marker_color: MARKER, marker_spacing: 2 }));
            return eid;
        };
        // the path under test, and a second one that must stay as it is
        const eid = make(0.8);
        const other = make(-1.2);
        engine.tick(DT);
        expect(system.rebuild_count).toBe(2);
        const other_row = (image: TextureReadback): number[] => {
            const out: number[] = [];
            for (let x = 0; x < image.width; x++) for (const dy of [-1, 0, 1]) out.push(...pixel_at(image, x, Math.round(project(-1.2, "y")) + dy));
            return out;
        };
        let image = await read();
        const other_before = other_row(image);
        // markers at x = -1 and 1 (ahead of each base, off the tube's centre line: marker green)
        const marker_at = (img: TextureReadback, base: number, width: number): number[] => pixel_at(img, ...px(base + 0.3 * width * MARKER_LENGTH, 0.8 + 0.5 * width * MARKER_RADIUS));
        expect(marker_at(image, 1, 0.2)[1]).toBeGreaterThan(150);
        // 0.25 above the centre line: off a 0.2 tube
        expect(is_sky(image, ...px(-1.6, 0.8 + 0.25))).toBe(true);

        const changes: [string, () => void, (img: TextureReadback) => void][] = [
            [
                "width",
                () => (Path.width[eid] = 0.7),
                (img) => {
                    // 0.25 above the centre line is on the tube now (between markers: x = -1.6 is before the first)
                    expect(near_red(img, ...px(-1.6, 0.8 + 0.25))[0]).toBeGreaterThan(200);
                },
            ],
            [
                "marker_spacing",
                () => (Path.marker_spacing[eid] = 4),
                (img) => {
                    // one marker, at x = 0 (half a spacing in); none at x = 1 any more
                    expect(marker_at(img, 0, 0.7)[1], "the marker at x = 0").toBeGreaterThan(150);
                    expect(marker_at(img, 1.25, 0.7)[1], "no marker at x = 1").toBeLessThan(120);
                },
            ],
            [
                "marker_color",
                () => (Path.marker_color[eid * 4 + 2] = 1),
                (img) => {
                    const p = marker_at(img, 0, 0.7);
                    expect(p[2], `the marker turned cyan: ${p.join(",")}`).toBeGreaterThan(150);
                    expect(p[1]).toBeGreaterThan(150);
                },
            ],
            [
                "color",
                () => (Path.color[eid * 4 + 2] = 1),
                (img) => {
                    const p = near_red(img, ...px(-1.6, 0.8));
                    expect(p[2], `the tube turned magenta: ${p.join(",")}`).toBeGreaterThan(200);
                },
            ],
        ];
        let rebuilds = system.rebuild_count;
        for (const [field, change, check] of changes) {
            change();
            engine.tick(DT);
            expect(system.rebuild_count, `${field}: rebuilt once`).toBe(++rebuilds);
            image = await read();
            write_readback_png(image, `path_changed_${field}`);
            check(image);
            expect(other_row(image), `${field}: the other path is as it was`).toEqual(other_before);
            // and not rebuilt again while nothing changes
            engine.tick(DT);
            expect(system.rebuild_count, `${field}: not rebuilt again`).toBe(rebuilds);
        }
        expect(other).not.toBe(eid);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });

    it("start/shutdown leaves extension_count where it was; a second shutdown is harmless; startup again registers", async () => {
        const { engine, errors } = await start_engine();
        const system = new PathDisplaySystem(engine.graphics);
        const before = engine.graphics.extension_count(FramePhase.AfterTransparency);
        await system.startup(engine.entityManager);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 1);
        await system.shutdown(engine.entityManager);
        await system.shutdown(engine.entityManager);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before);
        await system.startup(engine.entityManager);
        expect(engine.graphics.describe()).toBeDefined();
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(before + 1);
        await system.shutdown(engine.entityManager);
        await engine.graphics.stop();
        expect(errors).toEqual([]);
    });
});
