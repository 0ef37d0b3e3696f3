// GPU particles on Dawn (SwiftShader), through the Engine: simulation read back from the particle buffer,
// and the picture.
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { add_particle_emitter, ParticleBlend } from "../../../systems/particles/index.js";
import { tonemapped, write_readback_png } from "../../harness/index.js";
import { DT, channel_sum, particle_scene } from "./particle_scene.js";

const W = 12; // words per particle
const SKY_RED = tonemapped(0.05);

describe("GPUParticleEmitterSystem (Dawn)", () => {
    it("an emitter with a fixed seed produces particles inside its cone after N ticks: in the particle buffer and in the image", async () => {
        const scene = await particle_scene();
        const eid = scene.entity([0, 0, 0]);
        const cone = 0.3;
        add_particle_emitter(scene.engine.entityManager, eid, {
            rate: 0,
            burst: 200,
            lifetime: [10, 10],
            direction: [0, 1, 0],
            cone_angle: cone,
            speed: [1, 2],
            size: [0.15, 0.15],
            color_start: [4, 0.2, 0.1, 1],
            color_end: [4, 0.2, 0.1, 1],
            frames: [1, 1],
            soft: false,
            seed: 42,
        });
        const N = 12;
        scene.ticks(N);
        const pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(200);
        expect(pool.alive).toBe(200);
        // about 1.4 px on this 64 x 64 target: below splat_pixels (2), so splatted by compute rather than rasterised
        expect(pool.splatted).toBe(200);
        expect(pool.additive).toBe(0);
        expect(pool.dead_count).toBe(scene.system.capacity - 200);
        const age = N * DT;
        let xs = 0;
        for (let i = 0; i < pool.capacity; i++) {
            const at = i * W;
            if (!(pool.particles[at + 7] > 0)) continue;
            const [x, y, z] = [pool.particles[at], pool.particles[at + 1], pool.particles[at + 2]];
            expect(pool.particles[at + 3]).toBeCloseTo(age, 4);
            const distance = Math.hypot(x, y, z);
            // speed in [1, 2], straight lines (no gravity, no drag)
            expect(distance).toBeGreaterThanOrEqual(1 * age - 1e-4);
            expect(distance).toBeLessThanOrEqual(2 * age + 1e-4);
            // inside the cone around +y
            expect(y / distance).toBeGreaterThanOrEqual(Math.cos(cone) - 1e-5);
            xs += x;
        }
        // spread around the axis, not all on one side
        expect(Math.abs(xs / 200)).toBeLessThan(0.05);

        const image = await scene.image();
        write_readback_png(image, "particles_cone");
        // the cloud sits above the origin, at about 1.5 * age along +y
        const [cx, cy] = scene.project([0, 1.5 * age, 0]);
        expect(channel_sum(image, cx, cy, 1, 0) / 9).toBeGreaterThan(SKY_RED + 40);
        // below the emitter (outside the cone) and in a corner: the sky
        const [bx, by] = scene.project([0, -0.4, 0]);
        expect(channel_sum(image, bx, by, 1, 0) / 9).toBeLessThanOrEqual(SKY_RED + 2);
        expect(channel_sum(image, 3, 3, 2, 0) / 25).toBeLessThanOrEqual(SKY_RED + 2);
        expect(scene.errors).toEqual([]);
        await scene.close();
    });

    for (const blend of [ParticleBlend.Additive, ParticleBlend.Alpha]) {
        const name = blend === ParticleBlend.Additive ? "additive" : "alpha (OIT)";
        it(`small ${name} particles are splatted by compute: the same picture, near enough, as rasterising them`, async () => {
            const render = async (splat_pixels: number): Promise<{ sum: number; splatted: number; drawn: number }> => {
                const s = await particle_scene({ capacity: 4096, splat_pixels });
                add_particle_emitter(s.engine.entityManager, s.entity([0, 0, 0]), {
                    rate: 0,
                    burst: 1000,
                    lifetime: [10, 10],
                    speed: [0, 3],
                    cone_angle: Math.PI,
                    size: [0.1, 0.1],
                    color_start: blend === ParticleBlend.Additive ? [0.1, 0.05, 0.025, 1] : [1, 0.5, 0.25, 0.3],
                    color_end: blend === ParticleBlend.Additive ? [0.1, 0.05, 0.025, 1] : [1, 0.5, 0.25, 0.3],
                    frames: [0, 1],
                    blend,
                    soft: false,
                    seed: 5,
                });
                s.ticks(10);
                const image = await s.image();
                write_readback_png(image, `particles_splat_${name}_${splat_pixels}`);
                const pool = await s.system.read_back();
                const [cx, cy] = s.project([0, 0, 0]);
                const result = { sum: channel_sum(image, cx, cy, 12, 0) - 625 * SKY_RED, splatted: pool.splatted, drawn: pool.additive + pool.alpha };
                expect(s.errors).toEqual([]);
                await s.close();
                return result;
            };
            const raster = await render(0);
            const splat = await render(2);
            expect([raster.drawn, raster.splatted]).toEqual([1000, 0]);
            expect([splat.drawn, splat.splatted]).toEqual([0, 1000]);
            expect(raster.sum).toBeGreaterThan(1000);
            // the light around the emitter agrees within a fifth (the splat puts a particle into one pixel: its
            // area x the sprite's mean alpha; the rasteriser hits or misses pixel centres)
            expect(splat.sum / raster.sum).toBeGreaterThan(0.8);
            expect(splat.sum / raster.sum).toBeLessThan(1.25);
        });
    }

    it("the same seed and ticks give the same particles; another seed gives others", async () => {
        const run = async (seed: number): Promise<Float32Array> => {
            const scene = await particle_scene();
            add_particle_emitter(scene.engine.entityManager, scene.entity(), { rate: 600, lifetime: [5, 5], seed, soft: false });
            scene.ticks(4);
            const pool = await scene.system.read_back();
            expect(scene.errors).toEqual([]);
            await scene.close();
            return pool.particles.slice(0, 40 * W);
        };
        const a = await run(7);
        const b = await run(7);
        const c = await run(8);
        expect(Array.from(a)).toEqual(Array.from(b));
        expect(Array.from(a)).not.toEqual(Array.from(c));
    });

    it("startup registers two extensions (FrameStart, AfterTransparency); shutdown returns extension_count to where it was, twice harmlessly", async () => {
        const scene = await particle_scene({ capacity: 1024 }, false);
        const g = scene.engine.graphics;
        const before = [g.extension_count(FramePhase.FrameStart), g.extension_count(FramePhase.AfterTransparency)];
        await scene.engine.add_system(scene.system);
        expect([g.extension_count(FramePhase.FrameStart), g.extension_count(FramePhase.AfterTransparency)]).toEqual([before[0] + 1, before[1] + 1]);
        expect(g.describe()).toBeDefined();
        await scene.engine.remove_system(scene.system);
        expect([g.extension_count(FramePhase.FrameStart), g.extension_count(FramePhase.AfterTransparency)]).toEqual(before);
        await scene.system.shutdown(scene.engine.entityManager);
        expect([g.extension_count(FramePhase.FrameStart), g.extension_count(FramePhase.AfterTransparency)]).toEqual(before);
        // again after shutdown: registers again and draws
        await scene.engine.add_system(scene.system);
        expect(g.extension_count(FramePhase.AfterTransparency)).toBe(before[1] + 1);
        add_particle_emitter(scene.engine.entityManager, scene.entity(), { burst: 10, rate: 0, blend: ParticleBlend.Alpha });
        scene.ticks(2);
        const pool = await scene.system.read_back();
        // small on this target: splatted (the alpha ones through the OIT sums)
        expect(pool.alpha + pool.splatted).toBe(10);
        expect(scene.errors).toEqual([]);
        await scene.close();
        expect(g.extension_count(FramePhase.AfterTransparency)).toBe(before[1]);
    });
});
