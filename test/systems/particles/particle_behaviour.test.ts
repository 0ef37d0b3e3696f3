// GPU particles on Dawn: blending, soft particles, lifetime, removal, overflow, bursts.
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { add_particle_emitter, ParticleBlend, type ParticleEmitterSpec } from "../../../systems/particles/index.js";
import { pixel_at, tonemapped, write_readback_png } from "../../harness/index.js";
import { particle_scene } from "./particle_scene.js";

const W = 12; // words per particle
const SKY = [0.05, 0.07, 0.1].map(tonemapped);

function expect_sky(pixel: ArrayLike<number>): void {
    for (let c = 0; c < 3; c++) expect(Math.abs(pixel[c] - SKY[c]), `channel ${c} of [${Array.from(pixel).join(", ")}] vs the sky`).toBeLessThanOrEqual(2);
}

/** A particle sitting still at the emitter, for `life` seconds. */
function still(spec: ParticleEmitterSpec = {}): ParticleEmitterSpec {
    return { rate: 0, burst: 1, lifetime: [100, 100], speed: [0, 0], size: [0.6, 0.6], frames: [1, 1], soft: false, ...spec };
}

describe("GPU particles (Dawn)", () => {
    it("additive particles brighten: one over the sky, two over one; alpha particles cover (OIT) whatever their order", async () => {
        const scene = await particle_scene();
        const em = scene.engine.entityManager;
        const [cx, cy] = scene.project([0, 0, 0]);
        scene.ticks(1);
        const sky = pixel_at(await scene.image(), cx, cy);
        add_particle_emitter(em, scene.entity(), still({ color_start: [0.3, 0.1, 0.05, 1], color_end: [0.3, 0.1, 0.05, 1] }));
        scene.ticks(2);
        const one = pixel_at(await scene.image(), cx, cy);
        add_particle_emitter(em, scene.entity(), still({ color_start: [0.3, 0.1, 0.05, 1], color_end: [0.3, 0.1, 0.05, 1] }));
        scene.ticks(2);
        const image = await scene.image();
        write_readback_png(image, "particles_additive");
        const two = pixel_at(image, cx, cy);
        for (let c = 0; c < 3; c++) {
            expect(one[c]).toBeGreaterThan(sky[c]);
            expect(two[c]).toBeGreaterThan(one[c]);
        }
        // the expected colours: sky + n x colour, tonemapped
        expect(one[0]).toBeCloseTo(tonemapped(0.05 + 0.3), -0.6);
        expect(two[0]).toBeCloseTo(tonemapped(0.05 + 0.6), -0.6);
        expect((await scene.system.read_back()).additive).toBe(2);
        // both blend modes in one frame: the additive pass, then the alpha accumulation and its composite
        add_particle_emitter(em, scene.entity([1, 0, 0]), still({ blend: ParticleBlend.Alpha, color_start: [0, 0, 1, 1], color_end: [0, 0, 1, 1] }));
        scene.ticks(2);
        const mixed = await scene.image();
        write_readback_png(mixed, "particles_mixed");
        const [ax, ay] = scene.project([1, 0, 0]);
        expect(pixel_at(mixed, ax, ay)[2]).toBeGreaterThan(200);
        expect(pixel_at(mixed, cx, cy).slice(0, 3)).toEqual(two.slice(0, 3));
        const pool = await scene.system.read_back();
        expect([pool.additive, pool.alpha]).toEqual([2, 1]);
        expect(scene.errors).toEqual([]);
        await scene.close();

        // alpha: an opaque blue particle in front of a half-transparent red one, added in both orders
        const cover = async (blue_first: boolean): Promise<number[]> => {
            const s = await particle_scene();
            const blue = (): number =>
                add_particle_emitter(s.engine.entityManager, s.entity([0, 0, 0.5]), still({ blend: ParticleBlend.Alpha, color_start: [0, 0, 1, 1], color_end: [0, 0, 1, 1] }));
            const red = (): number =>
                add_particle_emitter(s.engine.entityManager, s.entity([0, 0, 0]), still({ blend: ParticleBlend.Alpha, color_start: [1, 0, 0, 0.5], color_end: [1, 0, 0, 0.5] }));
            if (blue_first) {
                blue();
                red();
            } else {
                red();
                blue();
            }
            s.ticks(2);
            const img = await s.image();
            write_readback_png(img, `particles_alpha_${blue_first ? "blue_first" : "red_first"}`);
            const [x, y] = s.project([0, 0, 0]);
            const p = pixel_at(img, x, y);
            const corner = pixel_at(img, 2, 2);
            expect_sky(corner);
            expect((await s.system.read_back()).alpha).toBe(2);
            expect(s.errors).toEqual([]);
            await s.close();
            return p.slice(0, 3);
        };
        const a = await cover(true);
        const b = await cover(false);
        // covered (revealage (1 - 1) x (1 - 0.5) = 0: no sky), and the colour a weighted average in which the
        // opaque blue counts twice the half-transparent red (weighted blended OIT: weights by alpha and depth,
        // close depths weigh alike)
        expect(a[2]).toBeGreaterThan(a[0] + 20);
        expect(a[0]).toBeGreaterThan(SKY[0] + 40);
        expect(a[1]).toBeLessThan(SKY[1]);
        for (let c = 0; c < 3; c++) expect(Math.abs(a[c] - b[c])).toBeLessThanOrEqual(1);
    });

    it("soft particles fade near a wall: at a pixel where the particle meets the surface, soft is darker than hard", async () => {
        const render = async (soft: boolean): Promise<[number[], number[]]> => {
            const s = await particle_scene();
            const wall = new Mesh(make_box_geometry(4, 4, 0.1), new StandardMaterial({ base_color: [0.05, 0.05, 0.05, 1] }));
            wall.position[2] = -0.1; // front face at z = -0.05, just behind the particle at the origin
            s.engine.graphics.scene.add(wall);
            add_particle_emitter(s.engine.entityManager, s.entity([0, 0, 0]), still({ soft, softness: 1, color_start: [1, 0.5, 0.2, 1], color_end: [1, 0.5, 0.2, 1] }));
            // a second particle far in front of the wall: soft or not, it is drawn in full
            add_particle_emitter(s.engine.entityManager, s.entity([1.2, 0.6, 2.5]), still({ soft, softness: 1, color_start: [1, 0.5, 0.2, 1], color_end: [1, 0.5, 0.2, 1] }));
            s.ticks(2);
            const img = await s.image();
            write_readback_png(img, `particles_soft_${soft ? "on" : "off"}`);
            const [x, y] = s.project([0, 0, 0]);
            const [fx, fy] = s.project([1.2, 0.6, 2.5]);
            expect(s.errors).toEqual([]);
            await s.close();
            return [pixel_at(img, x, y).slice(0, 3), pixel_at(img, fx, fy).slice(0, 3)];
        };
        const [hard_near, hard_far] = await render(false);
        const [soft_near, soft_far] = await render(true);
        expect(soft_near[0]).toBeLessThan(hard_near[0] - 60);
        // the far particle: (near) the same
        expect(Math.abs(soft_far[0] - hard_far[0])).toBeLessThanOrEqual(12);
        expect(soft_far[0]).toBeGreaterThan(200);
    });

    it("killed particles vanish after their lifetime: from the image and back on the dead list", async () => {
        const scene = await particle_scene();
        add_particle_emitter(scene.engine.entityManager, scene.entity(), still({ burst: 50, lifetime: [0.1, 0.1], color_start: [1, 1, 1, 1], color_end: [1, 1, 1, 1] }));
        const [cx, cy] = scene.project([0, 0, 0]);
        scene.ticks(3); // 0.05 s
        let pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(50);
        expect(pixel_at(await scene.image(), cx, cy)[0]).toBeGreaterThan(200);
        scene.ticks(4); // 0.117 s
        pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(0);
        expect(pool.alive).toBe(0);
        expect(pool.dead_count).toBe(scene.system.capacity);
        const image = await scene.image();
        write_readback_png(image, "particles_expired");
        expect_sky(pixel_at(image, cx, cy));
        expect(scene.errors).toEqual([]);
        await scene.close();
    });

    it("a particle lives exactly its lifetime: alive on the frame before it reaches it, dead on the frame it does", async () => {
        // steps and lifetimes that are exact in binary: age after n frames is n * dt, no rounding
        const dt = 1 / 64;
        const scene = await particle_scene();
        const [cx, cy] = scene.project([0, 0, 0]);
        // two emitters, so that one dying early or late does not hide behind the other
        add_particle_emitter(scene.engine.entityManager, scene.entity(), still({ burst: 10, lifetime: [8 * dt, 8 * dt], color_start: [1, 1, 1, 1], color_end: [1, 1, 1, 1] }));
        add_particle_emitter(scene.engine.entityManager, scene.entity([1, 0, 0]), still({ burst: 5, lifetime: [12 * dt, 12 * dt] }));
        scene.ticks(1, dt);
        let pool = await scene.system.read_back();
        // spawned with exactly the lifetime asked for
        const lifetimes = new Set<number>();
        for (let i = 0; i < pool.capacity; i++) if (pool.particles[i * W + 7] > 0) lifetimes.add(pool.particles[i * W + 7]);
        expect([...lifetimes].sort()).toEqual([8 * dt, 12 * dt].sort());
        scene.ticks(6, dt); // 7 frames: age 7 dt
        pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(15);
        expect(pixel_at(await scene.image(), cx, cy)[0]).toBeGreaterThan(200);
        scene.ticks(1, dt); // 8 frames: age 8 dt = the first one's lifetime
        pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(5);
        expect(pool.alive).toBe(5);
        const image = await scene.image();
        write_readback_png(image, "particles_exact_lifetime");
        expect_sky(pixel_at(image, cx, cy));
        scene.ticks(3, dt); // 11 frames: the second still there
        expect((await scene.system.read_back()).live_slots).toBe(5);
        scene.ticks(1, dt); // 12 frames: gone too
        pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(0);
        expect(pool.dead_count).toBe(scene.system.capacity);
        expect(scene.errors).toEqual([]);
        await scene.close();
    });

    it("removing the emitter's entity stops it and frees its slots; a recycled entity id starts a fresh emitter; burst(entity, n) spawns n", async () => {
        const scene = await particle_scene();
        const em = scene.engine.entityManager;
        const keep = add_particle_emitter(em, scene.entity([1, 0, 0]), { rate: 0, burst: 30, lifetime: [100, 100], seed: 3 });
        const doomed = add_particle_emitter(em, scene.entity([-1, 0, 0]), { rate: 600, lifetime: [100, 100], seed: 4 });
        scene.ticks(6);
        let pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(30 + 60);
        em.remove_entity(doomed);
        expect(scene.system.emitter_count).toBe(1);
        scene.ticks(1);
        pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(30);
        expect(pool.dead_count).toBe(scene.system.capacity - 30);
        // an emitter on the same id, with nothing to spawn, inherits none of the old particles
        const again = scene.entity([-1, 0, 0]);
        expect(again).toBe(doomed);
        add_particle_emitter(em, again, { rate: 0, burst: 0, lifetime: [100, 100] });
        scene.ticks(3);
        pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(30);
        scene.system.burst(again, 7);
        scene.system.burst(keep, 5);
        scene.ticks(1);
        pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(42);
        expect(() => scene.system.burst(9999, 1)).toThrow(/entity 9999 has no ParticleEmitter/);
        // removed and replaced before any frame ran: the new emitter takes the same slot and the same entity id,
        // and still none of the old particles (their generation is gone)
        em.remove_entity(again);
        const third = add_particle_emitter(em, scene.entity([-1, 0, 0]), { rate: 0, burst: 0, lifetime: [100, 100] });
        expect(third).toBe(again);
        scene.ticks(1);
        pool = await scene.system.read_back();
        expect(pool.live_slots).toBe(35);
        expect(scene.errors).toEqual([]);
        await scene.close();
    });

    it("exceeding the capacity drops new particles and never corrupts live ones", async () => {
        const scene = await particle_scene({ capacity: 256 });
        const em = scene.engine.entityManager;
        const a = add_particle_emitter(em, scene.entity([0, 0, 0]), { rate: 0, burst: 100, lifetime: [100, 100], speed: [1, 1], seed: 11 });
        scene.ticks(2);
        const before = await scene.system.read_back();
        expect(before.live_slots).toBe(100);
        const first_tag = before.words[0 * W + 8];
        const b = add_particle_emitter(em, scene.entity([0, 5, 0]), { rate: 0, burst: 1000, lifetime: [100, 100], speed: [1, 1], seed: 12 });
        scene.ticks(1);
        const after = await scene.system.read_back();
        expect(after.live_slots).toBe(256);
        expect(after.dead_count).toBe(0);
        // one frame requests at most `capacity` particles; of those, the ones beyond the free slots are dropped on the GPU
        expect(after.spawned).toBe(256);
        expect(after.dropped).toBe(256 - 156);
        // the first emitter's particles: the same slots, one more step along their velocity
        let first = 0;
        for (let i = 0; i < 256; i++) {
            const at = i * W;
            if (before.particles[at + 7] > 0) {
                first++;
                expect(after.words[at + 8]).toBe(first_tag);
                for (let k = 0; k < 3; k++) {
                    expect(after.particles[at + 4 + k]).toBe(before.particles[at + 4 + k]);
                    expect(after.particles[at + k]).toBeCloseTo(before.particles[at + k] + before.particles[at + 4 + k] / 60, 5);
                }
            } else {
                expect(after.words[at + 8]).not.toBe(first_tag);
            }
        }
        expect(first).toBe(100);
        // the pool is consistent after emitters die: every slot back on the dead list exactly once
        em.remove_entity(a);
        em.remove_entity(b);
        scene.ticks(1);
        const empty = await scene.system.read_back();
        expect(empty.dead_count).toBe(256);
        expect(new Set(empty.dead_list).size).toBe(256);
        expect(scene.errors).toEqual([]);
        await scene.close();
    });
});
