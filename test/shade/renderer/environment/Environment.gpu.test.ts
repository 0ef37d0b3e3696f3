// The environment's GPU prefiltering on Dawn: a uniform environment stays uniform through every level, the
// BRDF lookup matches a CPU Monte-Carlo split sum, directions land where they should.
import { describe, expect, it } from "vitest";
import { BRDF_LUT_SIZE, brdf_lut } from "../../../../shade/renderer/environment/brdf_lut.js";
import { Environment } from "../../../../shade/renderer/environment/Environment.js";
import type { HdrImage } from "../../../../shade/renderer/environment/parse_hdr.js";
import { pixel_at, read_texture, with_gpu_device } from "../../../harness/index.js";
import { split_sum_reference } from "./split_sum_reference.js";

/** A `width` x `height` equirect whose every texel is `shade(u, v)` (u, v at texel centres, 0..1). */
function equirect(width: number, height: number, shade: (u: number, v: number) => [number, number, number]): HdrImage {
    const data = new Float32Array(width * height * 4);
    for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
            const [r, g, b] = shade((x + 0.5) / width, (y + 0.5) / height);
            data.set([r, g, b, 1], (y * width + x) * 4);
        }
    }
    return { width, height, data };
}

async function read_level(device: GPUDevice, texture: GPUTexture, mip: number): Promise<number[][]> {
    const image = await read_texture(device, texture, { mip });
    const texels: number[][] = [];
    for (let y = 0; y < image.height; y++) for (let x = 0; x < image.width; x++) texels.push(pixel_at(image, x, y));
    return texels;
}

/** The texel of an equirect `texture` level nearest direction (x, y, z) (u = 0.5 toward -Z, growing toward +X). */
async function texel_toward(device: GPUDevice, texture: GPUTexture, mip: number, d: [number, number, number]): Promise<number[]> {
    const image = await read_texture(device, texture, { mip });
    const u = 0.5 + Math.atan2(d[0], -d[2]) / (2 * Math.PI);
    const v = Math.acos(d[1]) / Math.PI;
    return pixel_at(image, Math.min(image.width - 1, Math.floor(u * image.width)), Math.min(image.height - 1, Math.floor(v * image.height)));
}

const SMALL = { specular_size: 16, specular_levels: 5, irradiance_size: 8, samples: 32 } as const;

describe("Environment on Dawn", () => {
    it("a uniform environment gives irradiance equal to its colour and every specular level equal to it", async () => {
        await with_gpu_device(async (device) => {
            const colour: [number, number, number] = [0.8, 0.4, 0.2];
            const environment = new Environment(equirect(64, 32, () => colour), SMALL);
            const t = environment.textures(device);
            expect(t.specular.mipLevelCount).toBe(5);
            expect([t.specular.width, t.specular.height, t.irradiance.width, t.irradiance.height]).toEqual([32, 16, 16, 8]);
            for (const texel of await read_level(device, t.irradiance, 0)) {
                for (let c = 0; c < 3; c++) expect(Math.abs(texel[c] - colour[c])).toBeLessThan(0.01);
            }
            for (let mip = 0; mip < 5; mip++) {
                for (const texel of await read_level(device, t.specular, mip)) {
                    for (let c = 0; c < 3; c++) expect(Math.abs(texel[c] - colour[c])).toBeLessThan(0.01);
                }
            }
            environment.destroy();
        });
    });

    it("directions: a bright +X half lights normals toward +X, a bright sky normals up; the sharp level keeps the contrast, the rough one blurs it", async () => {
        await with_gpu_device(async (device) => {
            // u = 0.5 looks down -Z and u grows toward +X: the +X half of the world is u in (0.5, 1)
            const environment = new Environment(equirect(64, 32, (u, v) => (u > 0.5 ? [1, 0, 0] : [0, 0, 0]).map((c, i) => (i === 2 && v < 0.5 ? 1 : c)) as [number, number, number]), SMALL);
            const t = environment.textures(device);
            // red from +X: facing it, mostly red; facing away, little (only the hemisphere's rim)
            expect((await texel_toward(device, t.irradiance, 0, [1, 0, 0]))[0]).toBeGreaterThan(0.8);
            expect((await texel_toward(device, t.irradiance, 0, [-1, 0, 0]))[0]).toBeLessThan(0.2);
            // toward -Z the plane x = 0 halves the hemisphere: the texel there (centre 11.25 degrees toward +X) gets
            // 0.5 + sin(11.25 deg) / 2 of it
            expect((await texel_toward(device, t.irradiance, 0, [0, 0, -1]))[0]).toBeCloseTo(0.5 + Math.sin(Math.PI / 16) / 2, 1);
            // blue from the sky (v < 0.5)
            expect((await texel_toward(device, t.irradiance, 0, [0, 1, 0]))[2]).toBeGreaterThan(0.8);
            expect((await texel_toward(device, t.irradiance, 0, [0, -1, 0]))[2]).toBeLessThan(0.2);
            // level 0 is the radiance: pure red toward +X, black toward -X; the roughest level blurs the two
            expect((await texel_toward(device, t.specular, 0, [1, 0, 0]))[0]).toBeCloseTo(1, 2);
            expect((await texel_toward(device, t.specular, 0, [-1, 0, 0]))[0]).toBeCloseTo(0, 2);
            const rough_right = (await texel_toward(device, t.specular, 4, [1, 0, 0]))[0];
            const rough_left = (await texel_toward(device, t.specular, 4, [-1, 0, 0]))[0];
            expect(rough_right).toBeLessThan(0.97);
            expect(rough_left).toBeGreaterThan(0.03);
            expect(rough_right).toBeGreaterThan(rough_left);
            environment.destroy();
        });
    });

    it("irradiance weighs texels by solid angle: a 45-degree cap of light around +X gives a normal toward +X sin^2(45) = half its radiance", async () => {
        await with_gpu_device(async (device) => {
            const cap = Math.cos(Math.PI / 4);
            const environment = new Environment(
                equirect(64, 32, (u, v) => {
                    const theta = v * Math.PI;
                    const phi = (u - 0.5) * 2 * Math.PI;
                    return Math.sin(theta) * Math.sin(phi) > cap ? [1, 1, 1] : [0, 0, 0];
                }),
                // 18 x 9: a texel centre lies exactly on +X
                { ...SMALL, irradiance_size: 9 },
            );
            const t = environment.textures(device);
            const toward = await texel_toward(device, t.irradiance, 0, [1, 0, 0]);
            expect(Math.abs(toward[0] - 0.5)).toBeLessThan(0.04);
            environment.destroy();
        });
    });

    it("the BRDF lookup matches a CPU Monte-Carlo split sum at (n.v, roughness) points within 0.02", async () => {
        await with_gpu_device(async (device) => {
            const lut = await read_texture(device, brdf_lut(device));
            expect([lut.width, lut.height, lut.format]).toEqual([BRDF_LUT_SIZE, BRDF_LUT_SIZE, "rg16float"]);
            const points: [number, number][] = [[2, 60], [8, 8], [16, 48], [32, 32], [40, 4], [60, 20], [63, 63], [4, 24], [50, 56]];
            for (const [x, y] of points) {
                const n_v = (x + 0.5) / BRDF_LUT_SIZE;
                const roughness = (y + 0.5) / BRDF_LUT_SIZE;
                const [a, b] = split_sum_reference(n_v, roughness, 4096);
                const [ga, gb] = pixel_at(lut, x, y);
                expect(Math.abs(ga - a), `A at n.v ${n_v}, roughness ${roughness}`).toBeLessThan(0.02);
                expect(Math.abs(gb - b), `B at n.v ${n_v}, roughness ${roughness}`).toBeLessThan(0.02);
            }
            // the same texture for every environment on the device
            expect(brdf_lut(device)).toBe(brdf_lut(device));
        });
    });

    it("destroy frees the textures, and a later use is refused", async () => {
        await with_gpu_device(async (device) => {
            const environment = new Environment(equirect(8, 4, () => [1, 1, 1]), { ...SMALL, specular_size: 2, specular_levels: 2, irradiance_size: 2 });
            const t = environment.textures(device);
            expect(environment.textures(device)).toBe(t);
            environment.destroy();
            expect(() => environment.textures(device)).toThrow(/destroyed/);
        });
    });
});
